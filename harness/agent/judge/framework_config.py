"""The pre-commit framework's configuration, as far as it decides whether the harness's hooks run.

Pure. Under the framework, `.pre-commit-config.yaml` is what installs the harness's hooks: a
version that leaves one out turns it off, and a commit that carries such a version is not
checked by the hook it drops. The guard compares the harness hook ids before and after an
edit (or between HEAD and what a commit would carry); the manual-stage ones never run on a
commit or push, so leaving them out disables nothing. A hook kept by id but given a key that stops
it or changes what it runs counts as left out (F-0312): the harness's hooks always run and take no
file names, so under one only keys that change neither are allowed — `args: [--help]` would run its
help and exit 0, `always_run: false` skip it on a commit that only deletes, `stages` move it off a
commit. Keys at the top (`files`, `exclude`, `default_stages`, `fail_fast`) reach none of them: they
always run, at the stages their repository gives them.
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
HOOK_ID = r"""(?m)^[\s+-]*-?\s*\{?\s*id:\s*['"]?(harness-[A-Za-z0-9_-]+)"""
MANUAL_HOOKS = frozenset({"harness-gate", "harness-audit"})


# The stages a `stages:` under a harness hook must still name. The checks: every stage they run at (from
# .pre-commit-hooks.yaml, a test holds them equal): `[pre-commit]` alone takes the merge guard off a merge git
# concludes itself. The stamp, a record that never refuses, only the commit's own: a note restamped at a
# merge or a rewrite is a record the push guard does not need for its verdict.
HOOK_STAGES = {
    "harness-validate": frozenset({"pre-commit", "pre-merge-commit"}),
    "harness-merge-guard": frozenset({"pre-commit", "pre-merge-commit"}),
    "harness-stamp": frozenset({"post-commit"}),
    "harness-push-guard": frozenset({"pre-push"}),
}
OLD_STAGE_NAMES = {"commit": "pre-commit", "merge-commit": "pre-merge-commit", "push": "pre-push"}  # still read
# Per-hook keys that change neither whether a harness hook runs nor what it runs (F-0312). The hooks always run
# and take no file names, so any other key — `args` (`[--help]` runs the help and exits 0), `always_run`
# and `pass_filenames` set otherwise, the file filters, `entry`, `language`, `alias`, `additional_dependencies`,
# a key the guard does not know, a YAML merge (`<<:`) — counts as switching it off.
HARMLESS = frozenset({"id", "name", "description", "verbose", "log_file", "require_serial",
                      "minimum_pre_commit_version", "language_version"})
YAML_TRUE = frozenset({"true", "yes", "on"})  # YAML 1.1's, as the framework's loader reads them
YAML_FALSE = frozenset({"false", "no", "off"})
# A key of a hook's item: at a line's start (after its `- ` and a flow `{`), or after `{`/`,` in flow style. Text in
# a value that reads as a key counts as one: a key that is not harmless errs towards refusing.
ITEM_KEY = r"""(?:^(?:-\s+)*\{?|[{,])\s*['"]?([\w<][\w<.-]*)['"]?\s*:(?=\s|$)"""


def harness_hooks(text: str | None) -> set[str]:
    return set(re.findall(HOOK_ID, text or "")) - MANUAL_HOOKS


def _in_force(text: str | None) -> set[str]:
    """The harness hooks named and given no key that stops them or changes what they run."""
    return harness_hooks(text) - _disabled(text or "")


def _disabled(text: str) -> set[str]:
    """Harness hooks whose item (its line after the `-`, and the lines indented under it) switches it off.
    Read line by line: the core parses no YAML library. Its `id:` need not come first."""
    lines = text.splitlines()
    out = set()
    for i, line in enumerate(lines):
        m = re.match(HOOK_ID, line)
        if m is None:
            continue
        start = _item_start(lines, i)
        dash = len(lines[start]) - len(lines[start].lstrip())
        if _switched_off(m[1], [_uncommented(lines[start])] + _item_lines(lines[start + 1:], dash)):
            out.add(m[1])
    return out


def _item_start(lines: list[str], at: int) -> int:
    """The line opening the list item whose `id:` is on line ``at``: that line (`- id: …`), or the nearest
    less indented line above it when that one opens an item (`- args: …` then `  id: …`)."""
    if lines[at].lstrip().startswith("-"):
        return at
    indent = len(lines[at]) - len(lines[at].lstrip())
    for i in range(at - 1, -1, -1):
        line = lines[i]
        if line.strip() and not line.lstrip().startswith("#") and len(line) - len(line.lstrip()) < indent:
            return i if line.lstrip().startswith("-") else at
    return at


def _item_lines(lines: list[str], indent: int) -> list[str]:
    out = []
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            if len(line) - len(line.lstrip()) <= indent:
                break
            out.append(_uncommented(line))
    return out


def _uncommented(line: str) -> str:
    return re.sub(r"\s+#.*", "", line).strip()


def _switched_off(hook: str, body: list[str]) -> bool:
    """Whether a harness hook's item, its lines ``body``, keeps it from running as its repository defines it."""
    return not all(_harmless(hook, key, value) for key, value in _entries(body))


def _entries(body: list[str]) -> list[tuple[str, list[str]]]:
    """(key, the words of its value) for each key of an item: a value runs on to the next key, over the lines
    under it (`args:` then `- --help`), without brackets, quotes and list dashes."""
    entries: list[tuple[str, list[str]]] = []
    for line in body:
        marks = list(re.finditer(ITEM_KEY, line))
        if entries:
            entries[-1][1].extend(_words(line[:marks[0].start()] if marks else line))
        for m, after in zip(marks, [*marks[1:], None]):
            entries.append((m[1], _words(line[m.end():after.start() if after else len(line)])))
    return entries


def _words(value: str) -> list[str]:
    return [w for w in re.split(r"""[\s,\[\]{}'"]+""", value) if w and w != "-"]


def _harmless(hook: str, key: str, value: list[str]) -> bool:
    if key in HARMLESS:
        return True
    if key in ("always_run", "pass_filenames"):  # as the hook repository defines them: run always, take no names
        return len(value) == 1 and value[0].lower() in (YAML_TRUE if key == "always_run" else YAML_FALSE)
    if key == "stages":  # every stage it runs at still named (the framework's old names too)
        named = {OLD_STAGE_NAMES.get(stage, stage) for stage in value}
        return named != {"manual"} and HOOK_STAGES.get(hook, frozenset()) <= named
    return False


def dropped(before: str | None, after: str | None) -> list[str]:
    """The harness hooks ``before`` runs and ``after`` no longer names, or keeps but no longer runs."""
    return sorted((harness_hooks(before) - harness_hooks(after)) | (_in_force(before) - _in_force(after)))


def patch_drops(patch: str) -> list[str]:
    """The harness hooks a patch's removed lines name and its added lines do not put back."""
    removed = {m for line in patch.splitlines() if line.startswith("-") for m in re.findall(HOOK_ID, line[1:])}
    added = {m for line in patch.splitlines() if line.startswith("+") for m in re.findall(HOOK_ID, line[1:])}
    return sorted(removed - added - MANUAL_HOOKS)


def patch_dropped(before: str, patch: str) -> list[str]:
    """The harness hooks Codex's patch of the config at ``before`` drops or switches off: worked out on the text
    it leaves; a patch that cannot be applied here is judged by its lines, and when it adds any, every hook
    in force is taken as reached (Codex may apply what this cannot)."""
    after = patched_text(before, patch)
    if after is not None:
        return dropped(before, after)
    reached = _in_force(before) if any(line.startswith("+") for line in patch.splitlines()) else set()
    return sorted(set(patch_drops(patch)) | reached)


def patched_text(before: str, patch: str) -> str | None:
    """The config Codex's patch leaves (its one section naming `.pre-commit-config.yaml`): hunks found as Codex
    seeks them (exact, then trailing, then all surrounding blanks ignored), after their `@@ LINE` anchor. None
    for a patch that names it in no section or in more than one, or whose hunk is not found."""
    sections = [s for s in re.split(r"(?m)^\s*\*\*\* (?=Add File: |Update File: |Delete File: )", patch)[1:]
                if s.split("\n", 1)[0].split(": ", 1)[-1].strip().endswith(".pre-commit-config.yaml")]
    if len(sections) != 1:
        return None
    header, _, body = sections[0].partition("\n")
    body = re.split(r"(?m)^\s*\*\*\* End Patch", body)[0]
    if header.startswith("Delete File: ") or re.search(r"(?m)^\s*\*\*\* Move to: ", body):
        return ""  # the config gone from its place
    if header.startswith("Add File: "):
        return "".join(line[1:] + "\n" for line in body.splitlines() if line.startswith("+"))
    return _hunks_applied(before.splitlines(), re.split(r"(?m)^(?=@@)", body))


def _hunks_applied(lines: list[str], hunks: list[str]) -> str | None:
    cursor = 0
    for hunk in hunks:
        rows = [row for row in hunk.splitlines() if not row.startswith("***")]
        if not rows or not rows[0].startswith("@@"):
            if any(row.strip() for row in rows):
                return None
            continue
        anchor = rows[0][2:].strip()
        if anchor:
            found = _seek(lines, [anchor], cursor)
            if found is None:
                return None
            cursor = found + 1
        old = [row[1:] for row in rows[1:] if row[:1] in (" ", "-", "")]
        new = [row[1:] for row in rows[1:] if row[:1] in (" ", "+", "")]
        at = _seek(lines, old, cursor) if old else len(lines)
        if at is None:
            return None
        lines[at:at + len(old)] = new
        cursor = at + len(new)
    return "".join(line + "\n" for line in lines)


def _seek(lines: list[str], wanted: list[str], start: int) -> int | None:
    for same in (lambda a, b: a == b, lambda a, b: a.rstrip() == b.rstrip(), lambda a, b: a.strip() == b.strip()):
        for i in range(start, len(lines) - len(wanted) + 1):
            if all(same(lines[i + j], w) for j, w in enumerate(wanted)):
                return i
    return None


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
    return Denial("framework-config", f"{what} that leaves out {', '.join(hooks)}, or keeps it with a key that stops "
                  "it or changes what it runs (`args`, `always_run`, `pass_filenames`, a file filter, `stages`, "
                  "`entry`, …), turns off the harness's own git hooks",
                  "keep every harness hook in .pre-commit-config.yaml with nothing but `id:` (or `name`, "
                  "`verbose`, …) under it (docs/git.md lists them); "
                  "ask a human if one really must go")
