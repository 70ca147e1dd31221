"""How git reads the options of the commands whose hooks run the harness's checks: whether a
`git commit`/`push`/`merge`/`pull` skips them, and whether a word the guard could not expand
could make it skip them (or name what the guard protects).

Pure. Options are parsed the way git parses them (clusters like `-anm`, values that follow an
option, `--` ending options, unique prefixes of long options), so `-n` inside a commit message
or after `--` is not a flag; an unexpanded word is judged by the worst option it could become.
"""

from __future__ import annotations

from harness.agent.judge.denials import HOOKS_PATH, Denial, unresolved_denial
from harness.agent.judge.shell_resolve import EXPANSION, unresolved
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

COMMIT_SHORT_WITH_VALUE = frozenset("mFCct")
COMMIT_SHORT_OPTIONAL_VALUE = frozenset("Su")   # -uno, -S<keyid>: only an attached value
COMMIT_LONG_WITH_VALUE = frozenset({"--message", "--file", "--author", "--date", "--template", "--reuse-message",
                                    "--reedit-message", "--fixup", "--squash", "--cleanup", "--trailer",
                                    "--pathspec-from-file"})


def skipped_hooks_denial(sub: str, rest: list[str]) -> Denial | None:
    """`--no-verify` (or `-n`) on the subcommands whose hooks run the harness's checks."""
    if sub == "commit" and _commit_skips_hooks(rest):
        return Denial("no-verify", "`git commit --no-verify` (or -n) skips the harness's commit checks",
                      "run `git commit` without it; when a hook refuses, fix what it names (`harness status`)")
    if sub in ("push", "merge", "pull") and _long_flag_last(rest, "--no-verify", "--verify"):
        return Denial("no-verify", f"`git {sub} --no-verify` skips the harness's {sub} checks",
                      f"run `git {sub}` without it; the refusal names what to fix (`harness status`)")
    return None


def unresolved_option_denial(sub: str, rest: list[str]) -> Denial | None:
    """A word the guard cannot expand, where its worst value would skip a hook or name what it guards:
    a flag (`git commit $F`, `-$X`, `--no-$X`), a config key, a ref the stamps live in."""
    if sub in ("commit", "push", "merge", "pull"):
        worst = [_worst(a) for a in rest]
        if worst != rest and skipped_hooks_denial(sub, worst):
            return unresolved_denial(_blamed(sub, rest, worst), f"an argument of `git {sub}`")
        return None
    positional = [a for a in rest if not a.startswith("-") or unresolved(a[:2])]
    if sub == "config" and positional and (unresolved(positional[0]) or ((
            positional[0].lower() in (HOOKS_PATH, "include.path") or positional[0].lower().startswith("alias."))
            and any(unresolved(a) for a in positional[1:]))):
        return unresolved_denial(next(a for a in positional if unresolved(a)), "an argument of `git config`")
    if sub == "update-ref" and positional and unresolved(positional[0]):
        return unresolved_denial(positional[0], "the ref `git update-ref` writes")
    ref = _option_value(rest, "--ref")
    if sub == "notes" and ref is not None and unresolved(ref):
        return unresolved_denial(ref, "the notes ref `git notes` writes")
    return None


def _blamed(sub: str, rest: list[str], worst: list[str]) -> str:
    """The word that could make the command skip a hook on its own (`$f`, not the `-m "$MSG"` message)."""
    for i, (a, w) in enumerate(zip(rest, worst, strict=True)):
        if a != w and skipped_hooks_denial(sub, rest[:i] + [w] + rest[i + 1:]):
            return a
    return next(a for a, w in zip(rest, worst, strict=True) if a != w)


# `$(git rev-parse …)` and kin print an object id or a ref name, which git never lets begin with `-`.
# Compiled by re's cache where it is matched (a word with an expansion), not at import.
NAMES_ONLY = r"\$\(git (rev-parse|symbolic-ref|describe|merge-base|branch --show-current)\b[^()]*\)"


def _worst(word: str) -> str:
    """The most dangerous thing a word with an expansion could become as an option: the expansion as
    `--no-verify` when the word starts with it or with `--` before it, as `n` inside a short cluster."""
    if not unresolved(word) or re.fullmatch(NAMES_ONLY, word):
        return word
    at = re.search(EXPANSION, word)
    start = at.start() if at else 0
    if start == 0 or (word.startswith("--") and "=" not in word[:start]):
        return "--no-verify"
    if word.startswith("-") and not word.startswith("--"):
        return word[:start] + "n"
    return word


def _option_value(args: list[str], name: str) -> str | None:
    for i, a in enumerate(args):
        opt, eq, value = a.partition("=")
        if opt == name:
            return value if eq else (args[i + 1] if i + 1 < len(args) else "")
    return None


def _commit_skips_hooks(args: list[str]) -> bool:
    if "--dry-run" in args[:args.index("--") if "--" in args else len(args)]:
        return False  # nothing is committed, so no hook is skipped
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
