"""Where `harness install` puts each stage's shim beside the hooks a repository already has: in front of a
plain hook (renamed `<stage>.pre-harness`, run first), in the `<stage>.d/` folder a dispatcher runs every file
of, nowhere for a hook that runs the harness itself; or a refusal, before anything changes, naming the line to
add to the user's hook. A hook is renamed only when nothing in it reads its own name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import Refused
from harness.install.hook_stages import stage as stage_named
from harness.install.hook_text import harness_line, shares_stdin
from harness.install.shims import CHAINED, DISPATCHED, FRAMEWORK_MARK, LEGACY, _ours, _text_of, framework_runs_shim
from harness.store.crashpoint import step

if TYPE_CHECKING:  # imported lazily where used; named here for the annotations
    from harness.gitio.git import Git

# What a script reads to learn its own name or place ($0 in any spelling, awk's included: the rule stays one a
# person can check by eye; the script languages' argv[0] and own-path names). Renamed, such a hook looks for its
# work under the new name: husky's `h`, Gitea's `$(basename $0).d/`, overcommit. Only the pre-commit framework's
# own hook is known to read nothing but its folder, which the rename keeps.
# Node's own path is argv[1] (argv[0] is node), or its module's: import.meta, require.main; Ruby's __dir__,
# Perl's FindBin, Deno's and PowerShell's names for the running script.
_OWN_NAME = re.compile(r"\$\{?0|argv\[0\]|process\.argv\[1\]|__file__|__filename|__dirname|__dir__|BASH_SOURCE|"
                       r"\$PROGRAM_NAME|import\.meta\.(?:url|filename|dirname)|require\.main|FindBin|Deno\.mainModule|"
                       r"\$PSCommandPath|\$PSScriptRoot|MyInvocation", re.IGNORECASE)


def _runs_every_file(stage: str) -> re.Pattern[str]:
    """A dispatcher's loop over `<its name>.d/*`: the folder named from a variable or a substitution (Gitea's
    `${hookname}.d/*`, `"$0.d"/*`) or spelled out; every file, not `*.sh` (the shim's name has no suffix)."""
    return re.compile(rf'(?:\$\{{?\w+\}}?|\$\([^()]*\)|\b{re.escape(stage)})"?\.d"?/"?\*(?![\w.])')


@dataclass(frozen=True)
class Placement:
    chained: list[str] = field(default_factory=list)     # renamed <stage>.pre-harness; the shim runs it first
    dispatched: list[str] = field(default_factory=list)  # the shim is <stage>.d/harness; their hook untouched
    own: list[str] = field(default_factory=list)         # their hook runs `harness hook run <stage>`: no shim
    legacy: list[str] = field(default_factory=list)      # the framework runs our shim as <stage>.legacy: kept there

    def shim(self, folder: Path, stage: str) -> Path | None:
        if stage in self.own or stage in self.legacy:
            return None
        return folder / f"{stage}.d" / DISPATCHED if stage in self.dispatched else folder / stage


def place(git: Git, folder: Path, stages: tuple[str, ...]) -> Placement:
    """Where each stage's shim goes; Refused (nothing changed yet) where it cannot go without changing what the
    user's hook does, or into files the repository holds."""
    _refuse_hooks_folder(git, folder, stages)
    placement = Placement()
    for stage in stages:
        _place(folder, stage, placement)
    return placement


def remove_dispatched(folder: Path, stages: tuple[str, ...]) -> list[str]:
    """Take the shims out of the dispatchers' folders (the folders and the user's files in them stay)."""
    removed = []
    for stage in stages:
        path = folder / f"{stage}.d" / DISPATCHED
        if path.is_file() and _ours(path):
            step()
            path.unlink()
            removed.append(stage)
    return removed


def _place(folder: Path, stage: str, placement: Placement) -> None:
    path, backup = folder / stage, folder / (stage + CHAINED)
    if framework_runs_shim(folder, stage):
        # Where `pre-commit install` left it: the shim (refreshed as it is) chains <stage>.pre-harness, as it did
        # from <stage>; chaining the framework's hook behind its own legacy hook would run the framework's hooks twice.
        placement.legacy.append(stage)
    if not path.exists() or _ours(path) or stage in placement.legacy:
        reads = _reads_own_name(_text_of(backup)) if backup.exists() else None
        if reads:  # renamed by an install from before this rule: that chain never ran it as it was
            back = folder / (stage + LEGACY) if stage in placement.legacy else path  # where uninstall puts it
            raise Refused(f"{backup} reads its own file name or folder (`{reads}`), so chained under that name it "
                          f"does not do what it did as {stage}; nothing was changed",
                          hint=f"`harness uninstall` puts it back as {back}; then add `{line(stage)}` to it"
                               f"{_where_note((stage,))} and run `harness install` again")
        return
    text = _text_of(path)
    if own := harness_line(text, stage):
        if own.problem:
            raise Refused(f"{path} runs the harness on line {own.number} (`{own.text}`), but the harness's failure "
                          f"need not fail the hook: {own.problem}; nothing was changed",
                          hint=f"run it as `{line(stage)}`{_where_note((stage,))}, then run `harness install` again")
        placement.own.append(stage)
    elif (folder / f"{stage}.d").is_dir() and _runs_every_file(stage).search(text):
        _refuse_starving_dispatcher(path, stage, text)
        shim = folder / f"{stage}.d" / DISPATCHED
        if shim.exists() and not _ours(shim):
            raise Refused(f"{shim} exists and is not the harness's shim",
                          hint=f"rename it (your {stage} hook runs every file of {stage}.d/), then re-run")
        placement.dispatched.append(stage)
    elif "husky" in text.lower():
        raise Refused(f"{path} is husky's: it finds your script by its own file name, which chaining it would change; "
                      "nothing was changed", hint=f"add `{line(stage)}` to your husky {stage} script, and likewise "
                                                  "for each stage husky runs; then set the notes settings with the "
                                                  "`git config` lines docs/git.md gives for the pre-commit framework")
    elif reads := _reads_own_name(text):
        raise Refused(f"{path} reads its own file name or folder (`{reads}`): renamed to {stage}{CHAINED} to run "
                      "before the harness, it would look for its work under that name (install never renames a hook "
                      "that mentions $0, argv[0] or its own path); nothing was changed",
                      hint=f"add `{line(stage)}` to it{_where_note((stage,))}, then run `harness install` again")
    elif backup.exists():
        raise Refused(f"{path} exists and so does {backup}", hint="merge or remove one of them, then re-run")
    else:
        placement.chained.append(stage)


def line(stage: str) -> str:
    """What to add to a hook of the user's so that it runs the harness's checks of ``stage``."""
    return f'harness hook run {stage} "$@"'


def _where_note(stages: tuple[str, ...]) -> str:
    """Where the line goes: its failure must be the hook's (harness.install.hook_text.harness_line)."""
    reading = [s for s in stages if (found := stage_named(s)) is not None and found.reads_stdin]
    stdin = (f"; {', '.join(reading)} {'gets' if len(reading) == 1 else 'get'} refs on stdin: if your hook reads "
             "them first, give the harness the same lines") if reading else ""
    return (" (as its last line, unindented, or anywhere it always runs followed by `|| exit $?`: the harness's "
            f"failure must fail the hook{stdin})")


def _refuse_starving_dispatcher(path: Path, stage: str, text: str) -> None:
    """At a stage git gives lines on stdin, a file the dispatcher runs before `harness` may read them all: the
    shim goes into its folder only when the dispatcher gives each file the same lines."""
    found = stage_named(stage)
    if found is None or not found.reads_stdin or shares_stdin(text):
        return
    raise Refused(f"{path} runs every file of {stage}.d/ without giving each the same stdin: a file before "
                  f"`{DISPATCHED}` that reads the refs would leave the harness none to check; nothing was changed",
                  hint="read stdin once before the loop, `data=$(cat)`, and run each file as "
                       "`printf '%s\\n' \"$data\" | \"$f\" \"$@\"` (as Gitea's dispatcher does), then run "
                       "`harness install` again")


def _reads_own_name(text: str) -> str | None:
    found = _OWN_NAME.search(text)
    return found.group(0) if found and FRAMEWORK_MARK not in text else None


def _refuse_hooks_folder(git: Git, folder: Path, stages: tuple[str, ...]) -> None:
    """Husky's folder, or one inside the work tree: no shim belongs there."""
    if (folder.name == "_" and (folder.parent.name == ".husky" or (folder / "h").is_file())) or folder.name == ".husky":
        scripts = folder.parent if folder.name == "_" else folder
        where = _shown(git, scripts)
        raise Refused(f"{folder} (core.hooksPath) is husky's: its hooks find your scripts in {where}/ by their own "
                      "file name, and `npm install` rewrites them; nothing was changed",
                      hint=_lines_hint(where, stages))
    real = folder.resolve()
    inside_git = any(real.is_relative_to(d.resolve()) for d in (git.git_dir, git.common_dir))
    if not git.is_bare and real.is_relative_to(git.root.resolve()) and not inside_git:
        where = _shown(git, folder)
        raise Refused(f"{folder} (core.hooksPath) is inside the work tree: a shim there (naming this machine's "
                      "Python) would rewrite the repository's own hook files, undone by any checkout, stash or reset "
                      "and committed by `git add -A`; nothing was changed",
                      hint=_lines_hint(where, stages))


def _lines_hint(where: str, stages: tuple[str, ...]) -> str:
    others = f", and likewise `{line('<stage>')}` to {where}/<stage> for {', '.join(stages[1:])}" if stages[1:] else ""
    return (f"add `{line(stages[0])}` to {where}/{stages[0]}{others}{_where_note(stages)}; then set the notes "
            "settings with the `git config` lines docs/git.md gives for the pre-commit framework")


def _shown(git: Git, folder: Path) -> str:
    try:
        return folder.relative_to(git.root.resolve()).as_posix()
    except ValueError:
        return str(folder)
