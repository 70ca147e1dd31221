"""This repository as a pre-commit hook repository: every hook id documented, and runnable."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.cli import Harness
from support.flows import gated_done
from support.gitrepo import commit_all_ok, git, head, out
from support.paths import ROOT, documentation
from support.templates import Template, template

pytestmark = pytest.mark.e2e  # the pre-commit framework installing this hook repository

PY = sys.executable
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
PAIRS = [(hk["id"], stage) for hk in HOOKS for stage in hk["stages"]]


def test_hook_definitions_are_well_formed():
    ids = [hk["id"] for hk in HOOKS]
    assert len(ids) == len(set(ids)), ids
    assert set(ids) >= {"harness-validate", "harness-stamp", "harness-merge-guard", "harness-push-guard",
                        "harness-gate", "harness-audit"}
    for hk in HOOKS:
        assert hk["language"] == "python", hk["id"]
        assert hk["entry"].split()[0] == "harness", hk["id"]  # the console script the package installs
        assert hk.get("pass_filenames") is False, hk["id"]
        assert hk["stages"], hk["id"]


@pytest.mark.parametrize("hook_id", [hk["id"] for hk in HOOKS])
def test_every_hook_id_is_documented_in_the_readme_with_its_stages(hook_id):
    readme = documentation()  # the README, and the manual in docs/ (the hook table is in docs/git.md)
    assert hook_id in readme, f"neither README.md nor docs/ mentions the hook id {hook_id}"
    rows = [line for line in readme.splitlines() if f"`{hook_id}`" in line and line.lstrip().startswith("|")]
    assert rows, f"README.md and docs/ have no table row for `{hook_id}`"
    (hook,) = [hk for hk in HOOKS if hk["id"] == hook_id]
    for stage in hook["stages"]:
        assert any(stage in row for row in rows), f"the documented row for {hook_id} does not name its stage {stage}"


@pytest.fixture(scope="session")
def done_template(tmp_path_factory, pc_template, hook_repo) -> Template:
    """What ``done_repo`` copies: ``pc``'s repository with a gated DONE task committed."""

    def build(repo: Path, h: Harness) -> dict:
        gated_done(h)
        commit_all_ok(repo, "done")
        return {}

    return template(tmp_path_factory, "done", build, on=pc_template, PRE_COMMIT_HOME=str(hook_repo["home"]))


@pytest.fixture
def done_repo(done_template, pc):
    """A user repository in a valid, committed state with a gated DONE task and history to audit."""
    return pc


def _extra_args(hook_id: str, stage: str, pc) -> list[str]:
    if stage == "pre-push" or hook_id == "harness-audit":
        return ["--from-ref", pc.base, "--to-ref", head(pc.repo)]
    if stage == "post-rewrite":
        return ["--rewrite-command", "amend"]
    return []


@pytest.mark.parametrize("hook_id,stage", PAIRS, ids=[f"{i}@{s}" for i, s in PAIRS])
def test_every_hook_runs_at_each_of_its_stages(done_repo, hook_id, stage):
    """In a valid repository, through the framework (`pre-commit run --hook-stage STAGE ID`) and as
    its entry run by `python -m`: a real command (no usage error, exit 2) that passes."""
    pc = done_repo
    args = [PY, "-m", "pre_commit", "run", "--verbose", "--hook-stage", stage, hook_id,
            *_extra_args(hook_id, stage, pc)]
    p = subprocess.run(args, cwd=pc.repo, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    text = out(p)
    assert "exit code: 2" not in text and "Usage:" not in text and "No such command" not in text, text
    assert p.returncode == 0, text
    assert f"hook id: {hook_id}" in text, text  # it really ran (not "no hooks to run")
    assert "(no files to check)" not in text and "Skipped" not in text, text

    (hook,) = [hk for hk in HOOKS if hk["id"] == hook_id]
    env = {**os.environ}
    if stage == "pre-push" or hook_id == "harness-audit":
        env.update(PRE_COMMIT_FROM_REF=pc.base, PRE_COMMIT_TO_REF=head(pc.repo))
    p = subprocess.run([PY, "-m", *shlex.split(hook["entry"])], cwd=pc.repo, capture_output=True, text=True,
                       env=env, stdin=subprocess.DEVNULL, timeout=300)
    assert p.returncode != 2 and "Usage:" not in out(p), out(p)
    assert p.returncode == 0, out(p)


def test_try_repo_runs_the_hook_repository_directly(pc, hook_repo):
    """`pre-commit try-repo` (what a user does before pinning a rev) works on this repository."""
    p = subprocess.run([PY, "-m", "pre_commit", "try-repo", str(hook_repo["path"]), "harness-validate",
                        "--verbose", "--hook-stage", "pre-commit"], cwd=pc.repo, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=900)
    assert p.returncode == 0, out(p)
    assert "harness" in out(p) and "Passed" in out(p)


def test_the_framework_built_environment_ships_templates_and_the_native_shim(hook_repo, tmp_path):
    """pre-commit pip-installs the hook repository: `harness init` and `harness install` must work from
    that installed package alone (templates and hooks/native-hook shipped inside the wheel)."""
    found = sorted(Path(hook_repo["home"]).glob("repo*/py_env-*/bin/harness"))
    assert found, f"no harness console script in the pre-commit environment under {hook_repo['home']}"
    exe = found[0]
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    git(scratch, "init", "-q")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for args in (["init"], ["install"]):
        p = subprocess.run([str(exe), *args], cwd=scratch, capture_output=True, text=True, env=env, timeout=120)
        assert p.returncode == 0, out(p)
    assert (scratch / ".harness/gate.yaml").is_file()
    shim = (scratch / ".git/hooks/pre-commit").read_text()
    assert "engineering-harness native hook shim" in shim
    assert re.search(r'^py="/', shim, re.M), "the shim does not name the environment's python"
