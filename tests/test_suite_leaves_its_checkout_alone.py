"""No test writes into the checkout the suite runs from: a run whose tests changed the project's own
`.harness/` (a task's ledger, its evidence) fails, naming the files — a developer's real task record
is not a scratch repository (the suite's plugin, support/plugin.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # a nested run of the suite's own plugin, out of the inner loop

TESTS = Path(__file__).resolve().parent
LEDGER = ".harness/tasks/TASK-20261204-000001/events.jsonl"


def _project(tmp_path: Path, test_body: str) -> Path:
    """A checkout with a task of its own and one test, under the suite's plugin."""
    root = tmp_path / "checkout"
    shutil.copytree(TESTS / "support", root / "tests" / "support", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "tests" / "conftest.py").write_text('pytest_plugins = ("support.plugin",)\n')
    (root / "tests" / "test_one.py").write_text(f"from pathlib import Path\n\n\ndef test_one():\n{test_body}\n")
    ledger = root / LEDGER
    ledger.parent.mkdir(parents=True)
    ledger.write_text('{"seq": 1}\n')
    (root / ".harness" / "local").mkdir()
    return root


def _run(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HARNESS_"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, "tests"],
                          cwd=root, env={**env, "PYTHONDONTWRITEBYTECODE": "1"}, capture_output=True, text=True,
                          timeout=300)


def test_a_test_that_writes_the_checkout_s_task_record_fails_the_run_naming_it(tmp_path):
    root = _project(tmp_path, f"    with open(Path.cwd() / {LEDGER!r}, 'a') as f:\n        f.write('{{}}\\n')")
    proc = _run(root, "-p", "no:xdist")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert LEDGER in proc.stdout + proc.stderr


def test_a_new_evidence_file_in_the_checkout_fails_the_run_too(tmp_path):
    body = "    p = Path.cwd() / '.harness/tasks/TASK-20261204-000001/evidence/custom.json'\n" \
           "    p.parent.mkdir()\n    p.write_text('{}')"
    proc = _run(_project(tmp_path, body), "-p", "no:xdist")
    assert proc.returncode != 0 and "evidence/custom.json" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_a_run_that_leaves_the_checkout_alone_passes_and_its_local_state_may_change(tmp_path):
    body = "    (Path.cwd() / '.harness/local/cache').write_text('a per-clone cache is no record')"
    proc = _run(_project(tmp_path, body), "-p", "no:xdist")
    assert proc.returncode == 0, proc.stdout + proc.stderr
