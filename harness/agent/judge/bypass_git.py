"""The git side of the bypass denier: hook-skipping flags, core.hooksPath, the notes ref,
aliases and config sources, plumbing that commits or pushes with no hook, and git commands
that delete or overwrite the harness's files.

Pure. An alias is judged as what it expands to (the repository's aliases come in as data,
:class:`GitSetup`); the options of the hooked commands are read by :mod:`git_hook_flags`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from harness.agent.judge import guarded_paths as paths
from harness.agent.judge.bypass_files import option_values
from harness.agent.judge.denials import (
    HOOKS_PATH,
    Denial,
    delete_denial,
    first_protected,
    hook_file_denial,
    hooks_path_denial,
    is_notes_ref,
    unresolved_denial,
)
from harness.agent.judge.git_config_view import (
    BUILTINS,
    MACHINERY,
    NO_SETUP,
    GitSetup,
    RunConfig,
    expand_alias,
    from_env,
)
from harness.agent.judge.git_hook_flags import skipped_hooks_denial, unresolved_option_denial
from harness.agent.judge.shell_resolve import unresolved

GIT_GLOBAL_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                                   "--config-env", "--exec-path"})
NOTES_WRITES = frozenset({"add", "copy", "append", "edit", "merge", "remove", "prune"})
CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--get-urlmatch",
                          "get", "list"})
# `git config` options whose value is the next word (`-f FILE KEY VALUE`: FILE is not the key).
CONFIG_WITH_VALUE = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value"})


ShellJudge = Callable[[str], "Denial | None"]
REVISION = r"[0-9a-f]{7,40}"  # compiled by re's cache where it is matched, not at import
MAX_ALIASES = 8


def check_git(args: list[str], where: paths.Where, notes_ref: str, env: tuple[str, ...] = (),
              setup: GitSetup = NO_SETUP, shell: ShellJudge | None = None, depth: int = 0) -> Denial | None:
    """The bypass in `git ARGS` run in ``where`` with the environment assignments ``env``, or None.
    ``shell`` judges the command line a `!` alias runs."""
    i, where, config, denial = _global_options(args, where, from_env(env))
    if denial or i >= len(args):
        return denial
    sub, rest = args[i], args[i + 1:]
    if unresolved(sub):
        return unresolved_denial(sub, "git's subcommand")
    if config.opaque and (sub in MACHINERY or sub not in BUILTINS):
        return Denial("config-source", f"`git {sub}` under {config.opaque[0]} reads configuration the guard "
                      "cannot see (an alias or hooks path there changes what the command does)",
                      f"run `git {sub}` without it; the repository's own configuration is read as usual")
    expanded = expand_alias(sub, rest, config, setup)
    if expanded is not None:
        return _check_alias(sub, expanded, where, notes_ref, env, setup, shell, depth)
    if sub == "commit" and setup.dropped_framework_hooks and "--dry-run" not in rest:
        from harness.agent.judge.framework_config import framework_denial

        return framework_denial(list(setup.dropped_framework_hooks), committing=True)
    return (_check_machinery(sub, rest)
            or _check_ref_writes(sub, rest, notes_ref, where)
            or skipped_hooks_denial(sub, rest)
            or unresolved_option_denial(sub, rest)
            or _check_stamps_and_hooks_path(sub, rest, notes_ref)
            or _check_config_sources(sub, rest, where, notes_ref, setup, shell, depth)
            or _check_git_files(sub, rest, where, setup))


def _check_alias(sub: str, expanded: tuple[str, list[str]], where: paths.Where, notes_ref: str,
                 env: tuple[str, ...], setup: GitSetup, shell: ShellJudge | None, depth: int) -> Denial | None:
    kind, words = expanded
    if depth >= MAX_ALIASES:
        return Denial("unresolved", f"the git alias `{sub}` expands through too many aliases to judge",
                      "run the git command it stands for, written out")
    if kind == "!":
        return shell(words[0]) if shell else None
    return check_git(words, where, notes_ref, env, setup, shell, depth + 1)


def _global_options(args: list[str], where: paths.Where,
                    config: RunConfig) -> tuple[int, paths.Where, RunConfig, Denial | None]:
    """Git's own options, before the subcommand: (the subcommand's index, the folder `-C` leads to,
    the config set for this run, the denial of a core.hooksPath set for this one run)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt, _, inline = args[i].partition("=")
        value = inline if inline else (args[i + 1] if opt in GIT_GLOBAL_WITH_VALUE and i + 1 < len(args) else "")
        if opt == "-c":
            key, _, val = value.partition("=")
            config = config.plus(key, val)
        elif opt == "--config-env":
            key = (inline or value).partition("=")[0]
            config = config.with_opaque(f"--config-env {key}")
            config = config.plus(key, "") if key.lower() == HOOKS_PATH else config
        if opt == "-C" and value:
            where = where.cd(value)
        i += 2 if opt in GIT_GLOBAL_WITH_VALUE and not inline else 1
    if any(k == HOOKS_PATH for k, _ in config.pairs):
        return i, where, config, hooks_path_denial()
    return i, where, config, None


def _check_machinery(sub: str, rest: list[str]) -> Denial | None:
    """Plumbing that makes a commit or a push no hook sees."""
    if sub == "commit-tree":
        return Denial("plumbing", "`git commit-tree` makes a commit no hook sees (and `reset --soft` onto it "
                      "puts it on the branch)", "commit with `git commit`; when a hook refuses, fix what it names")
    if sub == "send-pack":
        return Denial("plumbing", "`git send-pack` pushes without the pre-push hook",
                      "push with `git push`; the refusal names what to fix (`harness status`)")
    if (sub == "replace" and rest and rest[0] not in _LISTING and not rest[0].startswith("--format=")) or (
            sub in ("update-ref", "symbolic-ref") and any(_replace_ref(a) for a in rest)):
        return _replace_denial()
    return None


def _replace_ref(name: str) -> bool:
    return name.startswith(("refs/replace/", "replace/"))


def _replace_denial() -> Denial:
    return Denial("plumbing", "a replace ref makes git show another object than the one a commit holds and "
                  "a push sends", "change the files and commit them; leave refs/replace alone")


def _this_repository(remote: str, where: paths.Where) -> bool:
    """Whether a fetch or push names this repository: `.`, its `.git`, its folder by any path, or a word the
    shell expands (`"$PWD"`), which the guard cannot rule out (#28's task F-0045)."""
    if "$" in remote or "`" in remote:
        return True
    rel = where.resolve(remote.rstrip("/"))
    return rel is not None and rel in ("", ".", ".git")


def _may_match(pattern: str, ref: str) -> bool:
    """Whether a refspec's glob destination (`refs/r*`, `refs/*`) can name ``ref`` or refs under it (F-0044)."""
    if "*" not in pattern:
        return False
    head = pattern.split("*", 1)[0]
    return ref.startswith(head) or head.startswith(ref)


def _check_ref_writes(sub: str, rest: list[str], notes_ref: str, where: paths.Where) -> Denial | None:
    """A replace ref or the stamps' notes ref written another way than update-ref's arguments: its stdin
    (which the guard cannot read), `git fast-import`, a fetch or a push into this repository, a refspec in a
    remote's config (#28's task F-0030, F-0044..F-0046). Fetching and pushing the stamps from and to another
    repository stay allowed."""
    if (sub == "update-ref" and "--stdin" in rest) or sub == "fast-import":
        return Denial("plumbing", f"`git {sub}{' --stdin' if sub == 'update-ref' else ''}` writes refs the guard "
                      "cannot read (a replace ref, the stamps' notes ref)",
                      "update one named ref with `git update-ref REF VALUE`")
    remote: str | None
    if sub == "config":
        # A remote's refspec in git's own config (`remote.self.fetch …:refs/replace/…`) writes at the next fetch.
        words = config_positional(rest)
        words = words[1:] if words[:1] == ["set"] else words
        if len(words) >= 2 and words[0].lower().endswith((".fetch", ".push")):
            remote, specs = ".", [words[1]]
        else:
            return None
    elif sub in ("fetch", "push"):
        positional = [a for a in rest if not a.startswith("-")]
        remote, specs = (positional[0], positional[1:]) if positional else (None, [])
        specs += option_values(rest, "", ("--refmap",))  # `--refmap=+refs/heads/*:refs/replace/*`
    else:
        return None
    local = remote is not None and _this_repository(remote, where)
    for spec in specs:
        target = spec.lstrip("+").rpartition(":")[2] if ":" in spec else (spec.lstrip("+") if sub == "push" else "")
        if _replace_ref(target) or _may_match(target, "refs/replace/"):
            return _replace_denial()
        if local and (is_notes_ref(target, notes_ref, short=False) or _may_match(target, notes_ref)):
            return Denial("notes-ref", f"`git {sub} . …:{target}` rewrites the harness's stamps by hand",
                          "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    return None


_LISTING = frozenset({"-l", "--list", "--format"})  # `git replace -l [PATTERN]`: reading, not making


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


def _check_git_files(sub: str, rest: list[str], where: paths.Where, setup: GitSetup) -> Denial | None:
    """git commands that delete, move or overwrite the harness's files (or git's hooks)."""
    operands = _paths_of(rest)
    if sub == "update-index" and any(w.startswith("120000,") or (w == "120000" and i and rest[i - 1] == "--cacheinfo")
                                     for i, w in enumerate(rest)):
        return Denial("link", "a symlink entry in the index (mode 120000) becomes a link at the next checkout: a "
                      "second name for whatever it points to", "link nothing into .harness/ or .git; ask a human")
    if sub == "update-index":
        # `--force-remove .harness/...` and `--cacheinfo MODE,ID,.harness` rewrite what the next commit records
        # of the harness, as `git rm --cached` does (#28's task F-0034). Paths it reads from stdin: the hooks judge.
        for a in (w.rsplit(",", 1)[-1] for w in rest if not w.startswith("-")):
            if paths.harness_state(where.resolve(a)) or paths.glob_harness_state(where.resolve(a)):
                return delete_denial(a)
        return None
    if sub in ("rm", "mv"):
        for a in operands:
            if paths.harness_state(where.resolve(a)) or paths.glob_harness_state(where.resolve(a)):
                return delete_denial(a)
            if paths.hook_config(where, a, setup.hooks_dirs):
                return hook_file_denial(a)
        return first_protected(operands, where)
    if sub in ("read-tree", "checkout-index"):
        return _check_plumbing_checkout(sub, rest, where)
    if sub in ("checkout", "restore") and not _from_a_commit_the_harness_names(sub, rest):
        for a in operands:
            rel = where.resolve(a)
            if rel == "." or paths.harness_state(rel) or paths.glob_harness_state(rel):
                return _older_state_denial(sub, a)
        return first_protected(operands, where)
    return None


def _check_plumbing_checkout(sub: str, rest: list[str], where: paths.Where) -> Denial | None:
    """`git read-tree -u` from another tree than HEAD or a commit id, and `git checkout-index` writing every
    file, one under `.harness/` (however the path is spelled, from wherever it runs) or paths read from stdin:
    another revision's files over the work tree, as `git checkout REV -- .` would put them (#28's task F-0037,
    F-0047). An index read without `-u` writes no file; `--prefix=` outside the repository writes none here."""
    short = "".join(a[1:] for a in rest if a[:1] == "-" and a[1:2] != "-")
    if sub == "read-tree":
        if "u" not in short:
            return None
        revs = [a for a in rest if not a.startswith("-")]
        older = next((r for r in revs if r != "HEAD" and not re.fullmatch(REVISION, r)), None)
        return _older_state_denial(sub, older) if older else None
    prefix = next((a.partition("=")[2] for a in rest if a.startswith("--prefix=")), None)
    if prefix is not None and where.resolve(prefix) is None:
        return None  # an export into another folder (git-checkout-index(1)'s own recipe)
    operands = rest[rest.index("--") + 1:] if "--" in rest else [a for a in rest if not a.startswith("-")]
    if "a" in short or "--all" in rest or "--stdin" in rest:
        return _older_state_denial(sub, "every file" if "--stdin" not in rest else "the paths on its stdin")
    for a in operands:
        rel = where.resolve(posixpath.join(prefix or "", a))
        if rel is not None and (rel == paths.HARNESS or rel.startswith(paths.HARNESS + "/")):
            return _older_state_denial(sub, a)
    return None


def _older_state_denial(sub: str, operand: str) -> Denial:
    return Denial("protected-file", f"`git {sub}` of {operand} from another revision would put back older, "
                  "shorter records over the harness's ledger", "put back a file from HEAD or a commit id "
                  "(`git checkout HEAD -- FILE`), or ask a human")


def _paths_of(rest: list[str]) -> list[str]:
    after = rest[rest.index("--") + 1:] if "--" in rest else []
    return after if after else [a for a in rest if not a.startswith("-")]


def _from_a_commit_the_harness_names(sub: str, rest: list[str]) -> bool:
    """`git checkout [HEAD|<commit id>] -- FILE` and `git restore [--source=HEAD|<id>] FILE`: putting
    back a committed version is how the harness's own hints repair a ledger (the hooks judge what is
    committed). Another revision (`HEAD~1`, a branch) could bring back an older, shorter ledger."""
    if sub == "restore":
        source = next((a.partition("=")[2] for a in rest if a.startswith("--source=")), None)
        for flag in ("-s", "--source"):
            if source is None and flag in rest[:-1]:
                source = rest[rest.index(flag) + 1]
        source = source if source is not None else next(
            (a[2:] for a in rest if a.startswith("-s") and len(a) > 2), "HEAD")
    else:
        words = [a for a in rest if not a.startswith("-")]
        before = rest[:rest.index("--")] if "--" in rest else words[:1] if len(words) > 1 else []
        revs = [a for a in before if not a.startswith("-")]
        source = revs[0] if revs else "HEAD"
    return source == "HEAD" or bool(re.fullmatch(REVISION, source))


def _check_config_sources(sub: str, rest: list[str], where: paths.Where, notes_ref: str, setup: GitSetup,
                          shell: ShellJudge | None, depth: int) -> Denial | None:
    """`git config` that sets an alias to a bypass, or points git at a config file the guard cannot see."""
    if sub != "config" or any(a in CONFIG_READS for a in rest):
        return None
    positional = config_positional(rest)
    if positional[:1] == ["set"]:
        positional = positional[1:]
    if len(positional) < 2:
        return None
    key, value = positional[0].lower(), positional[1]
    if key == "include.path" or (key.startswith("includeif.") and key.endswith(".path")):
        return Denial("config-source", f"`git config {positional[0]}` makes git read a file the guard cannot see",
                      "set the configuration you need directly with `git config KEY VALUE`")
    if key.startswith("alias.") and depth < MAX_ALIASES:
        name = positional[0].split(".", 1)[1]
        expanded = expand_alias(name, [], RunConfig(((f"alias.{name}", value),)), setup)
        if expanded is not None:
            return _check_alias(name, expanded, where, notes_ref, (), setup, shell, depth + 1)
    return None


def config_positional(args: list[str]) -> list[str]:
    """The words of `git config` that are not options nor an option's value (`-f FILE`)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in CONFIG_WITH_VALUE:
            skip = True
        elif not a.startswith("-"):
            out.append(a)
    return out


def _check_git_config(args: list[str]) -> Denial | None:
    positional = config_positional(args)
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
