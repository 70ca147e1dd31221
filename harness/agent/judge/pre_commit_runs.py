"""The pre-commit framework's commands that take the git hooks away from the harness. Pure.

`pre-commit uninstall` removes them. `pre-commit install` over the harness's native shims keeps each as
`<stage>.legacy` and runs it first (the framework's migration mode, which the shim is written for), so a
plain install leaves every harness check running: this project installs the framework so, and a repository
under the framework installs its shim with it after a clone. Two of its options do not (F-0309):
`--overwrite` (`-f`) deletes those `.legacy` hooks, and `-c FILE` makes the hooks it writes read a config
other than `.pre-commit-config.yaml`, whose harness hooks the guard keeps (with none there and
`--allow-missing-config`, every check is skipped). Options are read as argparse reads them: a unique prefix
of a long option, `--config=FILE`, short ones clustered (`-fc FILE`, `-cFILE`).
"""

from __future__ import annotations

from harness.agent.judge.denials import Denial

# `python -m MODULE` runs the framework's command line under these names.
PRE_COMMIT_MODULES = frozenset({"pre_commit", "pre_commit.main", "pre_commit.__main__"})
# The subcommands that write hook scripts, and the long options each takes (their parser's, --color and
# --help included: a prefix is the option's only when no other option of that subcommand shares it).
WRITERS = {
    "install": ("--help", "--color", "--config", "--overwrite", "--install-hooks", "--hook-type",
                "--allow-missing-config"),
    "init-templatedir": ("--help", "--color", "--config", "--no-allow-missing-config", "--hook-type"),
}
SHORT_WITH_VALUE = "ct"  # -c CONFIG, -t HOOK_TYPE: the rest of a cluster is their value


def check_pre_commit(args: list[str]) -> Denial | None:
    """The refusal of `pre-commit ARGS` when it removes the harness's hooks or writes ones that may not run it."""
    sub = next((a for a in args if not a.startswith("-")), None)
    if sub == "uninstall":
        return Denial("uninstall", "`pre-commit uninstall` removes the git hooks that enforce the gate",
                      "leave the hooks installed; ask a human if they really must go")
    if sub not in WRITERS:
        return None
    given = _options(args[args.index(sub) + 1:], WRITERS[sub])
    if "--overwrite" in given:
        return Denial("uninstall", f"`pre-commit {sub} --overwrite` deletes the hooks it finds installed (kept as "
                      "`<stage>.legacy` and run first otherwise), the harness's own among them",
                      f"run `pre-commit {sub}` without --overwrite/-f: the hooks already there keep running; "
                      "ask a human if they really must go")
    if "--config" in given:
        return Denial("uninstall", f"`pre-commit {sub} --config` writes hooks that read another config than "
                      ".pre-commit-config.yaml, the one the guard keeps running the harness's hooks",
                      f"run `pre-commit {sub}` without -c/--config; keep the hooks in .pre-commit-config.yaml")
    return None


def _options(words: list[str], longs: tuple[str, ...]) -> set[str]:
    """The long names of the options among ``words`` (up to `--`), as argparse reads them."""
    found: set[str] = set()
    for word in words:
        if word == "--":
            break
        if word.startswith("--"):
            name = word.partition("=")[0]
            matches = [o for o in longs if o == name] or [o for o in longs if o.startswith(name)]
            found.update(matches[:1] if len(matches) == 1 else ())
        elif word.startswith("-") and len(word) > 1:
            found.update(_cluster(word[1:]))
    return found


def _cluster(flags: str) -> set[str]:
    out: set[str] = set()
    for flag in flags:
        if flag == "f":
            out.add("--overwrite")
        if flag == "c":
            out.add("--config")
        if flag in SHORT_WITH_VALUE:
            break
    return out
