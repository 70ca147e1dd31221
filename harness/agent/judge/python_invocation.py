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


def module_run(args: list[str]) -> tuple[str, list[str]] | None:
    """(module, its arguments) when ``args`` (the words after the interpreter) run a module with -m;
    None for a script, -c, stdin or an option list Python would refuse."""
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
