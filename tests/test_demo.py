"""The README's first command: the end-to-end demonstration runs clean and every shortcut in it is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # runs the demo

ROOT = Path(__file__).resolve().parent.parent


def test_demo_walks_to_done_escalates_one_task_and_refuses_every_shortcut(tmp_path):
    venv_bin = Path(sys.executable).parent
    env = {**os.environ, "TMPDIR": str(tmp_path), "PATH": f"{venv_bin}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(ROOT / "demo/run")], capture_output=True, text=True, env=env, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "DEMO FAILURE" not in out
    assert out.count("as it must be") == 9  # each of the nine scripted shortcuts was refused
    assert out.count("QUALITY GATE: PASS") >= 2 and "CONVERGED → DONE" in out
    # driven by the skills' commands: status names the next step, converge decides the loop
    assert "skills in " in out and "Next:" in out
    assert out.count("CONVERGENCE: CONVERGED") == 2 and out.count("GATING → CONVERGED") == 2
    assert out.count("as decided") == 4  # the escalated task's failing run, blocked gate and two converge calls
    assert "CONVERGENCE: ESCALATE (MAX_ITERATIONS)" in out and "BLOCKED → ESCALATED" in out
    assert "Escalated     MAX_ITERATIONS: " in out
