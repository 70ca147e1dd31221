"""The README's first command: the end-to-end demonstration runs clean and every shortcut in it is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_demo_walks_to_done_and_every_shortcut_is_refused(tmp_path):
    venv_bin = Path(sys.executable).parent
    env = {**os.environ, "TMPDIR": str(tmp_path), "PATH": f"{venv_bin}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(ROOT / "demo/run")], capture_output=True, text=True, env=env, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "DEMO FAILURE" not in out
    assert out.count("as it must be") == 9  # each of the nine scripted shortcuts was refused
    assert out.count("QUALITY GATE: PASS") >= 2 and "CONVERGED → DONE" in out
