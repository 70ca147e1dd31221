"""The pre-commit framework's commands that take the git hooks away from the harness. Pure.

`pre-commit uninstall` removes them. `pre-commit install` over the harness's native shims keeps each as
`<stage>.legacy` and runs it first (the framework's migration mode, which the shim is written for), so a
plain install leaves every harness check running: this project installs the framework so, and a repository
under the framework installs its shim with it after a clone. Two of its options do not (F-0309):
`--overwrite` (`-f`) deletes those `.legacy` hooks, and `-c FILE` makes the hooks it writes read a config
other than `.pre-commit-config.yaml`, whose harness hooks the guard keeps (with none there and
`--allow-missing-config`, every check is skipped); `-c` naming that very file writes what a plain install does
(F-0323). `init-templatedir DIR` always installs as `--overwrite` does, with the missing config allowed, into
DIR/hooks (F-0314): harmless into a template folder, the same deletion into this repository's git folder or a
folder whose hooks/ git runs here. Options are read as argparse reads them: a unique prefix of a long option,
`--config=FILE`, short ones clustered (`-fc FILE`, `-cFILE`).
"""

from __future__ import annotations

import posixpath

from harness.agent.judge.denials import Denial, unresolved_denial
from harness.agent.judge.guarded_paths import FRAMEWORK_CONFIG, Where
from harness.agent.judge.shell_resolve import unresolved

# `python -m MODULE` runs the framework's command line under these names; `python SCRIPT` (F-0315) its console
# script (a file named pre-commit) and its package's entry points run as files.
PRE_COMMIT_MODULES = frozenset({"pre_commit", "pre_commit.main", "pre_commit.__main__"})
PRE_COMMIT_SCRIPTS = ("pre_commit/__main__.py", "pre_commit/main.py")
# The subcommands that write hook scripts, and the long options each takes (their parser's, --color and
# --help included: a prefix is the option's only when no other option of that subcommand shares it), each with
# whether it takes a value.
WRITERS = {
    "install": {"--help": False, "--color": True, "--config": True, "--overwrite": False, "--install-hooks": False,
                "--hook-type": True, "--allow-missing-config": False},
    "init-templatedir": {"--help": False, "--color": True, "--config": True, "--no-allow-missing-config": False,
                         "--hook-type": True},
}
SHORT = {"h": "--help", "c": "--config", "f": "--overwrite", "t": "--hook-type"}
WITH_VALUE = frozenset({"--config", "--hook-type", "--color"})  # -c CONFIG, -t HOOK_TYPE: the rest of a cluster


def check_pre_commit(args: list[str], where: Where, hooks_dirs: tuple[str, ...] = ()) -> Denial | None:
    """The refusal of `pre-commit ARGS` when it removes the harness's hooks or writes ones that may not run it.
    ``where``: where it runs; ``hooks_dirs``: the folders git runs this repository's hooks from."""
    sub = next((a for a in args if not a.startswith("-")), None)
    if sub == "uninstall":
        return Denial("uninstall", "`pre-commit uninstall` removes the git hooks that enforce the gate",
                      "leave the hooks installed; ask a human if they really must go")
    if sub not in WRITERS:
        return None
    given, positional = _parsed(args[args.index(sub) + 1:], WRITERS[sub])
    if "--overwrite" in given:
        return Denial("uninstall", f"`pre-commit {sub} --overwrite` deletes the hooks it finds installed (kept as "
                      "`<stage>.legacy` and run first otherwise), the harness's own among them",
                      f"run `pre-commit {sub}` without --overwrite/-f: the hooks already there keep running; "
                      "ask a human if they really must go")
    if sub == "init-templatedir" and positional:
        denial = _templatedir_denial(positional[0], where, hooks_dirs)
        if denial:
            return denial
    configs = given.get("--config")
    if configs and not _own_config(configs[-1], where):  # argparse keeps the last one given
        return Denial("uninstall", f"`pre-commit {sub} --config {configs[-1]}` writes hooks that read another config "
                      "than .pre-commit-config.yaml, the one the guard keeps running the harness's hooks",
                      f"run `pre-commit {sub}` without -c/--config (or naming this repository's "
                      ".pre-commit-config.yaml); keep the hooks in .pre-commit-config.yaml")
    return None


def _own_config(value: str, where: Where) -> bool:
    """Whether a --config value names the repository's own .pre-commit-config.yaml, from where the command runs.
    (`install` reads a relative name that names no file from the repository's top: such a name is refused.)"""
    return not unresolved(value) and not value.startswith("~") and where.resolve(value) == FRAMEWORK_CONFIG


def _templatedir_denial(directory: str, where: Where, hooks_dirs: tuple[str, ...]) -> Denial | None:
    if unresolved(directory):
        return unresolved_denial(directory, "the folder `pre-commit init-templatedir` installs hooks into")
    if directory.startswith("~"):  # a home the guard does not know (the shell expands the one it does)
        ours = posixpath.basename(posixpath.normpath(directory)) == ".git"
    else:
        full = posixpath.normpath(posixpath.join(where.cwd, directory))
        ours = where.resolve(full) == ".git" or posixpath.join(full, "hooks") in {
            posixpath.normpath(d) for d in hooks_dirs}
    if not ours:
        return None
    return Denial("uninstall", f"`pre-commit init-templatedir {directory}` always installs as `--overwrite` does (and "
                  "skips every check where no config is found), into its folder's hooks/: here, where git runs this "
                  "repository's hooks from, it deletes the harness's own",
                  "give it a template folder of its own (`pre-commit init-templatedir ~/.git-template`); "
                  "`pre-commit install` installs the framework here and keeps the harness's hooks running")


def _parsed(words: list[str], longs: dict[str, bool]) -> tuple[dict[str, list[str]], list[str]]:
    """({long name: the values given, in order} of the options among ``words``, the positional words), as
    argparse reads them (an option it would refuse is left out: the command then runs nothing)."""
    given: dict[str, list[str]] = {}
    positional: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            positional.extend(words[i:])
            break
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            matches = [o for o in longs if o == name] or [o for o in longs if o.startswith(name)]
            if len(matches) == 1:
                if longs[matches[0]] and not eq:
                    value, i = (words[i] if i < len(words) else ""), i + 1
                given.setdefault(matches[0], []).append(value)
        elif word.startswith("-") and len(word) > 1:
            i += _cluster(word[1:], words[i:], given)
        else:
            positional.append(word)
    return given, positional


def _cluster(flags: str, after: list[str], given: dict[str, list[str]]) -> int:
    """Reads one `-abc` word into ``given``; how many of the words ``after`` it takes (0 or 1)."""
    for n, flag in enumerate(flags):
        option = SHORT.get(flag)
        if option is None:
            continue
        if option not in WITH_VALUE:
            given.setdefault(option, []).append("")
            continue
        rest = flags[n + 1:]
        if rest:  # `-cFILE`, and `-c=FILE` as argparse splits it
            given.setdefault(option, []).append(rest[1:] if n == 0 and rest.startswith("=") else rest)
            return 0
        given.setdefault(option, []).append(after[0] if after else "")
        return 1 if after else 0
    return 0
