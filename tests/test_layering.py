"""The package's layering and organisation, checked on its source: a pure core, one git adapter, click only
in the front end; packages by feature (#27 item 3), each saying in one line what it is, no two importing each
other (not even inside a function), a module name naming one thing, the CLI reaching only use cases, one
module of paths. A module that breaks a rule is named with the import that breaks it."""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "harness"
MODULES = sorted(PACKAGE.rglob("*.py"))
# The core takes values and returns values: no files, processes, clock, git, YAML or click.
CORE_FORBIDDEN = {"os", "subprocess", "pathlib", "time", "datetime", "click", "pygit2", "yaml", "jsonschema",
                  "harness.store", "harness.gitio", "harness.cli", "harness.history", "harness.signatures", "harness.gate",
                  "harness.runner", "harness.evidence", "harness.findings", "harness.task", "harness.approvals",
                  "harness.install"}


@functools.cache
def tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once per run: every rule below walks every module."""
    return ast.parse(path.read_text("utf-8"))


@functools.cache
def imports(path: Path) -> frozenset[str]:
    out = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return frozenset(out)


def rel(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def breaking(allowed: set[str], name: str) -> list[str]:
    return [f"{rel(p)} imports {name}" for p in MODULES
            if rel(p) not in allowed and any(i == name or i.startswith(name + ".") for i in imports(p))]


# The pure rules: the core, and the agent hooks' own (moved in beside the hooks that apply them).
PURE = ("/core/", "/agent/judge/")


def pure(path: Path) -> bool:
    return any(folder in path.as_posix() for folder in PURE)


@pytest.mark.parametrize("path", [p for p in MODULES if pure(p)], ids=rel)
def test_the_core_is_pure(path):
    bad = sorted(i for i in imports(path) for f in (*CORE_FORBIDDEN, "harness.agent")
                 if (i == f or i.startswith(f + ".")) and not i.startswith("harness.agent.judge"))
    assert not bad, f"{rel(path)} imports {bad}"
    calls = [n for n in ast.walk(tree(path))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("print", "open")]
    assert not calls, f"{rel(path)} prints or opens files"



def test_the_core_renders_no_report():
    """Reports (the gate's text, the `Next:` block, a session's opening words) are the front ends': the core
    returns values and the messages they carry, and whatever prints them lays them out."""
    renderers = [f"{rel(p)}: {n.name}" for p in MODULES if pure(p) for n in ast.walk(tree(p))
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and (n.name.startswith("render") or n.name.endswith("_context"))]
    assert not renderers, renderers


GIT_ADAPTER = {rel(p) for p in MODULES if rel(p).startswith("harness/gitio/")}


def test_only_the_git_adapter_imports_pygit2():
    assert breaking(GIT_ADAPTER, "pygit2") == []


def module_file(name: str) -> Path | None:
    """The file of a harness module name (a package's __init__.py), or None for anything else."""
    parts = name.split(".")
    if parts[0] != "harness":
        return None
    base = PACKAGE.parent.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def closure(*starts: Path) -> tuple[set[str], set[str]]:
    """(harness files, other top-level modules) that importing ``starts`` loads, followed
    transitively through harness's own modules (and the packages each one sits in)."""
    seen: set[str] = set()
    others: set[str] = set()
    todo = list(starts)
    while todo:
        path = todo.pop()
        if rel(path) in seen:
            continue
        seen.add(rel(path))
        for name in imports(path):
            parts = name.split(".")
            if parts[0] != "harness":
                others.add(parts[0])
            for n in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ first
                found = module_file(".".join(parts[:n]))
                if found is not None:
                    todo.append(found)
    return seen, others


def test_the_hooks_fast_path_loads_nothing_of_the_adapter_but_its_environment():
    # launch.py answers a code-only commit with it (and so with the package's __init__): pygit2,
    # even loaded lazily, and click would cost that hook. Followed through every harness module
    # it imports, so an import added anywhere along the way is caught.
    files, others = closure(PACKAGE / "gitio" / "__init__.py", PACKAGE / "gitio" / "fast_path.py")
    # (gitio/adoption.py: where the harness was adopted, asked of an old commit's files by git alone)
    assert files == {"harness/__init__.py", "harness/errors.py", "harness/gitio/__init__.py",
                     "harness/gitio/environment.py", "harness/gitio/fast_path.py", "harness/gitio/adoption.py",
                     "harness/core/__init__.py", "harness/core/code_only.py", "harness/core/tree_listing.py"}
    assert not others & {"pygit2", "click", "yaml", "jsonschema"}, others


def test_no_module_imports_jsonschema():
    # A runtime dependency no more (harness.store.schema_check checks the schemas): an import
    # would fail in an install without the test extra, and cost a command ~110 ms where it runs.
    assert breaking(set(), "jsonschema") == []


def test_only_the_adapters_start_processes():
    # git runs through gitio's Repository.run_proc (and its pygit2-free fast path), evidence
    # commands through runner.run_command, ssh-keygen (approval signatures) through signing.
    assert breaking(GIT_ADAPTER | {"harness/runner.py", "harness/signatures/signing.py"}, "subprocess") == []


def test_only_the_front_end_imports_click():
    front = {rel(p) for p in MODULES if "/cli/" in p.as_posix()}
    assert breaking(front, "click") == []


TESTS = Path(__file__).resolve().parent


def test_test_modules_import_helpers_only_from_helpers():
    """A helper has one home, a module of the tests/support/ package. A test module importing another
    ties the two files together (and a test function it imports is collected twice); conftest.py holds
    the fixtures, which pytest hands out itself."""
    bad = []
    for path in sorted(TESTS.glob("test_*.py")):
        for name in imports(path):
            top = name.split(".")[0]
            if top == "conftest" or top.startswith("test_"):
                bad.append(f"tests/{path.name} imports {name}")
    assert bad == []


def test_tests_holds_only_test_modules_and_conftest_and_support_never_imports_a_test_module():
    """No grab-bag beside the tests: shared code lives in tests/support/ (one module per concern), and
    what support/ holds never reaches back into a test module or conftest.py."""
    strays = sorted(p.name for p in TESTS.glob("*.py") if p.name != "conftest.py" and not p.name.startswith("test_"))
    assert strays == []
    back = [f"tests/support/{p.name} imports {name}" for p in sorted((TESTS / "support").glob("*.py"))
            for name in imports(p) if name.split(".")[0] == "conftest" or name.split(".")[0].startswith("test_")]
    assert back == []


def test_a_run_wide_build_name_taken_by_two_builders_fails_instead_of_being_shared(tmp_path_factory):
    from support.templates import once_per_run

    def build(folder: Path) -> dict:
        return {"built": True}

    assert once_per_run(tmp_path_factory, "clash-check", build, "first builder")[1] == {"built": True}
    assert once_per_run(tmp_path_factory, "clash-check", build, "first builder")[1] == {"built": True}
    with pytest.raises(AssertionError, match="two builders share the name 'clash-check'"):
        once_per_run(tmp_path_factory, "clash-check", build, "second builder")


def test_the_push_fast_path_loads_nothing_of_the_adapter_but_its_environment():
    # launch.py answers a code-only push with it: pygit2 and click are what a pre-push hook of a
    # code-only push would otherwise pay for nothing. Followed as above.
    files, others = closure(PACKAGE / "gitio" / "__init__.py", PACKAGE / "gitio" / "push_fast_path.py")
    assert files == {"harness/__init__.py", "harness/gitio/__init__.py", "harness/gitio/environment.py",
                     "harness/gitio/push_fast_path.py", "harness/core/__init__.py", "harness/core/code_only.py",
                     "harness/core/tree_listing.py", "harness/errors.py"}  # the one judge of a listing (read 119)
    assert not others & {"pygit2", "click", "yaml", "jsonschema"}, others


# What a fast path's process has loaded when it answers: the import graph above follows every
# import, lazy ones included, so what a process actually loads is asked of a real one.
# It imports no more than atexit and sys itself, so that what a fast path must not load (json) can be asked.
LOADED = ("import atexit, sys\n"
          "out = sys.argv.pop(1)\n"
          "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules))))\n"
          "from harness.cli.launch import entry\n"
          "entry()\n")


def loaded_by(cwd: Path, args: list[str], stdin: str) -> set[str]:
    import subprocess
    import sys

    out = cwd / ".loaded.json"
    proc = subprocess.run([sys.executable, "-c", LOADED, str(out), *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(out.read_text().splitlines())


HEAVY = {"click", "yaml", "pygit2", "jsonschema", "harness.cli.main", "harness.store.tasks", "harness.gitio.git"}


def test_the_agent_guard_answers_a_read_with_the_hosts_module_alone(h, repo):
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Read", "tool_input": {"file_path": "README.md"}}
    import json

    loaded = loaded_by(repo, ["hook", "agent", "claude", "pre-tool-use"], json.dumps(call))
    assert "harness.agent.hosts" in loaded
    assert not loaded & (HEAVY | {"bashlex", "harness.agent.judge.bypass", "dataclasses", "pathlib", "inspect", "typing",
                                  "json", "contextlib", "hashlib"}), loaded


def test_the_agent_guard_judges_a_shell_command_without_click_yaml_or_pygit2(h, repo, tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("HARNESS_PARSER_TABLES", str(tmp_path / "cache"))
    config = repo / ".harness" / "config.yaml"  # filled in as people do: commands as lists of quoted words
    config.write_text(config.read_text().replace("evidence: {}", 'evidence:\n  unit_test:\n    command: ["pytest", "-q"]'))
    # `rm -rf "$BUILD_DIR"`, not `ls -la`: a plain reader is answered before the judge loads (the test below);
    # nor `rm -rf build`: a plain line is judged without bashlex (harness.agent.judge.plain_line).
    call = {"session_id": "s", "cwd": str(repo), "tool_name": "Bash", "tool_input": {"command": 'rm -rf "$BUILD_DIR"'}}
    loaded = loaded_by(repo, ["hook", "agent", "claude", "pre-tool-use"], json.dumps(call))
    assert {"bashlex", "harness.agent.bashlex_tables", "harness.agent.judge.bypass"} <= loaded
    # The notes ref of such a config.yaml is read without YAML (harness.agent.notes_ref_plain, store.plain_yaml).
    assert not loaded & (HEAVY | {"hashlib", "harness.store.settings"}), loaded


def test_the_agent_guard_answers_plain_commands_and_source_edits_before_the_judge_loads(h, repo):
    import json

    calls = [("Bash", {"command": "ls -la"}), ("Bash", {"command": "pytest -q tests"}),
             ("Edit", {"file_path": str(repo / "README.md"), "old_string": "a", "new_string": "b"})]
    for tool, tool_input in calls:
        call = {"session_id": "s", "cwd": str(repo), "tool_name": tool, "tool_input": tool_input}
        loaded = loaded_by(repo, ["hook", "agent", "claude", "pre-tool-use"], json.dumps(call))
        assert "harness.agent.quick_allow" in loaded
        assert not loaded & (HEAVY | {"bashlex", "harness.agent.judge.bypass", "harness.agent.hook_facts", "dataclasses",
                                      "pathlib", "typing", "json", "hashlib"}), (tool, loaded)


def test_the_version_is_answered_without_click_and_as_click_would(tmp_path):
    from importlib.metadata import version

    import harness

    assert harness.__version__ == version("engineering-harness")  # what click's version_option prints
    assert not loaded_by(tmp_path, ["--version"], "") & HEAVY


# What `harness status` needs beside the store and the use case: none of the CLI's, and for a task
# with no evidence neither git's object store nor the writers' redaction rules and runner.
STATUS_SPARED = {"click", "pygit2", "jsonschema", "harness.cli.main", "harness.cli.common", "harness.cli.status",
                 "harness.gitio.git", "harness.evidence.record", "harness.runner", "harness.core.redact",
                 "harness.store.secrets_check"}


def test_status_is_answered_without_click_or_the_object_store(h, repo, task):
    for args in (["status"], ["status", "--json"]):
        loaded = loaded_by(repo, args, "")
        assert {"harness.cli.status_fast", "harness.task.status"} <= loaded
        assert not loaded & STATUS_SPARED, loaded & STATUS_SPARED


def test_status_of_a_task_with_evidence_reads_git_but_loads_no_click(h, repo, task):
    h.ok("evidence", "custom", "--", "true")
    loaded = loaded_by(repo, ["status"], "")
    assert "harness.gitio.git" in loaded  # the source tree the evidence is fresh on
    assert not loaded & {"click", "jsonschema", "harness.cli.main", "harness.evidence.record", "harness.runner"}, loaded


def test_status_judges_a_gate_yaml_against_heads_without_pygit2(h, repo, task):
    """Read 114's F-0402: status refuses a gate.yaml loosening HEAD's policy as the gate does, reading HEAD's with
    git processes: a task with no evidence to judge by tree (here in GATING) loads no pygit2 extension for it."""
    from support.cli import TO_VERIFYING, walk_to
    from support.gitrepo import commit_all_ok

    walk_to(h, *TO_VERIFYING, "REVIEWING", "GATING")
    commit_all_ok(repo, "task")
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("unit_test: required", "unit_test: optional"))
    assert "INVALID_HARNESS_STATE" in h("status").out
    import subprocess
    import sys

    out = repo / ".loaded.json"
    for args in (["status"], ["status", "--json"]):
        proc = subprocess.run([sys.executable, "-c", LOADED, str(out), *args], cwd=repo, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 2 and "INVALID_HARNESS_STATE" in proc.stdout, proc.stdout + proc.stderr
        loaded = set(out.read_text().splitlines())
        assert "harness.task.status" in loaded and not loaded & {"click", "pygit2._pygit2"}, loaded


# What a recording does not need from the standard library: each is milliseconds of the fixed cost an
# agent pays on every `harness evidence` (typing 4, datetime 3, tempfile with shutil and random 6:
# bench/hot_evidence.py times the whole). The clock, temp files, `which` and type names are
# written without them; a module used on this path that needs one imports it where it is used.
RECORDING_SPARED = {"typing", "datetime", "tempfile", "shutil", "random",
                    "dataclasses", "inspect"}  # harness.core.value_class stands in (self-found 26's F-0541)


def test_a_recording_loads_neither_click_nor_the_slow_standard_modules(h, repo, task):
    loaded = loaded_by(repo, ["evidence", "custom", "--", "true"], "")
    assert {"harness.cli.evidence_fast", "harness.evidence.record", "harness.runner"} <= loaded
    # pygit2 stands in sys.modules as a lazy module (harness.gitio.lazy_pygit2); its extension loads on first use
    # the published line is read only where an approval is met (read 154's F-0543); a recording meets none
    heavy = RECORDING_SPARED | {"click", "pygit2._pygit2", "yaml", "jsonschema", "harness.cli.main",
                                "harness.signatures.published_line"}
    assert not loaded & heavy, loaded & heavy


def test_status_without_evidence_loads_none_of_the_slow_standard_modules(h, repo, task):
    for args in (["status"], ["status", "--json"]):
        assert not loaded_by(repo, args, "") & RECORDING_SPARED


def test_a_code_only_push_is_answered_without_importing_subprocess(h, repo, task):
    # The fast path starts its git processes with os.posix_spawnp: subprocess's imports (re, locale,
    # threading, selectors) cost a code-only push more than the git processes themselves.
    from support.gitrepo import commit_all_ok, head

    commit_all_ok(repo, "task")
    base = head(repo)
    for i in range(3):
        (repo / "code.txt").write_text(f"revision {i}\n")
        commit_all_ok(repo, f"code {i}")
    line = f"refs/heads/main {head(repo)} refs/heads/main {base}\n"
    loaded = loaded_by(repo, ["hook", "run", "pre-push", "origin", "/nowhere/remote.git"], line)
    assert "harness.gitio.push_fast_path" in loaded
    assert not loaded & (HEAVY | {"subprocess", "harness.cli.main"}), loaded


def test_status_with_no_task_yet_loads_no_git_object_store(h, repo):
    # The list of finished tasks opens git only for a DONE task's commit; with none it is not loaded.
    for args in (["status"], ["status", "--json"]):
        assert not loaded_by(repo, args, "") & STATUS_SPARED


# What `harness status` and the session hooks load in place of these: harness.store.plain_yaml (PyYAML, and
# pickle for the copies of its parses), harness.core.value_class (dataclasses, which imports inspect),
# harness.core.sha256 (hashlib's OpenSSL binding); the clock is read only where something is written (#28).
STATUS_AND_SESSION_SPARED = {"yaml", "pickle", "dataclasses", "inspect", "hashlib", "datetime", "click", "pygit2"}


def test_status_and_the_session_hooks_read_the_harness_files_without_pyyaml(h, repo, task):
    import json

    event = json.dumps({"session_id": "s", "cwd": str(repo)})
    for args, stdin in ((["status"], ""), (["status", "--json"], ""),
                        (["hook", "agent", "claude", "session-start"], event),
                        (["hook", "agent", "claude", "stop"], event)):
        loaded = loaded_by(repo, args, stdin)
        assert "harness.store.plain_yaml" in loaded, args
        assert not loaded & STATUS_AND_SESSION_SPARED, (args, loaded & STATUS_AND_SESSION_SPARED)


# -- packages by feature (#27 item 3) ----------------------------------------------------------------------

PACKAGES = sorted(p.parent for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts)
# The layers a feature is seen from beside its own package: its pure rules (core) and its command (cli).
LAYERS = {"core", "cli"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


BY_NAME = {module_name(p): p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}


def unit(module: str) -> str:
    """What a cycle is counted between: a top-level package (`harness.store`), or a module loose at the top."""
    return ".".join(module.split(".")[:2])


@functools.cache
def imported(module: str) -> frozenset[str]:
    """Every harness module ``module`` imports, anywhere in it: at the top, inside a function, for typing."""
    path = BY_NAME[module]
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            stem = ".".join(base[:len(base) - node.level + 1] if node.level else []) if node.level else ""
            origin = ".".join(p for p in (stem, node.module or "") if p)
            names = [origin, *(f"{origin}.{a.name}" for a in node.names)]
        else:
            continue
        out.update(n for n in names if n in BY_NAME and n != module)
    return frozenset(out)


def unit_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module in BY_NAME:
        for target in imported(module):
            if unit(target) != unit(module) and unit(target) != "harness":
                graph[unit(module)].add(unit(target))
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: module_name(p / "__init__.py"))
def test_every_package_says_in_one_line_what_it_is(package):
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8")))
    assert doc, f"{module_name(package / '__init__.py')} has no docstring"
    first = doc.splitlines()[0]
    assert first.endswith((".", ":")) or len(doc.splitlines()) == 1, f"its first line is not a sentence: {first!r}"


def test_no_two_packages_import_each_other_even_inside_a_function():
    assert cycle_in(unit_graph()) is None, " -> ".join(cycle_in(unit_graph()) or [])


def test_the_cycle_check_finds_a_cycle_through_three_packages():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_imports_inside_functions_are_counted():
    assert "harness.gitio.fast_path" in imported("harness.store.source")  # imported inside a method


def test_a_module_name_names_one_thing():
    """`converge` as core/converge.py (the pure decision), gate/converge.py (the use case) and
    cli/converge.py (the command) is one feature seen from its layers; `validate` in two feature packages
    was two things, and so is a module named like a feature package it does not belong to."""
    where: dict[str, set[str]] = defaultdict(set)
    for module in BY_NAME:
        parts = module.split(".")
        if len(parts) > 2:
            where[parts[-1]].add(".".join(parts[1:-1]))
    features = {m.split(".")[1] for m in BY_NAME if BY_NAME[m].name == "__init__.py" and m.count(".") == 1}
    clashes = {name: sorted(pkgs) for name, pkgs in where.items()
               if len([p for p in pkgs if p not in LAYERS]) > 1}
    clashes.update({name: sorted(where[name]) for name in features & set(where)
                    if not where[name] <= LAYERS | {name}})
    assert not clashes, f"one name for different things: {clashes}"


def runtime_imports(module: str) -> frozenset[str]:
    """What ``module`` imports when it runs: :func:`imported` without the `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(BY_NAME[module].read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            typing_only.update([node.module, *(f"{node.module}.{a.name}" for a in node.names)])
        elif isinstance(node, ast.Import):
            typing_only.update(a.name for a in node.names)
    return frozenset(i for i in imported(module) if i in typing_only)


# The use cases, feature by feature: plain functions taking values and returning result values. They
# are what the CLI calls.
USE_CASES = (
    "harness.gate.evaluate", "harness.gate.index", "harness.gate.converge",
    "harness.evidence.recording",
    "harness.findings.steps", "harness.findings.before_fix", "harness.findings.review",
    "harness.task.contract", "harness.task.transitions", "harness.task.listing", "harness.task.status",
    "harness.approvals.approve",
    "harness.history.audit", "harness.history.audit_fanout", "harness.history.audit_scope",
    "harness.history.hook_checks", "harness.history.pre_receive", "harness.history.metrics",
    "harness.history.stamp_commit", "harness.history.stamp_head",
    "harness.install.initialize", "harness.install.shims", "harness.install.journal",
    "harness.install.notes_refspecs", "harness.install.server", "harness.install.skills",
    "harness.task.items", "harness.gate.steps_now",
    # the agent hooks' own: their installer, the host registry the CLI's choices come from, the skills
    # installer, the stop hook's counts
    "harness.agent.hook_settings", "harness.agent.hosts", "harness.agent.skills_install", "harness.agent.stopstate",
)
# What the CLI may reach: the use cases, the values the core returns, the gate's live answer (the next
# step now, listed as a use case), and what the edge builds a
# command from (the context, the repository, the .harness/ layout, the task store, the hook stage
# table). History's rules, the re-run, the trust root, the evidence recorder and the store's files are
# reached through use cases. The click-free fast paths (launch, status_fast, evidence_fast,
# agent_hook) answer before any of this loads: tests/test_layering.py pins what each of them may
# import instead.
CLI_REACHES = ("harness.cli", *USE_CASES, "harness.core", "harness.errors", "harness.context",
               "harness.paths", "harness.resources", "harness.crashlog", "harness.install.hook_stages",
               "harness.gitio.git", "harness.store.layout", "harness.store.tasks")
FAST_PATHS = {"harness.cli.launch", "harness.cli.status_fast", "harness.cli.evidence_fast", "harness.cli.agent_hook"}


@pytest.mark.parametrize("module", sorted(m for m in BY_NAME if m.startswith("harness.cli.") and m not in FAST_PATHS))
def test_the_cli_reaches_only_use_cases_and_what_the_edge_builds(module):
    direct = sorted(i for i in runtime_imports(module)
                    if i not in ("harness", "harness.store", "harness.gitio", "harness.agent",
                                 *{u.rsplit(".", 1)[0] for u in USE_CASES})
                    and not any(i == a or i.startswith(a + ".") for a in CLI_REACHES))
    assert not direct, f"{module} imports {direct}"


# The task store's writers: the CLI builds the store at the edge and hands it to a use case, which writes.
STORE_WRITERS = {"append", "create", "switch", "set_spec", "rewrite"}


def store_writes(source: str) -> list[str]:
    """The calls of a store writer on `s` or on `store()` in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STORE_WRITERS:
            target = node.func.value
            if (isinstance(target, ast.Name) and target.id == "s") or (
                    isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "store"):
                out.append(f"line {node.lineno}: {ast.unparse(node.func)}")
    return out


@pytest.mark.parametrize("module", sorted(m for m in BY_NAME if m.startswith("harness.cli.")))
def test_the_cli_writes_the_task_store_only_through_use_cases(module):
    assert not store_writes(BY_NAME[module].read_text("utf-8")), module


def test_the_store_write_rule_sees_a_write_and_leaves_a_list_alone():
    assert store_writes("s.append(tid, [])\nstore().switch('T')\n") == ["line 1: s.append", "line 2: store().switch"]
    assert store_writes("lines.append('x')\nrows.append(('a', 'b'))\n") == []


def test_typing_only_imports_are_not_counted_as_reaching():
    assert "harness.history.change_rules" in imported("harness.cli.hooks")
    assert "harness.history.change_rules" not in runtime_imports("harness.cli.hooks")


BARE_PATH = re.compile(r"^\.harness(/[\w./{}*-]*)?$")


def path_literals(path: Path) -> list[str]:
    """Where a module spells a `.harness/` path itself: a string that is such a path (prose is not), or an
    f-string that starts with one."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and str(head.value).startswith(".harness") and " " not in head.value:
                found.append(f"line {node.lineno}: f{head.value!r}…")
            docstrings.update(id(v) for v in node.values)
    found += [f"line {n.lineno}: {n.value!r}" for n in ast.walk(tree) if isinstance(n, ast.Constant)
              and isinstance(n.value, str) and id(n) not in docstrings and BARE_PATH.match(n.value)]
    return found


@pytest.mark.parametrize("module", sorted(m for m in BY_NAME if m != "harness.paths"))
def test_only_the_paths_module_spells_a_harness_path(module):
    assert not path_literals(BY_NAME[module]), f"{module} spells {path_literals(BY_NAME[module])}: use harness.paths"


def test_the_paths_rule_sees_a_spelled_path_and_leaves_prose_alone(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""About .harness/ files."""\nA = ".harness/gate.yaml"\nB = f".harness/tasks/{A}"\n'
                      'C = "edit .harness/config.yaml by hand"\n')
    assert [f.split(":")[0] for f in path_literals(sample)] == ["line 3", "line 2"]


def test_the_cli_rule_sees_what_a_fast_path_reaches_directly():
    """The fast paths are left out on purpose: the rule would flag them (they read the store themselves)."""
    direct = [i for i in runtime_imports("harness.cli.launch")
              if i not in ("harness", "harness.store", "harness.gitio")
              and not any(i == a or i.startswith(a + ".") for a in CLI_REACHES)]
    assert direct
