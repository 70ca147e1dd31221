"""The bypass denier: which agent actions would sidestep the harness, and what to do instead.

Pure: a command line (or the paths an edit tool writes) and where it runs in, a
:class:`Denial` or None out. Every rule names the legitimate command, because an agent
told only "no" tries the next shortcut. Look-alikes stay allowed: a commit message that
mentions --no-verify, `git status`, `grep -n`, `cat events.jsonl`, `git notes show`.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.core import guarded_paths as paths
from harness.core.shell_commands import WRITE_REDIRECTS, SimpleCommand, parse

DEFAULT_NOTES_REF = "refs/notes/harness"
HOOKS_PATH = "core.hookspath"


@dataclass(frozen=True)
class Denial:
    rule: str
    reason: str
    instead: str

    def message(self) -> str:
        return f"harness: {self.reason}. Instead: {self.instead}"


def check_shell(text: str, where: paths.Where, notes_ref: str = DEFAULT_NOTES_REF) -> Denial | None:
    """The first bypass in a shell command line, or None. Raises ShellSyntaxError when the
    text cannot be read at all (the caller decides what an unreadable command means)."""
    for cmd in parse(text):
        denial = _check_command(cmd, where, notes_ref)
        if denial:
            return denial
        if cmd.program == "cd" and len(cmd.words) == 2 and "$" not in cmd.words[1]:
            where = where.cd(cmd.words[1])
    return None


def check_write(path: str, where: paths.Where) -> Denial | None:
    """A file an edit tool is about to write (or a patch is about to add, change or delete)."""
    found = paths.protected(where.resolve(path))
    return _protected_denial(path, found) if found else None


def check_delete(path: str, where: paths.Where) -> Denial | None:
    """A file an edit tool's patch deletes: nothing of the harness's record may go."""
    return _delete_denial(path) if paths.harness_state(where.resolve(path)) else None


def _protected_denial(path: str, found: tuple[str, str]) -> Denial:
    what, instead = found
    return Denial("protected-file", f"{path} is {what}; writing it by hand would forge the record", instead)


# -- one simple command -------------------------------------------------------------------

def _check_command(cmd: SimpleCommand, where: paths.Where, notes_ref: str) -> Denial | None:
    return (_check_env(cmd.assignments, notes_ref)
            or _check_redirects(cmd, where)
            or _check_program(cmd, where, notes_ref))


def _check_env(assignments: tuple[str, ...], notes_ref: str) -> Denial | None:
    for a in assignments:
        name, _, value = a.partition("=")
        if name == "SKIP" and any(h.strip().startswith("harness") for h in value.split(",")):
            return Denial("skip-hook", f"SKIP={value} turns off the harness's own git hooks",
                          "commit without SKIP; when a harness hook refuses, fix what it names (`harness status`)")
        if (name.startswith("GIT_CONFIG_KEY_") and value.lower() == HOOKS_PATH) or (
                name == "GIT_CONFIG_PARAMETERS" and HOOKS_PATH in value.lower()):
            return _hooks_path_denial()
        if name == "GIT_NOTES_REF" and _is_notes_ref(value, notes_ref):
            return Denial("notes-env", f"GIT_NOTES_REF={value} points git notes at the harness's stamps",
                          "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    return None


def _check_redirects(cmd: SimpleCommand, where: paths.Where) -> Denial | None:
    for op, target in cmd.redirects:
        if op in WRITE_REDIRECTS and not target.isdigit():
            found = paths.protected(where.resolve(target)) or paths.unresolved_protected(target)
            if found:
                return _protected_denial(target, found)
    return None


# Programs whose file arguments they write or delete.
WRITERS = frozenset({"tee", "truncate", "touch", "shred", "dd"})
DELETERS = frozenset({"rm", "unlink", "rmdir", "shred"})
COPIERS = frozenset({"cp", "install", "ln", "rsync"})


def _check_program(cmd: SimpleCommand, where: paths.Where, notes_ref: str) -> Denial | None:
    prog, args = cmd.program, list(cmd.words[1:])
    if prog == "git":
        return _check_git(args, where, notes_ref)
    if prog == "export":
        return _check_env(tuple(a for a in args if "=" in a), notes_ref)
    if prog == "harness" or (prog.startswith("python") and args[:2] == ["-m", "harness"]):
        return _check_harness(args[2:] if prog.startswith("python") else args)
    if prog == "pre-commit" and _first_positional(args) == "uninstall":
        return Denial("uninstall", "`pre-commit uninstall` removes the git hooks that enforce the gate",
                      "leave the hooks installed; ask a human if they really must go")
    operands = [a for a in args if not a.startswith("-")]
    if prog in DELETERS or prog == "mv" or (prog == "find" and ("-delete" in args or "-exec" in args)):
        targets = operands if prog != "find" else operands[:1]
        for t in targets:
            if paths.harness_state(where.resolve(t)):
                return _delete_denial(t)
    if prog in WRITERS or prog in DELETERS or prog == "mv" or (prog in ("sed", "perl") and _in_place(args)):
        if prog == "dd":
            operands = [a[3:] for a in args if a.startswith("of=")]
        return _first_protected(operands, where)
    if prog in COPIERS and operands:
        return _first_protected(operands[-1:], where)
    return None


def _in_place(args: list[str]) -> bool:
    return any(a == "-i" or a.startswith("-i") or a.startswith("--in-place") for a in args)


def _first_protected(candidates: list[str], where: paths.Where) -> Denial | None:
    for c in candidates:
        found = paths.protected(where.resolve(c)) or paths.unresolved_protected(c)
        if found:
            return _protected_denial(c, found)
    return None


def _delete_denial(target: str) -> Denial:
    return Denial("delete-harness", f"deleting {target} would erase the harness's record",
                  "tasks are never deleted: end one with `harness transition ESCALATED --reason \"CODE: why\"`, "
                  "or ask a human")


def _check_harness(args: list[str]) -> Denial | None:
    sub = _first_positional(args)
    if sub == "approve":
        return Denial("approve", "`harness approve` is a human's signature, never the agent's",
                      "stop and ask a human to run the `harness approve …` command in their own terminal")
    if sub == "uninstall" or (sub == "agent" and "uninstall" in args):
        return Denial("uninstall", f"`harness {' '.join(args)}` removes the harness's guards",
                      "leave them installed; ask a human if they really must go")
    return None


def _first_positional(args: list[str]) -> str | None:
    return next((a for a in args if not a.startswith("-")), None)


# -- git ----------------------------------------------------------------------------------

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


def _check_git(args: list[str], where: paths.Where, notes_ref: str) -> Denial | None:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt, _, inline = args[i].partition("=")
        value = inline if inline else (args[i + 1] if opt in GIT_GLOBAL_WITH_VALUE and i + 1 < len(args) else "")
        if opt == "-c" and value.lower().startswith(HOOKS_PATH + "="):
            return _hooks_path_denial()
        if opt == "--config-env" and (inline or value).lower().startswith(HOOKS_PATH + "="):
            return _hooks_path_denial()
        if opt == "-C" and value:
            where = where.cd(value)
        i += 2 if opt in GIT_GLOBAL_WITH_VALUE and not inline else 1
    if i >= len(args):
        return None
    sub, rest = args[i], args[i + 1:]
    if sub == "commit" and _commit_skips_hooks(rest):
        return Denial("no-verify", "`git commit --no-verify` (or -n) skips the harness's commit checks",
                      "run `git commit` without it; when a hook refuses, fix what it names (`harness status`)")
    if sub in ("push", "merge") and _long_flag_last(rest, "--no-verify", "--verify"):
        return Denial("no-verify", f"`git {sub} --no-verify` skips the harness's {sub} checks",
                      f"run `git {sub}` without it; the refusal names what to fix (`harness status`)")
    if sub == "config":
        return _check_git_config(rest)
    if sub == "notes":
        return _check_git_notes(rest, notes_ref)
    if sub == "update-ref" and any(_is_notes_ref(a, notes_ref, short=False) for a in rest):
        return Denial("notes-ref", f"`git update-ref` on {notes_ref} rewrites the harness's stamps",
                      "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    if sub in ("rm", "mv"):
        for a in (a for a in rest if not a.startswith("-")):
            if paths.harness_state(where.resolve(a)):
                return _delete_denial(a)
    if sub in ("checkout", "restore", "rm", "mv"):
        return _first_protected([a for a in rest if not a.startswith("-")], where)
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
        return _hooks_path_denial()
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
    if ref is not None and _is_notes_ref(ref, notes_ref) and sub in NOTES_WRITES:
        return Denial("notes-ref", f"`git notes --ref {ref} {sub}` writes the harness's stamps by hand",
                      "the stamps are written by the post-commit hook (`harness stamp` by hand); "
                      "read them with `git notes --ref " + ref + " show`")
    return None


def _is_notes_ref(value: str, notes_ref: str, short: bool = True) -> bool:
    short_name = notes_ref.removeprefix("refs/notes/")
    return value in (notes_ref, "notes/" + short_name) or (short and value == short_name)


def _hooks_path_denial() -> Denial:
    return Denial("hooks-path", "setting or overriding core.hooksPath points git away from the harness's hooks",
                  "leave core.hooksPath alone; `harness install` (or `pre-commit install`) manages the hooks")


def mentions_guarded(text: str) -> bool:
    """Whether a command the guard could not read touches anything the guard covers: then
    the guard refuses rather than allows (an internal error never silently allows)."""
    lowered = text.lower()
    return any(k in lowered for k in ("git", "harness", "skip=", "hookspath", "events.jsonl", "evidence",
                                      "approvals.jsonl", "allowed_signers", "pre-commit"))

