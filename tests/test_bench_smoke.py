"""The benchmark's sections run end to end at a tiny size and report every target they measure.

The issue-9 section times real `git commit`s through the native hook shims (`harness install`) and
through the pre-commit framework (`pre-commit install`, the harness hooks as `repo: local`): e2e as
well as slow. The output section starts no git hook: slow only.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.e2e  # real git hooks: the native shims and the pre-commit framework
def test_the_task_count_benchmark_runs_at_smoke_size_and_prints_its_targets(tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), "--quick", "--only", "tasks", "--runs", "1",
                        "--tasks", "1,3", "--events", "60", "--history", "11", "--workdir", str(tmp_path)],
                       capture_output=True, text=True, timeout=900, check=False)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    for name in ("validate", "stamp", "push guard", "audit"):
        assert f"TARGET 9 {name} growth 1 tasks → 3 tasks" in p.stdout, p.stdout
    assert "TARGET 9 code-only commit, native shims / python -c pass hooks" in p.stdout
    assert "TARGET 9 code-only commit, framework harness / no-op hooks" in p.stdout
    assert not list(tmp_path.iterdir()), "the generated repositories are removed"


@pytest.mark.slow
def test_the_output_benchmark_runs_at_smoke_size_and_prints_its_ratios(tmp_path):
    # Whether a target is met is the benchmark's report, not this test's: it checks the report is made.
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), "--quick", "--only", "output", "--runs", "1",
                        "--workdir", str(tmp_path)], capture_output=True, text=True, timeout=900, check=False)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    for name in ("log_text, random bytes / text", "evidence recording, random bytes / text",
                 "work after the run, endless output at its timeout / 16 MB and exit", "run_command capture / to /dev/null"):
        assert f"TARGET out {name}" in p.stdout, p.stdout
    assert p.stdout.count("TARGET ") == 4, p.stdout
    assert not list(tmp_path.iterdir()), "the generated files are removed"
