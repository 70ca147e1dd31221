"""Merge the harness's hook entries into a coding agent's settings file, and take them out.

Each host nests hooks the same way — event → [{matcher, hooks: [{type: command, command,
timeout}]}] — in a file that also holds the user's own hooks, permissions and keys we do
not know. We touch only handlers whose command is ours (`… harness hook agent …`); the
rest of the file is written back byte-for-byte (settings_text), the comments of a host that reads
them included (settings_comments), or the install refuses.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent import settings_text
from harness.agent.hook_budget import TIMEOUT_SECONDS  # the timeouts installed (hook_budget: the lock wait within each)
from harness.agent.hosts import REGISTRY, matcher
from harness.agent.settings_text import Settings
from harness.errors import HarnessError

OURS = re.compile(r"(^|[\s/\"'])(harness|-m harness) hook agent ")


@dataclass(frozen=True)
class Change:
    path: Path
    changed: bool
    entries: int


def settings_path(host: str, scope: str, root: Path | None) -> Path:
    project, user = REGISTRY[host].settings  # (the project file, the user file under the home folder)
    if scope == "user":
        home = os.environ.get(REGISTRY[host].home_env) if REGISTRY[host].home_env else None
        return Path(home) / Path(user).name if home else Path.home() / user
    if root is None:
        raise HarnessError("--scope project needs a git repository", hint="cd into it, or use --scope user")
    return root / project


def hook_command(host: str, event: str, python: str | None = None) -> str:
    """The command a host runs: `harness` from PATH, so a committed settings file works in
    every clone; with ``python`` (`--absolute`), that interpreter, for a `harness` not on PATH."""
    # -E -P: neither PYTHONPATH nor the project folder the host runs the hook in is put on sys.path (a
    # planted harness/ package there would answer instead of the installed one).
    prefix = f"{shlex.quote(python)} -E -P -m harness" if python else "harness"
    return f"{prefix} hook agent {host} {event}"


def absolute_python() -> str:
    return sys.executable


def entries(host: str, python: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """event name -> the matcher groups to add, in the host's own shape."""
    out: dict[str, list[dict[str, Any]]] = {}
    for event, name in REGISTRY[host].events.items():
        handler: dict[str, Any] = {"type": "command", "command": hook_command(host, event, python)}
        if REGISTRY[host].hook_names:  # Gemini names its hooks and counts timeouts in milliseconds
            handler = {"name": f"engineering-harness-{event}", **handler,
                       "timeout": TIMEOUT_SECONDS[event] * 1000}
        else:
            handler["timeout"] = TIMEOUT_SECONDS[event]
        group: dict[str, Any] = {"hooks": [handler]}
        if event == "pre-tool-use":
            group = {"matcher": matcher(REGISTRY[host]), **group}  # every tool the guard judges
        out[name] = [group]
    return out


def plugin_entries(host: str) -> dict[str, list[dict[str, Any]]]:
    """What the plugin's hooks file holds for ``host`` (hooks/hooks.json for Claude Code, .codex-plugin/hooks.json;
    tests/test_agent_host_registry.py holds the committed files equal to it): the installer's entries. Claude Code's
    file is the Gemini extension's too, so its session start answers whichever host runs it (`auto`), and an entry
    Gemini keeps (an event it knows by the same name) sets no timeout: Gemini reads the number in milliseconds,
    Claude Code in seconds, and each host's default (60000 ms, 60 s) suits both (F-0373)."""
    out = entries(host)
    if host != "claude":
        return out
    start = out[REGISTRY[host].events["session-start"]][0]["hooks"][0]
    start["command"] = hook_command("auto", "session-start")
    for event in set(out) & set(REGISTRY["gemini"].events.values()):
        for handler in out[event][0]["hooks"]:
            del handler["timeout"]
    return out


def is_ours(handler: object) -> bool:
    return isinstance(handler, dict) and isinstance(handler.get("command"), str) and bool(
        OURS.search(handler["command"]))


def read_settings(path: Path, comments: bool = False) -> Settings:
    """The host's settings, the user's own file: bounded, a regular file (or a link to one, as a
    dotfiles checkout makes it), strict JSON (with ``comments``, `//` and `/* */` ones too: Gemini's
    format) that can be written back exactly (settings_text)."""
    from harness.store import bounded

    raw = bounded.read(path, "settings", str(path), follow=True)
    if raw is None or not raw.strip():
        return Settings({})
    try:
        return settings_text.load(raw.decode("utf-8"), comments)
    except settings_text.NotExact as exc:
        raise _not_exact(path, exc) from None
    except ValueError as exc:  # UnicodeDecodeError too
        raise HarnessError(f"{path}: not valid JSON ({str(exc)[:200]})", hint="fix the file by hand first; "
                           "the harness never overwrites settings it cannot read") from None


def _not_exact(path: Path, exc: settings_text.NotExact) -> HarnessError:
    fix = ("put each comment on a line of its own, or at the end of a line, outside the harness's entries"
           if isinstance(exc, settings_text.CommentInTheWay) else
           "reformat the file with `python -m json.tool --indent 2`")
    return HarnessError(f"{path}: cannot be rewritten without changing your own settings ({exc})",
                        hint=f"add the hook entries by hand (`harness agent install --help` lists them), or {fix} "
                             "and run it again")


def _hooks_of(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = doc.get("hooks")
    if hooks is None:
        return {}
    if not isinstance(hooks, dict):
        raise HarnessError(f"{path}: `hooks` is not an object", hint="fix the file by hand first")
    return hooks


def without_ours(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """The settings with every handler of ours taken out, and groups or events left empty
    by that removal dropped (a group or event the user left empty stays)."""
    doc = copy.deepcopy(doc)
    hooks = _hooks_of(doc, path)
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(handlers, list) and any(is_ours(h) for h in handlers):
                rest = [h for h in handlers if not is_ours(h)]
                if rest:
                    kept.append({**group, "hooks": rest})
                continue
            kept.append(group)
        if kept or not groups:
            hooks[event] = kept
        else:
            del hooks[event]
    if "hooks" in doc and not hooks:
        del doc["hooks"]
    return doc


def with_ours(doc: dict[str, Any], host: str, path: Path, python: str | None = None) -> dict[str, Any]:
    doc = without_ours(doc, path)
    hooks = doc.setdefault("hooks", {})
    for event, groups in entries(host, python).items():
        existing = hooks.get(event)
        if existing is not None and not isinstance(existing, list):
            raise HarnessError(f"{path}: hooks.{event} is not a list", hint="fix the file by hand first")
        hooks[event] = (existing or []) + groups
    return doc


def install(host: str, path: Path, python: str | None = None) -> Change:
    _sweep(path)
    settings = read_settings(path, REGISTRY[host].settings_comments)
    new = with_ours(settings.doc, host, path, python)
    # A number of the user's is a placeholder in both (settings_text): compared as it stands.
    current, wanted = _our_handlers(settings.doc, path), _our_handlers(new, path)
    if current == wanted:
        return Change(path, False, len(wanted))
    _write(path, settings, new)
    return Change(path, True, len(wanted))


def uninstall(path: Path, host: str | None = None) -> Change:
    _sweep(path)
    settings = read_settings(path, host is not None and REGISTRY[host].settings_comments)
    removed = len(_our_handlers(settings.doc, path))
    if removed:
        _write(path, settings, without_ours(settings.doc, path))
    return Change(path, bool(removed), removed)


def _our_handlers(doc: dict[str, Any], path: Path) -> list[tuple[str, str | None, str]]:
    out = []
    for event, groups in _hooks_of(doc, path).items():
        for group in groups if isinstance(groups, list) else []:
            for handler in (group.get("hooks") or []) if isinstance(group, dict) else []:
                if is_ours(handler):
                    out.append((event, group.get("matcher"), json.dumps(handler, sort_keys=True)))
    return out


def _write(path: Path, settings: Settings, doc: dict[str, Any]) -> None:
    from harness.store import fsio

    try:
        text = settings_text.dump(settings, doc)
    except settings_text.NotExact as exc:  # a change that would cross one of the user's comments
        raise _not_exact(path, exc) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    # A settings file linked from a dotfiles checkout stays a link: the file it names is written.
    fsio.atomic_write(Path(os.path.realpath(path)), text)


def _sweep(path: Path) -> None:
    """Remove the temporaries a killed write of this file left (named after it: nothing else's)."""
    for where in {path, Path(os.path.realpath(path))}:
        if where.parent.is_dir():
            for leftover in where.parent.glob(f".{where.name}.*.tmp"):
                leftover.unlink(missing_ok=True)
