"""The probe that asks PASS_TO_PASS's interpreters which folders of the repository they import from asks with the
environment the run gets (runner.clean_env()), not the caller's (self-found 29, F-0562; read 159 noticed it): with the
caller's PYTHONNOUSERSITE=1 the probe missed a folder a user-site `.pth` puts on the path, which the run, started
without it, imports from; and a module added there in place of one pytest imports went unprotected."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import runner
from harness.evidence import import_probe, runner_names

CALLERS = {"PYTHONNOUSERSITE": "1", "PYTHONUSERBASE": "/nowhere", "PYTHONSAFEPATH": "1", "PYTHONPATH": "/elsewhere"}


def test_the_probe_gets_the_run_s_environment_whatever_the_caller_set(monkeypatch, tmp_path):
    for name, value in CALLERS.items():
        monkeypatch.setenv(name, value)
    seen: list[dict] = []

    def ask(python, where, env, *args, **kwargs):
        seen.append(dict(env))
        return {"installed": [], "path": []}, ""

    monkeypatch.setattr(import_probe, "ask", ask)
    runner_names._asked.cache_clear()
    try:
        runner_names.runner_folders([sys.executable, "-m", "pytest"], tmp_path)
    finally:
        runner_names._asked.cache_clear()
    assert seen and all(env == runner.clean_env() for env in seen)
    assert not any(name in env for env in seen for name in CALLERS)


def _base_python() -> str:
    return getattr(sys, "_base_executable", sys.executable)


def test_a_user_site_folder_of_the_repository_is_seen_with_or_without_the_callers_pythonnousersite(
        monkeypatch, tmp_path):
    python = _base_python()
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("PYTHONUSERBASE", raising=False)
    monkeypatch.delenv("PYTHONNOUSERSITE", raising=False)
    asked = subprocess.run([python, "-c", "import site; print(site.ENABLE_USER_SITE, site.getusersitepackages())"],
                           capture_output=True, text=True, env={**os.environ}, check=False)
    enabled, _, user_site = asked.stdout.strip().partition(" ")
    if asked.returncode or enabled != "True":
        pytest.skip(f"{python} has no user site here")
    root = tmp_path / "root"
    (root / "lib").mkdir(parents=True)
    Path(user_site).mkdir(parents=True)
    (Path(user_site) / "lib.pth").write_text(f"{root / 'lib'}\n")
    runner_names._asked.cache_clear()
    try:
        plain = runner_names.runner_folders([python, "-m", "pytest"], root)
        runner_names._asked.cache_clear()
        monkeypatch.setenv("PYTHONNOUSERSITE", "1")
        hidden = runner_names.runner_folders([python, "-m", "pytest"], root)
    finally:
        runner_names._asked.cache_clear()
    assert plain == hidden == ["lib"]
