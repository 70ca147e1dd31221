"""The git side of the bypass denier: hook-skipping flags, core.hooksPath, the notes ref,
and git commands that delete or overwrite the harness's files.

Pure. Options are parsed the way git parses them (clusters like `-anm`, values that
follow an option, `--` ending options, unique prefixes of long options), so `-n` inside a
commit message or after `--` is not a flag.
"""

from __future__ import annotations

from harness.core import guarded_paths as paths
from harness.core.denials import HOOKS_PATH, Denial, delete_denial, first_protected, hooks_path_denial, is_notes_ref

GIT_GLOBAL_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                                   "--config-env", "--exec-path"})
COMMIT_SHORT_WITH_VALUE = frozenset("mFCct")
COMMIT_SHORT_OPTIONAL_VALUE = frozenset("Su")   # -uno, -S<keyid>: only an attached value
COMMIT_LONG_WITH_VALUE = frozenset({"--message", "--file", "--author", "--date", "--template", "--reuse-message",
                                    "--reedit-message", "--fixup", "--squash", "--cleanup", "--trailer",
                                    "--pathspec-from-file"})
NOTES_WRITES = frozenset({"add", "copy", "append", "edit", "merge", "remove", "prune"})
CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--get-urlmatch",
                          "get", "list"})


def check_git(args: list[str], where: paths.Where, notes_ref: str) -> Denial | None:
    """The bypass in `git ARGS` run in ``where``, or None."""
    i, where, denial = _global_options(args, where)
    if denial or i >= len(args):
        return denial
    sub, rest = args[i], args[i + 1:]
    return (_check_skipped_hooks(sub, rest)
            or _check_stamps_and_hooks_path(sub, rest, notes_ref)
            or _check_git_files(sub, rest, where))


def _global_options(args: list[str], where: paths.Where) -> tuple[int, paths.Where, Denial | None]:
    """Git's own options, before the subcommand: (the subcommand's index, the folder `-C` leads to,
    the denial of a core.hooksPath set for this one run)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt, _, inline = args[i].partition("=")
        value = inline if inline else (args[i + 1] if opt in GIT_GLOBAL_WITH_VALUE and i + 1 < len(args) else "")
        if opt == "-c" and value.lower().startswith(HOOKS_PATH + "="):
            return i, where, hooks_path_denial()
        if opt == "--config-env" and (inline or value).lower().startswith(HOOKS_PATH + "="):
            return i, where, hooks_path_denial()
        if opt == "-C" and value:
            where = where.cd(value)
        i += 2 if opt in GIT_GLOBAL_WITH_VALUE and not inline else 1
    return i, where, None


def _check_skipped_hooks(sub: str, rest: list[str]) -> Denial | None:
    """`--no-verify` (or `-n`) on the subcommands whose hooks run the harness's checks."""
    if sub == "commit" and _commit_skips_hooks(rest):
        return Denial("no-verify", "`git commit --no-verify` (or -n) skips the harness's commit checks",
                      "run `git commit` without it; when a hook refuses, fix what it names (`harness status`)")
    if sub in ("push", "merge") and _long_flag_last(rest, "--no-verify", "--verify"):
        return Denial("no-verify", f"`git {sub} --no-verify` skips the harness's {sub} checks",
                      f"run `git {sub}` without it; the refusal names what to fix (`harness status`)")
    return None


def _check_stamps_and_hooks_path(sub: str, rest: list[str], notes_ref: str) -> Denial | None:
    """core.hooksPath set for good, and the notes ref holding the stamps written by hand."""
    if sub == "config":
        return _check_git_config(rest)
    if sub == "notes":
        return _check_git_notes(rest, notes_ref)
    if sub == "update-ref" and any(is_notes_ref(a, notes_ref, short=False) for a in rest):
        return Denial("notes-ref", f"`git update-ref` on {notes_ref} rewrites the harness's stamps",
                      "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    return None


def _check_git_files(sub: str, rest: list[str], where: paths.Where) -> Denial | None:
    """git commands that delete, move or overwrite the harness's files."""
    if sub in ("rm", "mv"):
        for a in (a for a in rest if not a.startswith("-")):
            if paths.harness_state(where.resolve(a)):
                return delete_denial(a)
    if sub in ("checkout", "restore", "rm", "mv"):
        return first_protected([a for a in rest if not a.startswith("-")], where)
    return None


def _commit_skips_hooks(args: list[str]) -> bool:
    skip, i = False, 0
    while i < len(args):
        a = args[i]
        if a == "--":
            break
        if a.startswith("--"):
            opt, eq, _ = a.partition("=")
            if len(opt) >= len("--no-veri") and "--no-verify".startswith(opt):
                skip = True
            elif opt == "--verify":
                skip = False
            elif opt in COMMIT_LONG_WITH_VALUE and not eq:
                i += 1
        elif a.startswith("-") and len(a) > 1:
            for j, ch in enumerate(a[1:], 1):
                if ch in COMMIT_SHORT_OPTIONAL_VALUE:
                    break
                if ch == "n":
                    skip = True
                if ch in COMMIT_SHORT_WITH_VALUE:
                    if j == len(a) - 1:
                        i += 1  # the value is the next word
                    break       # the rest of the cluster is the value
        i += 1
    return skip


def _long_flag_last(args: list[str], flag: str, negation: str) -> bool:
    state = False
    for a in args:
        if a == "--":
            break
        opt = a.partition("=")[0]
        if a.startswith("--") and len(opt) >= len(flag) - 2 and flag.startswith(opt):
            state = True
        elif opt == negation:
            state = False
    return state


def _check_git_config(args: list[str]) -> Denial | None:
    positional = [a for a in args if not a.startswith("-")]
    if any(a in CONFIG_READS for a in args) or (positional[:1] and positional[0] in CONFIG_READS):
        return None
    keys = [a.lower() for a in positional]
    unsetting = any(a.startswith("--unset") for a in args) or keys[:1] == ["unset"]
    setting = keys[:1] == ["set"] or len(keys) >= 2
    if HOOKS_PATH in keys and (unsetting or setting):
        return hooks_path_denial()
    return None


def _check_git_notes(args: list[str], notes_ref: str) -> Denial | None:
    ref, i = None, 0
    while i < len(args) and args[i].startswith("-"):
        opt, eq, value = args[i].partition("=")
        if opt == "--ref":
            ref = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            i += 0 if eq else 1
        i += 1
    sub = args[i] if i < len(args) else "list"
    if ref is not None and is_notes_ref(ref, notes_ref) and sub in NOTES_WRITES:
        return Denial("notes-ref", f"`git notes --ref {ref} {sub}` writes the harness's stamps by hand",
                      "the stamps are written by the post-commit hook (`harness stamp` by hand); "
                      "read them with `git notes --ref " + ref + " show`")
    return None
