"""A recording answered before click (harness.cli.evidence_fast) ends its process as the agent guard and a
code-only push do, without the interpreter's teardown (harness.cli.quick_exit): the command's exit code,
its output and the atexit callbacks as a normal exit gives them, the record written. A form click answers
exits as it always has."""

from __future__ import annotations

import json
import subprocess
import sys

PROGRAM = """
import atexit, sys

class Teardown:
    def __del__(self):
        print("torn down", file=sys.stderr, flush=True)

keep = Teardown()
atexit.register(lambda: print("atexit ran", file=sys.stderr, flush=True))
sys.modules["__main__"].__spec__ = type("S", (), {"name": "harness.__main__"})()
sys.argv = ["harness", "evidence", "custom", *sys.argv[1:], "--", sys.executable, "-c",
            "import sys; print('the output'); sys.exit(3)"]
from harness.cli.launch import entry
entry()
"""


def _record(repo, options: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROGRAM, *options], cwd=repo, capture_output=True, text=True,
                          timeout=300)


def test_a_recording_answered_before_click_exits_with_the_command_s_code_without_teardown(h, task):
    proc = _record(h.root, [])
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == "the output\n"
    assert "custom evidence recorded: failed (exit 3)" in proc.stderr and "atexit ran" in proc.stderr
    assert "torn down" not in proc.stderr
    record = json.loads((h.root / ".harness" / "tasks" / task / "evidence" / "custom.json").read_text())
    assert (record["exit_code"], record["outcome"]) == (3, "failed")


def test_a_recording_click_answers_exits_as_before(h, task):
    proc = _record(h.root, ["--timeout", "60"])  # an option after the type: click's form
    assert proc.returncode == 3, proc.stderr
    assert "atexit ran" in proc.stderr and "torn down" in proc.stderr
