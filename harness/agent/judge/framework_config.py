"""The pre-commit framework's configuration, as far as it decides whether the harness's hooks run.

Pure. Under the framework, `.pre-commit-config.yaml` is what installs the harness's hooks: a
version that leaves one out turns it off, and a commit that carries such a version is not
checked by the hook it drops. The guard compares the harness hook ids before and after an
edit (or between HEAD and what a commit would carry); the manual-stage ones never run on a
commit or push, so leaving them out disables nothing. A hook kept by id but moved to the manual
stage, or given its own entry, language or alias, counts as left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from harness.agent.judge.denials import Denial

TYPE_CHECKING = False  # typing costs the agent's tool guard, which imports this module, a tenth of its answer
if TYPE_CHECKING:
    from typing import Any

# Patterns, compiled by re's cache where they are matched: the tool guard imports this module for every
# judged shell command, and only a commit or an edit of the config reads one.
HOOK_ID = r"""(?m)^[\s+-]*-?\s*id:\s*['"]?(harness-[A-Za-z0-9_-]+)"""
MANUAL_HOOKS = frozenset({"harness-gate", "harness-audit"})


# Per-hook keys that, set in the config, make a harness hook run something else or under another name.
OVERRIDES = frozenset({"alias", "entry", "language"})


def harness_hooks(text: str | None) -> set[str]:
    return set(re.findall(HOOK_ID, text or "")) - MANUAL_HOOKS


def _in_force(text: str | None) -> set[str]:
    """The harness hooks named and not moved to the manual stage (`stages: [manual]`) nor given
    another entry, language or alias."""
    return harness_hooks(text) - _disabled(text or "")


HOOK_ITEM = r"""^(\s*)-\s*\{?\s*id:\s*['"]?(harness-[A-Za-z0-9_-]+)['"]?(.*)$"""


def _disabled(text: str) -> set[str]:
    """Harness hooks whose item (the lines indented under its `- id:`) moves it to the manual stage
    or overrides what it runs. Read line by line: the core parses no YAML library."""
    lines = text.splitlines()
    out = set()
    for i, line in enumerate(lines):
        m = re.match(HOOK_ITEM, line)
        if m is None:
            continue
        body = [m[3]] + list(_item_lines(lines[i + 1:], len(m[1])))
        if _switched_off(body):
            out.add(m[2])
    return out


def _item_lines(lines: list[str], indent: int) -> list[str]:
    out = []
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            if len(line) - len(line.lstrip()) <= indent:
                break
            out.append(line.strip())
    return out


def _switched_off(body: list[str]) -> bool:
    text = " ".join(body)
    if any(re.search(rf"(^|[\s,{{]){key}\s*:", text) for key in OVERRIDES):
        return True
    at = re.search(r"(^|[\s,{])stages\s*:\s*(\[[^\]]*\]|.*)", text)
    if at is None:
        return False
    value = re.split(r"\s[A-Za-z_-]+\s*:", at[2].split("]")[0])[0]  # up to the next key
    return set(re.findall(r"[A-Za-z_-]+", value)) - {"-"} == {"manual"}


def dropped(before: str | None, after: str | None) -> list[str]:
    """The harness hooks ``before`` runs and ``after`` no longer names, or keeps but no longer runs."""
    return sorted((harness_hooks(before) - harness_hooks(after)) | (_in_force(before) - _in_force(after)))


def patch_drops(patch: str) -> list[str]:
    """The harness hooks a patch's removed lines name and its added lines do not put back."""
    removed = {m for line in patch.splitlines() if line.startswith("-") for m in re.findall(HOOK_ID, line[1:])}
    added = {m for line in patch.splitlines() if line.startswith("+") for m in re.findall(HOOK_ID, line[1:])}
    return sorted(removed - added - MANUAL_HOOKS)


def edited_text(tool_name: str, tool_input: Mapping[str, Any], before: str) -> str | None:
    """The file an edit tool leaves: Write's content, Edit's and replace's substitution, MultiEdit's
    in turn. None for a tool whose result cannot be worked out here."""
    if isinstance(tool_input.get("content"), str):
        return str(tool_input["content"])
    edits = tool_input.get("edits") if tool_name == "MultiEdit" else [tool_input]
    if not isinstance(edits, list):
        return None
    text = before
    for edit in edits:
        old, new = (edit.get("old_string"), edit.get("new_string")) if isinstance(edit, dict) else (None, None)
        if not isinstance(old, str) or not isinstance(new, str):
            return None
        # Claude's replace_all, Gemini's expected_replacements above one: every occurrence.
        every = bool(edit.get("replace_all")) or edit.get("expected_replacements") not in (None, 0, 1)
        text = text.replace(old, new) if every else text.replace(old, new, 1)
    return text


def framework_denial(hooks: list[str], committing: bool = False) -> Denial:
    what = "committing a .pre-commit-config.yaml" if committing else ".pre-commit-config.yaml"
    return Denial("framework-config", f"{what} without {', '.join(hooks)} turns off the harness's own git hooks",
                  "keep every harness hook in .pre-commit-config.yaml (docs/git.md lists them); "
                  "ask a human if one really must go")
