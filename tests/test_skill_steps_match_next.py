"""A skill's steps and the CLI's `Next:` agree: each step, run as the skill writes it, prints as its
`Next:` the step the skill names after it. A skill that says "read the gate first" while the CLI
says `gate --advance` would teach an agent two habits; this walks the skills and compares."""

from __future__ import annotations

import itertools
import re
import shlex
import sys
from pathlib import Path

import pytest

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_passing_evidence, new_task, proposal, propose
from support.records import configure
from support.skill_commands import FENCE, command_lines, mentions

SKILLS = Path(__file__).resolve().parent.parent / "skills"
NEXT_LINE = re.compile(r"^Next:\s+(.*?)  — ", re.M)
PY = sys.executable


def skill(name: str) -> str:
    return (SKILLS / name / "SKILL.md").read_text("utf-8")


def first_block_after(markdown: str, heading: str) -> list[str]:
    """The `harness …` lines of the first code block after ``heading``."""
    body = FENCE.search(markdown, markdown.index(heading))
    assert body is not None, heading
    return command_lines(body.group(0))


def printed_next(text: str) -> str | None:
    """The recommended command of the `Next:` block a command printed (stdout or stderr)."""
    m = NEXT_LINE.search(text)
    return m.group(1) if m else None


def walk(h, steps: list[str]) -> list[tuple[str, str | None, str]]:
    """Run each step; (step, the Next: it printed, the step the skill names after it) for each but the last."""
    seen = []
    for step, following in itertools.pairwise(steps):
        r = h(*shlex.split(step)[1:])
        assert r.code == 0, f"{step}: {r.text}"
        seen.append((step, printed_next(r.text), following))
    return seen


def at_reviewing(h) -> None:
    """A task whose evidence passes and whose requirement is verified, in REVIEWING with no finding."""
    new_task(h)
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    walk_to(h, "REVIEWING")


def test_the_quality_gate_skills_steps_are_the_next_lines_the_cli_prints(h, repo):
    steps = first_block_after(skill("quality-gate"), "## Steps")
    assert steps[:3] == ["harness transition GATING", "harness gate", "harness gate --advance"]  # read, then advance
    at_reviewing(h)
    for step, said, following in walk(h, steps):
        assert said == following, f"after `{step}` the CLI says `{said}`; the skill says `{following}`"


def test_the_convergence_skills_steps_are_the_next_lines_the_cli_prints(h, repo):
    steps = command_lines(skill("convergence"))[:3]
    assert steps == ["harness converge", "harness converge --apply", "harness transition DONE"]
    at_reviewing(h)
    h.ok("transition", "GATING")
    for step, said, following in walk(h, steps):
        assert said == following, f"after `{step}` the CLI says `{said}`; the skill says `{following}`"


def test_the_reproduce_finding_skills_fix_steps_are_the_next_lines_the_cli_prints(h, repo, tmp_path):
    text = skill("reproduce-finding")
    lines = command_lines(text)
    steps = lines[lines.index("harness finding fixed F-0001"):]
    back = [m for m in mentions(text[text.index("Back into the loop"):]) if m.startswith("harness transition")][:1]
    assert back == ["harness transition VERIFYING"]
    configure(repo, [PY, "-c", "pass"], [PY, "-c", "import app; assert app.answer() == 41"])
    new_task(h)
    walk_to(h, *TO_VERIFYING, "REVIEWING")
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("transition", "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")  # answer() is 42: the reviewer's reproducer fails, CONFIRMED
    (repo / "tests").mkdir()
    (repo / "tests/test_answer.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n"
        "import app\nassert app.answer() == 41\n")
    h.ok("finding", "regression", "F-0001", "tests/test_answer.py", "--", PY, "tests/test_answer.py")
    h.ok("transition", "FIXING")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    for step, said, following in walk(h, [*steps, *back]):
        assert said == following, f"after `{step}` the CLI says `{said}`; the skill says `{following}`"


@pytest.mark.parametrize("name", ["quality-gate", "convergence"])
def test_the_gate_skills_never_advance_before_reading(name):
    steps = command_lines(skill(name))
    first_apply = next(i for i, s in enumerate(steps) if "--advance" in s or "--apply" in s)
    assert steps[first_apply - 1] in ("harness gate", "harness converge"), steps
