"""Repositories built once per run and copied into each test that asks (xdist-safe)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from support.cli import Harness, in_process
from support.environment import HOOKS_KEY, hermetic, hooks_started
from support.gitrepo import git, new_repo


def once_per_run(tmp_path_factory, name: str, build: Callable[[Path], dict], owner: str = "") -> tuple[Path, dict]:
    """``build(folder)`` run once per test run; returns (folder, what build returned, through JSON).

    Under pytest-xdist the workers share it (the pattern pytest-xdist documents): the folder is in
    the run's base temp folder, the first worker to take the lock builds, the others wait for it and
    reuse what it built. A build that failed is retried by the next one to ask. ``owner`` names the
    code that builds it: two builders under one name would otherwise share whichever ran first."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers
    folder, done, owned = base / f"once-{name}", base / f"once-{name}.json", base / f"once-{name}.owner"
    with open(base / f"once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            data = build(folder)
            owned.write_text(owner, "utf-8")
            tmp = done.with_suffix(".tmp")
            tmp.write_text(json.dumps(data), "utf-8")
            tmp.replace(done)
        built_by = owned.read_text("utf-8")
    assert built_by == owner, f"two builders share the name {name!r}: {built_by} and {owner}; rename one"
    return folder, json.loads(done.read_text("utf-8"))


@dataclass(frozen=True)
class Template:
    """A user repository built once per test run and copied into each test that asks for it.

    ``root`` holds ``repo/`` and, when the repository has a remote, the bare ``remote.git/`` it
    pushed to; ``data`` is what its fixtures return besides the repository; ``lineage`` names the
    templates it is built on, then itself."""

    root: Path
    data: dict = field(default_factory=dict)
    lineage: tuple[str, ...] = ()


def template(tmp_path_factory, name: str, build: Callable[[Path, Harness], dict], on: Template | None = None,
             **env: str) -> Template:
    """The template ``name``: ``build(repo, h)`` run once per test run, in the environment of a test
    (plus ``env``), on a copy of the template ``on`` or else on a fresh ``new_repo``. Its data are
    ``on``'s updated with what ``build`` returns (JSON), and under HOOKS_KEY the git hooks the build
    and ``on``'s started (a test copying it drives them too, see conftest's ``_git_identity``)."""

    def make(folder: Path) -> dict:
        with hermetic(folder / "home", **env):
            repo = materialise(on, folder) if on is not None else new_repo(folder / "repo")
            with in_process(repo) as h:
                data = {**(on.data if on is not None else {}), **build(repo, h)}
        started = [*data.get(HOOKS_KEY, []), *hooks_started(folder / "home")]
        return {**data, HOOKS_KEY: list(dict.fromkeys(started))}

    owner = " on ".join([f"{build.__module__}.{build.__qualname__}", *(on.lineage if on is not None else ())])
    folder, data = once_per_run(tmp_path_factory, f"template-{name}", make, owner)
    return Template(folder, data, (*(on.lineage if on is not None else ()), name))


def copies_naming(root: Path, text: str) -> list[Path]:
    """Files a copy of the template folder ``root`` carries (its repo/ and remote.git/, see
    :func:`materialise`; git's compressed objects aside) whose bytes contain ``text``."""
    needle = text.encode()
    return [p for part in ("repo", "remote.git") for p in sorted((root / part).rglob("*"))
            if p.is_file() and "objects" not in p.parts and needle in p.read_bytes()]


def materialise(tpl: Template, dest: Path) -> Path:
    """A copy of the template's repository (and remote, as ``origin``) in ``dest``; returns the repository."""
    repo = dest / "repo"
    shutil.copytree(tpl.root / "repo", repo, symlinks=True)
    if (tpl.root / "remote.git").is_dir():
        shutil.copytree(tpl.root / "remote.git", dest / "remote.git", symlinks=True)
        git(repo, "remote", "set-url", "origin", str(dest / "remote.git"))
    git(repo, "update-index", "-q", "--refresh", check=False)  # the copies' stat data differ from the index's
    return repo
