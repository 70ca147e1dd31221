"""`pre-commit install` over the harness's hooks (F-0309). Run over the native shims it keeps each as
`<stage>.legacy` and runs it first (the framework's migration mode, which the shim is written for), so a
plain `pre-commit install` leaves every harness check running and is allowed: this project installs it so,
and a repository under the framework installs its shim with it after a clone. `--overwrite` (`-f`) deletes
those `.legacy` hooks, and `-c FILE` makes the installed hooks read a config other than
`.pre-commit-config.yaml`, whose harness hooks the guard keeps: with no config there (and
`--allow-missing-config`) every check is skipped. Both are refused, however the options are spelled, and run
through `python -m pre_commit` too."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

from support.agent_guard import guard_answer
from support.cli import Harness
from support.gitrepo import git

HERE = Where("/repo", "/repo")

DENIED = [
    "pre-commit install --overwrite --allow-missing-config",
    "pre-commit install -f",
    "pre-commit install --over",
    "pre-commit install --o",
    "pre-commit install -t pre-push -f",
    "pre-commit install -ft pre-push",
    "pre-commit install --hook-type pre-commit --overwrite --hook-type pre-push",
    "pre-commit install -c other.yaml",
    "pre-commit install --config=other.yaml",
    "pre-commit install --con other.yaml --allow-missing-config",
    "pre-commit install -cother.yaml",
    "pre-commit install -fc other.yaml",
    "pre-commit init-templatedir -c other.yaml .git",
    "python -m pre_commit install --overwrite --allow-missing-config",
    "python3 -I -m pre_commit install -f",
    "python -m pre_commit.main install -f",
    "python -m pre_commit uninstall",
    "cd src && pre-commit install -f",
    "/opt/venv/bin/pre-commit install --overwrite",
]

ALLOWED = [
    "pre-commit install",
    "pre-commit install --install-hooks",
    "pre-commit install -t pre-push",
    "pre-commit install --hook-type pre-commit --hook-type pre-push",
    "pre-commit install --allow-missing-config",
    "pre-commit install-hooks",
    "pre-commit init-templatedir ~/.git-template",
    "pre-commit run --all-files",
    "pre-commit run -c other.yaml --all-files",
    "pre-commit autoupdate",
    "python -m pre_commit install",
    "python -m pre_commit run --all-files",
    "echo pre-commit install --overwrite",
]


@pytest.mark.parametrize("command", DENIED)
def test_an_install_that_overwrites_the_hooks_or_points_them_elsewhere_is_refused(command: str) -> None:
    denial = check_shell(command, HERE)
    assert denial is not None, command
    assert denial.rule == "uninstall"
    assert "Instead:" in denial.message()


@pytest.mark.parametrize("command", ALLOWED)
def test_an_install_that_keeps_the_hooks_running_is_allowed(command: str) -> None:
    assert check_shell(command, HERE) is None


def test_over_the_native_hooks_only_the_overwriting_install_is_refused(h: Harness) -> None:
    h.ok("install")
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install --overwrite --allow-missing-config"}) == "deny"
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install -c /dev/null"}) == "deny"
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install"}) == "allow"


def test_under_the_framework_installing_its_shim_is_allowed(h: Harness) -> None:
    config = ("default_install_hook_types: [pre-commit, post-commit, pre-push]\nrepos:\n"
              "  - repo: https://example.invalid/harness\n    rev: v1\n    hooks:\n      - id: harness-validate\n"
              "      - id: harness-stamp\n      - id: harness-push-guard\n")
    (h.root / ".pre-commit-config.yaml").write_text(config)
    git(h.root, "add", "-A")
    git(h.root, "commit", "-q", "-m", "framework config")
    for command in ("pre-commit install", "pre-commit install --install-hooks", "python -m pre_commit install"):
        assert guard_answer(Path(h.root), "Bash", {"command": command}) == "allow", command
    assert guard_answer(h.root, "Bash", {"command": "pre-commit install -f"}) == "deny"
