"""Which module a Python command line runs, read as the interpreter reads its options: pure.

The guard judges `python -m harness uninstall` as `harness uninstall`; so it must find the module
however the options before it are written — `-I -m harness`, the combined `-Pm harness` or
`-mharness`, `-X utf8` (an option with its own argument) — and must not take for a module what
Python does not: after `-c CODE`, a script name or `--`, the rest is the program's own argv.
"""

from __future__ import annotations

# Short options that take an argument (attached, or the next word); long ones that take the next word.
_WITH_ARGUMENT = frozenset("XW")
_LONG_WITH_ARGUMENT = frozenset({"--check-hash-based-pycs"})
# What runs the harness's command line: the package, or its __main__ named outright.
HARNESS_MODULES = frozenset({"harness", "harness.__main__"})
# The standard library's modules that run another module: the one they run is the one judged.
_RUNNERS_WITH_M = frozenset({"cProfile", "profile", "pdb"})   # `-m MODULE` among their own options
_RUNNER_VALUE_OPTIONS = frozenset({"-o", "-s", "-c", "--outfile", "--sort", "--command", "--file", "-f",
                                   "--coverdir", "-C", "--ignore-module", "--ignore-dir"})


def module_run(args: list[str]) -> tuple[str, list[str]] | None:
    """(module, its arguments) when ``args`` (the words after the interpreter) run a module with -m —
    through runpy, cProfile, profile, pdb or trace, the module those run; None for a script, -c, stdin
    or an option list Python would refuse."""
    found = _interpreter_module(args)
    for _ in range(8):  # a runner running a runner: a few levels, no more
        if found is None or found[0] not in ("runpy", "trace", *_RUNNERS_WITH_M):
            return found
        found = _runner_module(*found)
    return found


def script_run(args: list[str]) -> tuple[str, list[str]] | None:
    """(script, its arguments) when ``args`` run a script file; None for -m, -c, stdin or no script."""
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            return (args[i + 1], args[i + 2:]) if i + 1 < len(args) else None
        if not word.startswith("-"):
            return word, args[i + 1:]
        if word == "-" or word.startswith("--"):
            if word == "-":
                return None
            i += 2 if word in _LONG_WITH_ARGUMENT else 1
            continue
        found, skip = _short_cluster(word[1:], args[i + 1:])
        if found is not None or skip < 0:
            return None
        i += 1 + skip
    return None


def inline_code(args: list[str]) -> tuple[str, list[str]] | None:
    """(CODE, its arguments) when ``args`` run code given with -c (``-c CODE``, ``-cCODE``, ``-Ic CODE``);
    None for a module, a script, stdin or an option list Python would refuse."""
    i = 0
    while i < len(args):
        word = args[i]
        if not word.startswith("-") or word in ("-", "--"):
            return None
        if word.startswith("--"):
            i += 2 if word in _LONG_WITH_ARGUMENT else 1
            continue
        for n, flag in enumerate(word[1:]):
            rest = word[n + 2:]
            if flag == "m":
                return None
            if flag == "c":
                if rest:
                    return rest, args[i + 1:]
                return (args[i + 1], args[i + 2:]) if i + 1 < len(args) else None
            if flag in _WITH_ARGUMENT:
                i += 0 if rest else 1
                break
        i += 1
    return None


def _runner_module(runner: str, args: list[str]) -> tuple[str, list[str]] | None:
    if runner == "runpy":  # python -m runpy MODULE ARGS
        return (args[0], args[1:]) if args and not args[0].startswith("-") else None
    i = 0
    while i < len(args):
        word = args[i]
        if runner in _RUNNERS_WITH_M and word == "-m":
            return (args[i + 1], args[i + 2:]) if i + 1 < len(args) else None
        if runner == "trace" and not word.startswith("-"):
            return (word, args[i + 1:]) if "--module" in args[:i] else None
        if not word.startswith("-"):
            return None  # a script the runner runs
        i += 2 if word in _RUNNER_VALUE_OPTIONS else 1
    return None


def _interpreter_module(args: list[str]) -> tuple[str, list[str]] | None:
    i = 0
    while i < len(args):
        word = args[i]
        if not word.startswith("-") or word in ("-", "--"):
            return None  # a script (or stdin) runs: what follows is its own argv
        if word.startswith("--"):
            i += 2 if word in _LONG_WITH_ARGUMENT else 1
            continue
        found, skip = _short_cluster(word[1:], args[i + 1:])
        if found is not None:
            return found
        if skip < 0:
            return None
        i += 1 + skip
    return None


def _short_cluster(flags: str, after: list[str]) -> tuple[tuple[str, list[str]] | None, int]:
    """(the module run, -1 or how many following words the cluster takes) for one `-abc` word."""
    for n, flag in enumerate(flags):
        rest = flags[n + 1:]
        if flag == "m":
            if rest:
                return (rest, after), 0
            return ((after[0], after[1:]), 0) if after else (None, -1)
        if flag == "c":
            return None, -1  # -c CODE: no module, and the rest is the code's argv
        if flag in _WITH_ARGUMENT:
            return None, 0 if rest else 1
    return None, 0
