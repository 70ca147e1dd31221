"""Every command that moves a task prints the same `Next:` block, from one renderer
(`harness.cli.progress.next_lines`), and its JSON `next` field holds the same steps: `requirement set`,
`invariant set` and the finding commands included, with no inline "(next: …)" form left."""

from __future__ import annotations

import json
import re
import shlex
import sys

from harness.cli.progress import next_lines as render
from harness.core.next_step import NextStep, as_data

from support.cli import TO_VERIFYING, walk_to
from support.flows import collect_all, proposal, propose
from support.records import configure
from support.skill_commands import parse

NEXT_BLOCK = re.compile(r"^Next: {9}\S")


def next_block(text: str) -> list[str]:
    """The commands of the `Next:` block in ``text`` (recommended first); [] when there is none."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if NEXT_BLOCK.match(line)), None)
    if start is None:
        return []
    block = [lines[start]] + [line for line in lines[start + 1:] if line.startswith(" " * 14)]
    return [line.removeprefix("Next:").split("  — ")[0].strip() for line in block]


def assert_runnable(commands: list[str], tmp_path, monkeypatch) -> None:
    """Each named command exists with the options it is given (placeholders left for the user)."""
    monkeypatch.chdir(tmp_path)
    for command in commands:
        if command.startswith("harness "):
            parse(shlex.join(shlex.split(command)), complete=False)


def test_the_one_renderer_puts_the_recommended_command_first_and_aligns_the_rest():
    steps = [NextStep("harness gate", "read it"), NextStep("harness evidence unit_test", "or this")]
    assert render(steps) == ["Next:         harness gate  — read it", "              harness evidence unit_test  — or this"]
    assert as_data(steps) == [{"command": "harness gate", "why": "read it"},
                              {"command": "harness evidence unit_test", "why": "or this"}]
    assert render([]) == [] and as_data([]) == []


def test_requirement_and_invariant_set_print_the_tasks_next_step(h, repo, task, tmp_path, monkeypatch):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    h.ok("invariant", "add", "answer() is pure", "--category", "correctness", "--severity", "major")
    walk_to(h, *TO_VERIFYING)
    collect_all(h)
    said = h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test").out
    assert said.startswith("REQ-001: verified") and "(next:" not in said
    assert next_block(said) == [n["command"] for n in json.loads(h.ok("status", "--json").out)["next"]]
    said = h.ok("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test").out
    assert said.startswith("INV-001: verified")
    steps = next_block(said)
    assert steps == [n["command"] for n in json.loads(h.ok("status", "--json").out)["next"]]
    assert steps[-1] == "harness transition REVIEWING"
    assert_runnable(steps, tmp_path, monkeypatch)


def test_finding_commands_print_a_next_block_not_an_inline_hint(h, repo, task, tmp_path, monkeypatch):
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    # Written before the review starts: the reviewed code is the tree the task enters REVIEWING on (F-0343)
    (repo / "app.py").write_text("def answer():\n    return 41\n")  # the reviewer's reproducer passes on it
    walk_to(h, "REVIEWING")
    said = propose(h, tmp_path, [proposal(), proposal(title="a second claim")])
    assert said.code == 0
    assert next_block(said.out) == ["harness finding reproduce F-0001", "harness finding reproduce F-0002"]
    said = h.ok("finding", "reproduce", "F-0001").out
    assert "(next:" not in said  # the reviewer's reproducer passed: the claim does not hold
    assert next_block(said) == ['harness finding reject F-0001 --reason "WHY THE CLAIM DOES NOT HOLD"']
    said = h.ok("finding", "reject", "F-0001", "--reason", "answer() is 41").out
    assert said.startswith("F-0001: REJECTED") and "(next:" not in said
    # REJECTED is final: the task's next step follows, as `harness status` gives it
    assert next_block(said) == [n["command"] for n in json.loads(h.ok("status", "--json").out)["next"]]
    assert_runnable(next_block(said), tmp_path, monkeypatch)


def test_closing_a_finding_hands_over_to_the_tasks_next_step(h, repo, task, tmp_path, monkeypatch):
    py = sys.executable
    configure(repo, [py, "-c", "pass"], [py, "-c", "import app; assert app.answer() == 41"])
    h.ok("requirement", "add", "The answer is 41", "--priority", "must")
    walk_to(h, *TO_VERIFYING, "REVIEWING")
    assert propose(h, tmp_path, proposal()).code == 0
    h.ok("transition", "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")
    (repo / "tests").mkdir()
    (repo / "tests/test_answer.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n"
        "import app\nassert app.answer() == 41\n")
    said = h.ok("finding", "regression", "F-0001", "tests/test_answer.py", "--", py, "tests/test_answer.py").out
    assert next_block(said) == ["harness finding fixed F-0001"]
    h.ok("transition", "FIXING")
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    h.ok("finding", "fixed", "F-0001")
    collect_all(h)
    h.ok("evidence", "unit_test")
    said = h.ok("finding", "verify", "F-0001").out
    assert next_block(said) == ["harness finding close F-0001"]
    said = h.ok("finding", "close", "F-0001").out
    assert said.startswith("F-0001: CLOSED")
    steps = next_block(said)
    assert steps == [n["command"] for n in json.loads(h.ok("status", "--json").out)["next"]]
    assert steps[0] == "harness transition VERIFYING"
    assert_runnable(steps, tmp_path, monkeypatch)
