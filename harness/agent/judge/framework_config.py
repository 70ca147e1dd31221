"""The pre-commit framework's configuration, as far as it decides whether the harness's hooks run.

Pure. Under the framework, `.pre-commit-config.yaml` is what installs the harness's hooks: a
version that leaves one out turns it off, and a commit that carries such a version is not
checked by the hook it drops. The guard compares the harness hooks each version runs, before and after an
edit (or between HEAD and what a commit would carry), on the config as pre-commit loads it (F-0316, F-0317):
the YAML loaded by the framework's own loader (``load``, given by the caller: the judge imports no YAML
library), a key given twice keeping its last value, and only the items of `repos[*].hooks[*]` — an id in a
second `repos:` the last one replaces, under a key pre-commit ignores, or replaced by a second `id:` runs
nothing; a text the framework cannot load runs no hook. The manual-stage ones never run on a commit or push,
so leaving them out disables nothing. A hook kept by id but given a key that stops it or changes what it
runs counts as left out (F-0312): the harness's hooks always run and take no file names, so under one only
keys that change neither are allowed — `args: [--help]` would run its help and exit 0, `always_run: false`
skip it on a commit that only deletes, `stages` move it off a commit — however YAML spells the key (explicit,
tagged, anchored, quoted, merged in, in flow style). Keys at the top (`files`, `exclude`, `default_stages`,
`fail_fast`) reach none of them: they always run, at the stages their repository gives them.
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.agent.judge.denials import Denial
from harness.core import lazy_re as re  # imported on a pattern's first use: a commit's check needs none

TYPE_CHECKING = False  # typing costs the agent's tool guard, which imports this module, a tenth of its answer
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Loader = Callable[[str | None], object]  # a config's text -> what pre-commit loads from it (None: nothing)

# Patterns, compiled by re's cache where they are matched: the tool guard imports this module for every
# judged shell command, and only a commit or an edit of the config reads one. HOOK_ID reads the lines of a patch
# the guard cannot apply (a config's own hooks are read from its YAML).
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
# a key the guard does not know — counts as switching it off.
HARMLESS = frozenset({"id", "name", "description", "verbose", "log_file", "require_serial",
                      "minimum_pre_commit_version", "language_version"})


def may_run_harness_hooks(text: str | None) -> bool:
    """Whether ``text`` can name a harness hook at all: YAML spells `harness-` as such, or with a backslash
    escape in double quotes. A config that does neither is not loaded (PyYAML stays unimported)."""
    return text is not None and ("harness-" in text or "\\" in text)


def hooks_in_force(config: object) -> set[str]:
    """The harness hooks a loaded config runs as their repository defines them: a hook item of
    `repos[*].hooks[*]` naming one by its `id`, with no key that stops it or changes what it runs (a hook
    listed twice runs twice: one such item is enough)."""
    return {hook_id for hook_id, hook in _harness_items(config)
            if all(_harmless(hook_id, key, value) for key, value in hook.items())}


def harness_hooks(config: object) -> set[str]:
    """The harness hooks a loaded config names as hooks, whatever keys they are given (a local hook's too)."""
    return {hook_id for hook_id, _ in _harness_items(config)}


def _harness_items(config: object) -> list[tuple[str, dict]]:
    """(id, item) for each hook item of `repos[*].hooks[*]` whose id names a harness hook run at a commit or push:
    where pre-commit reads hooks, and nowhere else."""
    repos = config.get("repos") if isinstance(config, dict) else None
    out = []
    for repo in repos if isinstance(repos, list) else ():
        hooks = repo.get("hooks") if isinstance(repo, dict) else None
        for hook in hooks if isinstance(hooks, list) else ():
            hook_id = hook.get("id") if isinstance(hook, dict) else None
            if isinstance(hook_id, str) and hook_id.startswith("harness-") and hook_id not in MANUAL_HOOKS:
                out.append((hook_id, hook))
    return out


def _harmless(hook: str, key: object, value: object) -> bool:
    if key in HARMLESS:
        return True
    if key in ("always_run", "pass_filenames"):  # as the hook repository defines them: run always, take no names
        return value is (key == "always_run")
    if key == "stages":  # every stage it runs at still named (the framework's old names too)
        if not isinstance(value, list) or not all(isinstance(stage, str) for stage in value):
            return False
        named = {OLD_STAGE_NAMES.get(stage, stage) for stage in value}
        return named != {"manual"} and HOOK_STAGES.get(hook, frozenset()) <= named
    return False


def dropped(before: str | None, after: str | None, load: Loader) -> list[str]:
    """The harness hooks ``before`` runs and ``after`` no longer runs (leaves out, switches off, or is a text
    the framework cannot load), each loaded by ``load`` as pre-commit loads it."""
    if not may_run_harness_hooks(before):
        return []
    return sorted(lost(load(before), load(after)))


def lost(before: object, after: object) -> set[str]:
    """The harness hooks the loaded config ``before`` names and ``after`` does not, or ``before`` runs and ``after``
    switches off."""
    return (harness_hooks(before) - harness_hooks(after)) | (hooks_in_force(before) - hooks_in_force(after))


def patch_drops(patch: str) -> list[str]:
    """The harness hooks a patch's removed lines name and its added lines do not put back."""
    removed = {m for line in patch.splitlines() if line.startswith("-") for m in re.findall(HOOK_ID, line[1:])}
    added = {m for line in patch.splitlines() if line.startswith("+") for m in re.findall(HOOK_ID, line[1:])}
    return sorted(removed - added - MANUAL_HOOKS)


def patch_dropped(before: str, patch: str, load: Loader) -> list[str]:
    """The harness hooks Codex's patch of the config at ``before`` drops or switches off: worked out on the text
    it leaves; a patch that cannot be applied here is judged by its lines, and when it adds any, every hook
    in force is taken as reached (Codex may apply what this cannot)."""
    after = patched_text(before, patch)
    if after is not None:
        return dropped(before, after, load)
    adds = any(line.startswith("+") for line in patch.splitlines())
    reached = hooks_in_force(load(before)) if adds and may_run_harness_hooks(before) else set()
    return sorted(set(patch_drops(patch)) | reached)


def patched_text(before: str, patch: str) -> str | None:
    """The config Codex's patch leaves (its one section naming `.pre-commit-config.yaml`), its update chunks
    placed as Codex places them (harness/agent/judge/patch_update.py). None for a patch that names it in no
    section or in more than one, or whose chunks Codex would not apply."""
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
    from harness.agent.judge.patch_update import applied  # a patch's placement: loaded for a patch alone

    return applied(before, body)


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
    return Denial("framework-config", f"{what} that does not run {', '.join(hooks)} as its repository defines it "
                  "turns off the harness's own git hooks: as pre-commit loads it, the hook is left out (or named "
                  "only where pre-commit does not read hooks), kept with a key that stops it or changes what it runs "
                  "(`args`, `always_run`, `pass_filenames`, a file filter, `stages`, `entry`, …), or the text is not "
                  "YAML pre-commit can load",
                  "keep every harness hook in .pre-commit-config.yaml's `repos:` with nothing but `id:` (or `name`, "
                  "`verbose`, …) under it (docs/git.md lists them); "
                  "ask a human if one really must go")
