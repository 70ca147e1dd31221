"""The built wheel works on its own: schemas, templates and skills ship inside it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # builds and installs the wheel

ROOT = Path(__file__).resolve().parents[1]


def run(cmd: list[str], cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env={**clean, **(env or {})})
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} exited {p.returncode}:\n{p.stdout}\n{p.stderr}"
    return p


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv_and_runs_init_task_new_and_status(tmp_path, repo):
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(ROOT)],
        cwd=tmp_path, timeout=180)
    (wheel,) = dist.glob("engineering_harness-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in ("task", "requirement", "invariant", "gate", "config", "evidence", "finding"):
        assert f"harness/schemas/{schema}.schema.json" in names, sorted(names)
    assert {"harness/templates/config.yaml", "harness/templates/gate.yaml"} <= names, sorted(names)
    shipped = {str(p.relative_to(ROOT)) for p in (ROOT / "skills").rglob("*") if p.is_file()}
    assert shipped and {f"harness/{p}" for p in shipped} <= names, sorted(names)

    # A fresh venv, the wheel and its dependencies installed into it by this interpreter's pip
    # (`pip --python`): bootstrapping a pip of its own into the venv would take seconds and test nothing.
    venv = tmp_path / "My Projects" / "venv"  # a path with a space: the command's first line must still run
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path, timeout=120)
    py = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", str(wheel)], cwd=tmp_path, timeout=180)
    where = run([str(py), "-c", "import harness, sys; print(harness.__file__)"], cwd=tmp_path, timeout=60).stdout
    assert Path(where.strip()).resolve().is_relative_to(venv.resolve()), where  # not the source checkout

    harness = str(venv / "bin" / "harness")
    run([harness, "init"], cwd=repo, timeout=60)
    for name in ("config.yaml", "gate.yaml"):
        assert (repo / ".harness" / name).read_bytes() == (ROOT / "templates" / name).read_bytes(), name
    tid = run([harness, "task", "new", "From the wheel"], cwd=repo, timeout=60).stdout.strip()
    assert tid.startswith("TASK-")
    out = run([harness, "status"], cwd=repo, timeout=60).stdout
    assert tid in out and "CREATED" in out
    run([harness, "requirement", "add", "Works from a wheel", "--priority", "must"], cwd=repo, timeout=60)
    run([harness, "transition", "SPECIFYING"], cwd=repo, timeout=60)
    run([harness, "replay"], cwd=repo, timeout=60)
    run([harness, "skills", "install", "--agent", "claude"], cwd=repo, timeout=60)
    installed = repo / ".claude/skills/engineering-harness/SKILL.md"
    assert installed.read_bytes() == (ROOT / "skills/engineering-harness/SKILL.md").read_bytes()
