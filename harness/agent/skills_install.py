"""Copy the harness's Agent Skills to where a coding agent discovers them, and take them back.

A manifest beside the installed skills records the sha-256 of every file this installer
wrote. A file whose bytes no longer match it was edited by someone: it is never
overwritten (without ``force``) or removed. A skill folder the manifest does not know is
somebody else's and is left alone the same way.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from harness.agent.hosts import HOSTS, REGISTRY
from harness.errors import HarnessError
from harness.store.crashpoint import step

AGENTS = (*HOSTS, "agents")  # "agents": the cross-host .agents/skills
SCOPES = ("project", "user")
# Where each host reads skills, relative to the project root or the home directory.
# Codex reads the cross-host .agents/skills (repository and ~/.agents/skills).
SKILL_DIRS = {**{name: h.skills_dir for name, h in REGISTRY.items()}, "agents": ".agents/skills"}
MANIFEST = ".engineering-harness.json"


@dataclass
class SkillsResult:
    target: Path
    written: list[str] = field(default_factory=list)    # files created or updated
    unchanged: list[str] = field(default_factory=list)  # already as shipped
    kept: list[str] = field(default_factory=list)       # edited or foreign: left as they are
    removed: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"target": str(self.target), "written": self.written, "unchanged": self.unchanged,
                "kept": self.kept, "removed": self.removed}


def source_dir() -> Path:
    """The skills that ship with this harness (inside the wheel, or top-level in a checkout)."""
    from harness.resources import data_dir

    return data_dir("skills")


def shipped(src: Path | None = None) -> dict[str, bytes]:
    """Relative path -> bytes of every file of every skill (a folder with a SKILL.md)."""
    src = src or source_dir()
    out = {}
    for skill in sorted(p for p in src.iterdir() if (p / "SKILL.md").is_file()):
        for f in sorted(skill.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                out[f.relative_to(src).as_posix()] = f.read_bytes()
    return out


def target_dir(agent: str, scope: str, root: Path, home: Path) -> Path:
    if agent not in SKILL_DIRS:
        raise HarnessError(f"unknown agent {agent!r}", hint=f"one of: {', '.join(AGENTS)}")
    if scope not in SCOPES:
        raise HarnessError(f"unknown scope {scope!r}", hint="project or user")
    return root / SKILL_DIRS[agent] if scope == "project" else _user_dir(agent, home)


def _user_dir(agent: str, home: Path) -> Path:
    """Under the home folder, unless the host's variable moves the folder its user skills live in: Claude Code's
    CLAUDE_CONFIG_DIR moves ~/.claude, skills/ with it (F-0400); Codex's CODEX_HOME moves ~/.codex, not the
    cross-host ~/.agents/skills it reads."""
    import os
    from pathlib import PurePosixPath

    skills, host = PurePosixPath(SKILL_DIRS[agent]), REGISTRY.get(agent)
    moved = os.environ.get(host.home_env) if host and host.home_env else None
    folder = PurePosixPath(host.settings[1]).parent if host else None
    if moved and folder and skills.is_relative_to(folder):
        return Path(moved) / skills.relative_to(folder)
    return home / skills


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _bytes_of(path: Path) -> bytes | None:
    """An installed file's bytes, read bounded (None when missing): it is in the user's folder."""
    from harness.store import bounded

    return bounded.read(path, "input", str(path), follow=True)


def _read_manifest(target: Path) -> dict[str, str]:
    from harness.core.limits import json_object
    from harness.store import bounded

    path = target / MANIFEST
    raw = bounded.read(path, "record", str(path))
    if raw is None:
        return {}
    try:
        body = json_object(raw)
        files, pending = body["files"], body.get("pending") or {}
        if not all(isinstance(m, dict) and all(isinstance(v, str) for v in m.values()) for m in (files, pending)):
            raise TypeError("files is not an object of digests")
        # A killed install recorded, before writing, each file's digest from before (here) and
        # after (in files): either one is ours. The run that reads this finishes the install.
        return {**files, **{rel: f"{files.get(rel, '')} {old}" for rel, old in pending.items() if rel in files}}
    except (ValueError, KeyError, TypeError):
        raise HarnessError(f"{path}: not a manifest this installer wrote",
                           hint="move it away; files it listed will then count as someone else's") from None


def _write_manifest(target: Path, files: dict[str, str], pending: dict[str, str] | None = None) -> None:
    """The manifest; with ``pending`` (file -> its digest before, "" when absent), written before
    those files change: the journal that lets a killed install's files still count as ours."""
    from harness.store.crashpoint import step
    from harness.store.fsio import atomic_write

    path = target / MANIFEST
    files = {rel: digest.split(" ")[0] for rel, digest in files.items()}
    if not files:
        step()
        path.unlink(missing_ok=True)
        return
    body = {"installed_by": "engineering-harness", "files": dict(sorted(files.items()))}
    if pending:
        body["pending"] = dict(sorted(pending.items()))
    raw = (json.dumps(body, indent=2) + "\n").encode("utf-8")
    if _bytes_of(path) != raw:  # a second install changes nothing at all
        atomic_write(path, raw)


def install_skills(agent: str, scope: str, root: Path, home: Path, force: bool = False,
                   src: Path | None = None) -> SkillsResult:
    """Install (or update) every shipped skill for ``agent``; idempotent.

    A file the user edited since it was installed, or a skill folder this installer did
    not create, is kept unless ``force``; it is named in ``kept``.
    """
    from harness.store.fsio import atomic_write

    target = target_dir(agent, scope, root, home)
    files = shipped(src)
    _sweep(target, files)
    manifest = _read_manifest(target)
    result = SkillsResult(target)
    to_write: dict[str, str] = {}
    for rel, data in files.items():
        path = target / rel
        want = _digest(data)
        if path.is_file():
            have = _digest(_bytes_of(path) or b"")
            if have == want:
                manifest[rel] = want
                result.unchanged.append(rel)
                continue
            if have not in manifest.get(rel, "").split(" ") and not force:  # edited, or never ours
                result.kept.append(rel)
                continue
        elif path.exists() and not force:
            result.kept.append(rel)
            continue
        to_write[rel] = _digest(_bytes_of(path) or b"") if path.is_file() else ""
        result.written.append(rel)
    if to_write:  # recorded before the first of them changes
        manifest |= {rel: _digest(files[rel]) for rel in to_write}
        target.mkdir(parents=True, exist_ok=True)
        _write_manifest(target, manifest, to_write)
    for rel in to_write:
        path = target / rel
        if path.exists() and not path.is_file():
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, files[rel])
    # A file an older version shipped and this one does not: ours to remove if untouched.
    for rel in sorted(set(manifest) - set(files)):
        _remove_if_ours(target, rel, manifest, result)
    _write_manifest(target, manifest)
    return result


def uninstall_skills(agent: str, scope: str, root: Path, home: Path) -> SkillsResult:
    """Remove what :func:`install_skills` wrote and nobody edited since; keep everything else."""
    target = target_dir(agent, scope, root, home)
    _sweep(target, {})
    manifest = _read_manifest(target)
    result = SkillsResult(target)
    for rel in sorted(manifest):
        _remove_if_ours(target, rel, manifest, result)
    _write_manifest(target, manifest)
    return result


def _sweep(target: Path, files: dict[str, bytes]) -> None:
    """Remove the temporaries a killed write left beside a skill file or the manifest (named
    after the file: a temp of anybody else's is left alone)."""
    for rel in (MANIFEST, *files, *_manifest_names(target)):
        path = target / rel
        if path.parent.is_dir():
            for leftover in path.parent.glob(f".{path.name}.*.tmp"):
                leftover.unlink(missing_ok=True)


def _manifest_names(target: Path) -> list[str]:
    try:
        return list(_read_manifest(target))
    except HarnessError:
        return []


def _remove_if_ours(target: Path, rel: str, manifest: dict[str, str], result: SkillsResult) -> None:
    path = target / rel
    if path.is_file() and not path.is_symlink() and _digest(_bytes_of(path) or b"") not in manifest[rel].split(" "):
        result.kept.append(rel)  # edited since: the user's now; forget it, never delete it
        del manifest[rel]
        return
    if path.is_file():
        step()
        path.unlink()
        result.removed.append(rel)
    del manifest[rel]
    parent = path.parent
    while parent != target and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent
