"""The adversarial-review packet: everything a reviewer with no other context needs,
and nothing of the implementer's own narrative."""

from __future__ import annotations

import re

import yaml

from harness.store.reader import LoadedTask

TYPE_CHECKING = False
if TYPE_CHECKING:
    from harness.store.tasks import TaskStore

# Test files by name, as the common runners find them: pytest's test_*.py/*_test.py, any test_* file
# (testthat's test_*.R, test_*.f90, a test_runner script), unittest's root test.py, Django's tests.py,
# tests/ folders, jest's *.test.js/*.spec.js.
TEST_PATH = re.compile(r"(^|/)(tests?|spec|__tests__)/|(^|/)test_[^/]+$|(^|/)tests?\.[a-z]+$|_test\.[a-z]+$|"
                       r"\.(test|spec)\.[a-z]+$")

RULES = """\
1. Assume the implementation contains defects. Your job is to find them, not to approve.
2. Construct concrete failure scenarios against: the requirements, the invariants, failure guarantees,
   state transitions, concurrency, idempotency, and recovery (crash, restart, retry, duplicate delivery).
3. No style feedback. No refactoring advice. No code changes — you do not edit files.
4. Output only findings, as YAML in the schema below (a list under `findings:`). Each needs a location, a claim,
   a step-by-step failure scenario, the expected behaviour, and a recommended reproducer — ideally a command
   that exits non-zero while the defect exists.
5. A finding is only a proposal. It becomes a bug when its reproducer fails under the harness.
"""

EXAMPLE = {"findings": [{
    "type": "suspected_defect", "severity": "major", "category": "idempotency",
    "title": "Duplicate recovery replays an action that already succeeded",
    "claim": "resume() re-executes actions whose side effect was recorded but whose completion marker was not",
    "related_requirements": ["REQ-002"], "related_invariants": ["INV-001"],
    "location": {"file": "src/runner.py", "line": 88},
    "failure_scenario": ["start a task with one action", "kill the process after the side effect, before the marker",
                         "call resume() twice"],
    "expected_behavior": "the side effect happens exactly once",
    "possible_actual_behavior": "the side effect happens twice",
    "recommended_reproducer": {"type": "unit_test", "description": "crash between effect and marker, resume twice",
                               "command": "python -m pytest -q tests/test_recovery.py::test_double_resume"},
}]}


def packet(task: LoadedTask, base: str, diff: str, changes: list[tuple[str, str]],
           suite_files: frozenset[str] = frozenset()) -> str:
    """The packet's markdown. ``suite_files``: the changed paths the evidence commands name (a root
    `checks.py` a test command runs): tests whatever their name."""
    p = task.proj
    tests = [path for status, path in changes if path in suite_files or TEST_PATH.search(path)]
    out = [f"# Adversarial review packet — {p.id}", "", f"Task: {p.title}", f"Diff base: `{base}`", "",
           "## Your rules", "", RULES]
    if p.contract:
        c = p.contract["contract"]
        out += ["## Contract", "", "Acceptance criteria:", *[f"- {a}" for a in c["acceptance_criteria"]], ""]
        if c.get("risks"):
            out += ["Known risks:", *[f"- {r}" for r in c["risks"]], ""]
    out += ["## Requirements", ""]
    out += [f"- **{r['id']}** ({r['priority']}): {r['statement']}" for r in p.requirements.values()] or ["(none)"]
    out += ["", "## Invariants", ""]
    out += [f"- **{i['id']}** [{i['category']}, {i['severity']}]: {i['statement']}" for i in p.invariants.values()] or ["(none)"]
    out += ["", "## Tests added or changed", ""]
    out += [f"- `{t}`" for t in tests] or ["(none — a change without tests is itself worth a finding)"]
    out += ["", "## Files changed", "", *[f"- {s} `{path}`" for s, path in changes], "",
            "## Diff", "", "```diff", diff.rstrip() or "(no changes)", "```", "",
            "## Finding schema (write a list of these; `harness finding propose --file FILE` records them)", "",
            "Required: severity (critical|major|minor), category, title, claim, location.file, failure_scenario (list),",
            "expected_behavior, recommended_reproducer (type, description, command). Optional: type,",
            "related_requirements, related_invariants, location.line, possible_actual_behavior.",
            "A critical or major finding must give recommended_reproducer.command: a command that fails while the",
            "defect exists. Only a run of it confirms or refutes the finding.", "",
            "```yaml", yaml.safe_dump(EXAMPLE, sort_keys=False, width=100).rstrip(), "```", ""]
    return "\n".join(out)


# Files a command names or reads that configure it rather than test: never listed as tests.
CONFIG_FILES = ("**/*.toml", "**/*.cfg", "**/*.ini", "**/*.json", "**/*.yaml", "**/*.yml", "**/Makefile",
                "**/makefile", "**/GNUmakefile", "**/justfile", "**/Justfile", "**/.justfile", "**/noxfile.py",
                "**/conftest.py")


def task_packet(s: TaskStore, task_id: str | None, base: str | None) -> tuple[str, int]:
    """(the packet for the task, how many files its diff changes): the diff since ``base`` (default: the
    commit the task started from)."""
    from harness.errors import Refused
    from harness.gitio.worktree import diff_since

    task = s.load(s.current_id(task_id), docs=False)
    rev = base or task.proj.base_commit
    if not rev:
        raise Refused(f"{task.id} started on an unborn branch: there is no base commit to diff against",
                      hint="pass --base REV")
    sha = s.git.resolve(rev)
    diff, changes = diff_since(s.git, sha)
    return packet(task, sha, diff, changes, _suite_files(s, {path for _, path in changes})), len(changes)


def _suite_files(s: TaskStore, paths: set[str]) -> frozenset[str]:
    """Which of ``paths`` the evidence commands name: a test named `test.py` or `checks.py` is a test
    because a test command runs it, not because of its name. Other files the suite protects
    (pyproject.toml, tox.ini: configuration) are not tests."""
    from harness.core import suite
    from harness.store import settings

    commands = [c.argv for c in settings.load_config(s.layout).commands.values()]
    named = suite.named_files(commands, paths)
    return frozenset(p for p in named if not suite.matches(p, CONFIG_FILES))
