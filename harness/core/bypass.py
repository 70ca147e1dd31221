"""The bypass denier: which agent actions would sidestep the harness, and what to do instead.

Pure: a command line (or the paths an edit tool writes) and where it runs in, a
:class:`Denial` or None out. Every rule names the legitimate command, because an agent
told only "no" tries the next shortcut. Look-alikes stay allowed: a commit message that
mentions --no-verify, `git status`, `grep -n`, `cat events.jsonl`, `git notes show`.
"""

from __future__ import annotations

from harness.core import guarded_paths as paths
from harness.core.bypass_git import check_git
from harness.core.denials import (
    HOOKS_PATH,
    Denial,
    delete_denial,
    first_protected,
    hooks_path_denial,
    is_notes_ref,
    protected_denial,
)
from harness.core.shell_commands import WRITE_REDIRECTS, SimpleCommand, parse

DEFAULT_NOTES_REF = "refs/notes/harness"


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
    return protected_denial(path, found) if found else None


def check_delete(path: str, where: paths.Where) -> Denial | None:
    """A file an edit tool's patch deletes: nothing of the harness's record may go."""
    return delete_denial(path) if paths.harness_state(where.resolve(path)) else None


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
            return hooks_path_denial()
        if name == "GIT_NOTES_REF" and is_notes_ref(value, notes_ref):
            return Denial("notes-env", f"GIT_NOTES_REF={value} points git notes at the harness's stamps",
                          "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    return None


def _check_redirects(cmd: SimpleCommand, where: paths.Where) -> Denial | None:
    for op, target in cmd.redirects:
        if op in WRITE_REDIRECTS and not target.isdigit():
            found = paths.protected(where.resolve(target)) or paths.unresolved_protected(target)
            if found:
                return protected_denial(target, found)
    return None


# Programs whose file arguments they write or delete.
WRITERS = frozenset({"tee", "truncate", "touch", "shred", "dd"})
DELETERS = frozenset({"rm", "unlink", "rmdir", "shred"})
COPIERS = frozenset({"cp", "install", "ln", "rsync"})


def _check_program(cmd: SimpleCommand, where: paths.Where, notes_ref: str) -> Denial | None:
    prog, args = cmd.program, list(cmd.words[1:])
    if prog == "git":
        return check_git(args, where, notes_ref)
    if prog == "export":
        return _check_env(tuple(a for a in args if "=" in a), notes_ref)
    if prog == "harness" or (prog.startswith("python") and args[:2] == ["-m", "harness"]):
        return _check_harness(args[2:] if prog.startswith("python") else args)
    if prog == "pre-commit" and _first_positional(args) == "uninstall":
        return Denial("uninstall", "`pre-commit uninstall` removes the git hooks that enforce the gate",
                      "leave the hooks installed; ask a human if they really must go")
    # Any other program: judged by what it does to the files it names.
    return _check_deletion(prog, args, where) or _check_overwrite(prog, args, where)


def _operands(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _check_deletion(prog: str, args: list[str], where: paths.Where) -> Denial | None:
    """A program that deletes (or moves away) something of the harness's record."""
    if prog in DELETERS or prog == "mv" or (prog == "find" and ("-delete" in args or "-exec" in args)):
        operands = _operands(args)
        targets = operands if prog != "find" else operands[:1]
        for t in targets:
            if paths.harness_state(where.resolve(t)):
                return delete_denial(t)
    return None


def _check_overwrite(prog: str, args: list[str], where: paths.Where) -> Denial | None:
    """A program that writes over a protected file: in place, or as a copy's destination."""
    operands = _operands(args)
    if prog in WRITERS or prog in DELETERS or prog == "mv" or (prog in ("sed", "perl") and _in_place(args)):
        if prog == "dd":
            operands = [a[3:] for a in args if a.startswith("of=")]
        return first_protected(operands, where)
    if prog in COPIERS and operands:
        return first_protected(operands[-1:], where)
    return None


def _in_place(args: list[str]) -> bool:
    return any(a == "-i" or a.startswith("-i") or a.startswith("--in-place") for a in args)


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


def mentions_guarded(text: str) -> bool:
    """Whether a command the guard could not read touches anything the guard covers: then
    the guard refuses rather than allows (an internal error never silently allows)."""
    lowered = text.lower()
    return any(k in lowered for k in ("git", "harness", "skip=", "hookspath", "events.jsonl", "evidence",
                                      "approvals.jsonl", "allowed_signers", "pre-commit"))

