"""The git side of the bypass denier: hook-skipping flags, core.hooksPath, the notes ref,
aliases and config sources, plumbing that commits or pushes with no hook, and git commands
that delete or overwrite the harness's files.

Pure. An alias is judged as what it expands to (the repository's aliases come in as data,
:class:`GitSetup`); the options of the hooked commands are read by :mod:`git_hook_flags`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from harness.agent.judge import git_older_state as older
from harness.agent.judge import git_remotes as remotes
from harness.agent.judge import guarded_paths
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
    FILE_ENV,
    MACHINERY,
    NO_SETUP,
    GitSetup,
    RunConfig,
    expand_alias,
    from_env,
    includes_a_file,
)
from harness.agent.judge.git_hook_flags import skipped_hooks_denial, unresolved_option_denial
from harness.agent.judge.git_runs import (
    COMMAND_SECTIONS,
    config_env_pairs,
    config_positional,
    ext_rewrite,
    ext_rewrites,
    lines_run,
    runs_uploadpack,
)
from harness.agent.judge.shell_resolve import unresolved

GIT_GLOBAL_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                                   "--config-env", "--exec-path"})
NOTES_WRITES = frozenset({"add", "copy", "append", "edit", "merge", "remove", "prune"})
CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--get-urlmatch",
                          "get", "list"})


ShellJudge = Callable[[str], "Denial | None"]
MAX_ALIASES = 8
# Config keys that point git notes at a ref: what `git notes` writes to, what amend and rebase copy notes into.
NOTES_REF_KEYS = frozenset({"core.notesref", "notes.rewriteref"})


def check_git(args: list[str], where: guarded_paths.Where, notes_ref: str, env: tuple[str, ...] = (),
              setup: GitSetup = NO_SETUP, shell: ShellJudge | None = None, depth: int = 0,
              stdin_file: str | None = None) -> Denial | None:
    """The bypass in `git ARGS` run in ``where`` with the environment assignments ``env``, or None.
    ``shell`` judges the command line a `!` alias runs; ``stdin_file`` is the file its stdin reads (`< FILE`)."""
    i, where, config, denial = _global_options(args, where, from_env(env, where.home))
    if denial or i >= len(args):
        return denial or _unread_config_denial("", [], args, config)
    sub, rest = args[i], args[i + 1:]
    if unresolved(sub):
        return unresolved_denial(sub, "git's subcommand")
    denial = _unread_config_denial(sub, rest, args[:i], config) or _configured_commands(
        sub, rest, config, env, shell, where.root, (*setup.submodule_updates, *setup.remote_commands))
    if denial:
        return denial
    if where.other_git and sub not in BUILTINS and config.alias(sub, NO_SETUP) is None:
        return Denial("config-source", f"`git {sub}` in a repository nested in this one may be an alias of its "
                      "configuration, which the guard does not read (its `!` line could write this repository's "
                      "record; #28's task F-0113)", f"run the command `git {sub}` stands for, written out")
    if where.other_git and _another_work_tree(sub, rest, args[:i], env, where):
        return Denial("work-tree", f"`git {sub}` here writes a work tree from the history of the repository nested in "
                      "this one (its core.worktree, `--work-tree` or GIT_WORK_TREE), whose files may be this "
                      "repository's record (#28's task F-0115)",
                      "run git in the nested repository without another work tree; restore this repository's files "
                      "with git at its top")
    if where.in_nested_repository() and i == 0 and not any(e.startswith("GIT_") for e in env) and (
            sub == "commit" or _sets_own_hooks_path(sub, rest)):
        # A commit, or its own core.hooksPath, in a repository nested inside (no harness of its own), written as a
        # line of its own with no option or variable that moves git elsewhere: git acts on that repository alone
        # (#25's task F-0028). Anything more is judged as in this one (#28's task F-0113..F-0117).
        return None
    expanded = expand_alias(sub, rest, config, setup)
    if expanded is not None:
        return _check_alias(sub, expanded, where, notes_ref, env, setup, shell, depth, stdin_file)
    if sub == "commit" and setup.dropped_framework_hooks and "--dry-run" not in rest:
        from harness.agent.judge.framework_config import framework_denial

        return framework_denial(list(setup.dropped_framework_hooks), committing=True)
    return (_check_machinery(sub, rest)
            or _template_denial(sub, rest, args[:i], env, config, where)
            or _check_ref_writes(sub, rest, notes_ref, where, config, setup)
            or skipped_hooks_denial(sub, rest)
            or unresolved_option_denial(sub, rest)
            or _check_notes_config(config, notes_ref)
            or _check_stamps_and_hooks_path(sub, rest, notes_ref, _configured_notes_ref(config, setup))
            or _check_config_sources(sub, rest, where, notes_ref, setup, shell, depth)
            or _check_config_at_once(sub, rest, where, setup)
            or _check_git_files(sub, rest, where, setup)
            or _check_older_state(sub, rest, where, setup, stdin_file))


# git's commands that read no configuration given as a parameter (`-c include.path=…`), on a terminal or not: its
# version and its usage (`git`, `--help`, `-h`, `help` alone; checked). `-p` makes even them read core.pager.
READS_NO_CONFIG = frozenset({"", "version"})


def _unread_config_denial(sub: str, rest: list[str], options: list[str], config: RunConfig) -> Denial | None:
    """`git OPTIONS SUB REST` under configuration the guard cannot read. The commit/push machinery, an alias and a
    fetch are refused under any such source (an alias or hooks path, a remote's uploadpack; F-0320); any command
    under a config file the guard cannot read (F-0337): git reads it whatever the subcommand, and settings there run
    command lines at any (core.fsmonitor where the index is read, core.pager, diff.external, a credential helper)."""
    if config.opaque and sub and (sub in MACHINERY or sub not in BUILTINS or runs_uploadpack(sub, rest)):
        what = ("an alias or hooks path there changes what the command does" if sub in MACHINERY or sub not in BUILTINS
                else "a remote's uploadpack there is a command line git runs to reach the remote; F-0320")
        return Denial("config-source", f"`git {sub}` under {config.opaque[0]} reads configuration the guard "
                      f"cannot see ({what})",
                      f"run `git {sub}` without it; the repository's own configuration is read as usual")
    files = config.unread_files()
    if not files or _reads_no_config(sub, rest, options, files):
        return None
    command = f"git {sub}" if sub else "git"
    return Denial("config-source", f"`{command}` under {files[0]} reads configuration the guard cannot see, and "
                  "cannot tell what it makes git run: settings there run command lines whatever the subcommand "
                  "(core.fsmonitor, core.pager, diff.external, a credential helper; F-0337)",
                  f"run `{command}` without it; set what you need with `git -c KEY=VALUE`, which the guard judges "
                  "(the repository's own configuration is read as usual)")


def _reads_no_config(sub: str, rest: list[str], options: list[str], files: tuple[str, ...]) -> bool:
    """Whether git reads none of ``files`` for this command: its version or usage, with no pager asked for, when
    every file comes from an include given as a parameter (a global or system file moved, git reads at any command,
    `git --version` too, for its trace2 settings)."""
    if any(f.startswith(FILE_ENV) for f in files) or any(o in ("-p", "--paginate") for o in options):
        return False
    return sub in READS_NO_CONFIG or (sub == "help" and not rest)


def _configured_commands(sub: str, rest: list[str], config: RunConfig, env: tuple[str, ...],
                         shell: ShellJudge | None, root: str, configured: tuple[tuple[str, str], ...] = ()) -> Denial | None:
    """The command lines git may run for this command (harness/agent/judge/git_runs.py), each judged as the line it
    is, as a `!` alias is; one whose program the guard cannot work out is refused (#28's task F-0122, F-0128).
    ``configured``: the repository's `submodule.*.update` settings, which `git submodule update` runs (F-0255), and
    its remotes' uploadpack and receivepack, which a fetch and a push run (F-0310)."""
    if shell is None:
        return None
    pairs = [*config.pairs, *config_env_pairs(config.opaque, env)]
    for line in lines_run(sub, rest, pairs, env, root, configured):
        if unresolved(line.split()[0]):
            return unresolved_denial(line, f"the command line `git {sub}` runs from its settings")
        denial = shell(line)
        if denial:
            return denial
    return _ext_rewrite_denial(sub, ext_rewrites(sub, rest, pairs, configured))


def _ext_rewrite_denial(sub: str, bases: list[str]) -> Denial | None:
    """An `ext::` base of `url.<base>.insteadOf` whose own line passed: git runs it with the rest of each URL it
    rewrites appended, words the guard does not see (a URL of the repository's config too; F-0321)."""
    if not bases:
        return None
    return Denial("unresolved", f"`git {sub}` rewrites URLs into `{bases[0]}…` (url.<base>.insteadOf): git runs that "
                  "command with the rest of each URL it rewrites appended, words the guard cannot see",
                  "write the `ext::` URL out whole on the command line, which the guard judges; keep insteadOf for "
                  "ordinary rewrites (https to ssh)")


# Subcommands that write files of the work tree from the repository's history.
WRITES_WORK_TREE = frozenset({"checkout", "restore", "reset", "switch", "stash", "merge", "pull", "rebase",
                              "cherry-pick", "revert", "am", "apply", "read-tree", "checkout-index", "clean", "rm", "mv"})


def _another_work_tree(sub: str, rest: list[str], options: list[str], env: tuple[str, ...], where: guarded_paths.Where) -> bool:
    """Whether git, run in a repository nested in this one, is pointed at another work tree (or told to be)."""
    pointed = any(o.startswith("--work-tree") for o in options) or any(e.startswith("GIT_WORK_TREE=") for e in env)
    if sub == "config" and any(a.lower() == "core.worktree" for a in rest):
        return True
    return (pointed or where.other_git == "worktree") and sub in WRITES_WORK_TREE


def _check_clean(rest: list[str], where: guarded_paths.Where) -> Denial | None:
    """`git clean -f` deletes the files git does not track: a task made since the last commit is one, its ledger
    included (#28's task F-0118). Refused where its paths may hold `.harness/`, unless it only lists (`-n`), only
    takes ignored files (`-X`), or leaves the record out (`-e .harness`)."""
    flags, excluded, specs = _clean_args(rest)
    if "n" in flags or ("X" in flags and "x" not in flags):
        return None
    if any(e.strip("/") in (guarded_paths.HARNESS, guarded_paths.HARNESS + "/*") for e in excluded):
        return None
    for spec in specs or ["."]:
        full = posixpath.join(where.root, spec[2:]) if spec.startswith(":/") else spec  # `:/` names the top
        rel = where.resolve(full)
        if rel is not None and (rel == "." or guarded_paths.harness_state(rel) or guarded_paths.glob_harness_state(rel)):
            return Denial("delete-harness", f"`git clean` of `{spec}` deletes what git does not track there: a task made since "
                          "the last commit is untracked, its ledger included",
                          "name the folders to clean (`git clean -fd build/`), or leave the record out "
                          "(`git clean -fd -e .harness`)")
    return None


def _clean_args(rest: list[str]) -> tuple[str, list[str], list[str]]:
    """`git clean`'s (short flags, its `-e` patterns, its paths)."""
    flags, excluded, specs = "", [], []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--":
            specs += rest[i + 1:]
            break
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            if name == "--exclude":
                excluded.append(value if eq else (rest[i + 1] if i + 1 < len(rest) else ""))
                i += not eq
            flags += {"--dry-run": "n", "--force": "f"}.get(name, "")
        elif a.startswith("-") and len(a) > 1:
            for j, ch in enumerate(a[1:], 1):
                if ch == "e":  # `-e PATTERN`, `-ePATTERN`, `-fde PATTERN`
                    excluded.append(a[j + 1:] or (rest[i + 1] if i + 1 < len(rest) else ""))
                    i += not a[j + 1:]
                    break
                flags += ch
        else:
            specs.append(a)
        i += 1
    return flags, excluded, specs


def _sets_own_hooks_path(sub: str, rest: list[str]) -> bool:
    """`git config [--local] core.hooksPath [VALUE]` or `--unset core.hooksPath`: the repository's own file."""
    args = [a for a in rest if a not in ("--local", "--unset")]
    return sub == "config" and 1 <= len(args) <= 2 and args[0].lower() == "core.hookspath" \
        and not any(a.startswith("-") for a in args)


def git_subcommand(args: list[str]) -> tuple[str, list[str]] | None:
    """`git ARGS`'s subcommand and its arguments, past git's own options (for the adapter's look-ups)."""
    i = _global_options(args, guarded_paths.Where("/", "/"), RunConfig())[0]
    return (args[i], args[i + 1:]) if i < len(args) else None


def _check_alias(sub: str, expanded: tuple[str, list[str]], where: guarded_paths.Where, notes_ref: str, env: tuple[str, ...],
                 setup: GitSetup, shell: ShellJudge | None, depth: int, stdin_file: str | None) -> Denial | None:
    kind, words = expanded
    if depth >= MAX_ALIASES:
        return Denial("unresolved", f"the git alias `{sub}` expands through too many aliases to judge",
                      "run the git command it stands for, written out")
    if kind == "!":
        return shell(words[0]) if shell else None
    return check_git(words, where, notes_ref, env, setup, shell, depth + 1, stdin_file)


def _global_options(args: list[str], where: guarded_paths.Where,
                    config: RunConfig) -> tuple[int, guarded_paths.Where, RunConfig, Denial | None]:
    """Git's own options, before the subcommand: (the subcommand's index, the folder `-C` leads to,
    the config set for this run, the denial of a core.hooksPath set for this one run)."""
    i = 0
    unknown_key = None  # a `-c` key the guard could not work out: it may be core.hooksPath (F-0231)
    while i < len(args) and args[i].startswith("-"):
        opt, _, inline = args[i].partition("=")
        value = inline if inline else (args[i + 1] if opt in GIT_GLOBAL_WITH_VALUE and i + 1 < len(args) else "")
        if opt == "-c":
            key, _, val = value.partition("=")
            config = config.plus(key, val)
            unknown_key = unknown_key or (key if unresolved(key) else None)
        elif opt == "--config-env":
            key = (inline or value).partition("=")[0]
            config = config.with_opaque(f"--config-env {key}")
            config = config.plus(key, "") if key.lower() == HOOKS_PATH else config
        if opt == "-C" and value:
            where = where.cd(value)
        i += 2 if opt in GIT_GLOBAL_WITH_VALUE and not inline else 1
    if any(k == HOOKS_PATH for k, _ in config.pairs):
        return i, where, config, hooks_path_denial()
    if unknown_key is not None:
        return i, where, config, unresolved_denial(unknown_key, "a key `git -c` sets for this run")
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


def _may_match(pattern: str, ref: str) -> bool:
    """Whether a refspec's glob destination (`refs/r*`, `refs/*`) can name ``ref`` or refs under it (F-0044)."""
    if "*" not in pattern:
        return False
    head = pattern.split("*", 1)[0]
    return ref.startswith(head) or head.startswith(ref)


def _check_ref_writes(sub: str, rest: list[str], notes_ref: str, where: guarded_paths.Where, config: RunConfig,
                      setup: GitSetup) -> Denial | None:
    """A replace ref or the stamps' notes ref written another way than update-ref's arguments: its stdin
    (which the guard cannot read), `git fast-import`, a fetch, pull or push into this repository, a refspec in
    a remote's config, set for this run or by `remote add --mirror` (#28's task F-0030, F-0044..F-0046,
    F-0063, F-0064). Fetching and pushing the stamps from and to another repository stay allowed."""
    if (sub == "update-ref" and "--stdin" in rest) or sub == "fast-import":
        return Denial("plumbing", f"`git {sub}{' --stdin' if sub == 'update-ref' else ''}` writes refs the guard "
                      "cannot read (a replace ref, the stamps' notes ref)",
                      "update one named ref with `git update-ref REF VALUE`")
    # A remote's refspec in git's config (`remote.self.fetch …:refs/replace/…`) writes at the next fetch, from
    # whichever repository: judged as a fetch from this one.
    specs = remotes.config_refspecs(config.pairs) + (remotes.mirror_refspecs(rest) if sub == "remote" else [])
    local = bool(specs)
    if sub == "config":
        words = config_positional(rest)
        words = words[1:] if words[:1] == ["set"] else words
        if len(words) >= 2 and words[0].lower().endswith((".fetch", ".push")):
            specs, local = specs + [words[1]], True
    elif sub in ("fetch", "pull", "push"):
        remote, named = remotes.remote_and_refspecs(rest)
        urls = {**(setup.remote_urls or {}), **remotes.config_urls(config.pairs)}
        local = local or (remote is not None and remotes.this_repository(remote, where, urls))
        specs += named + option_values(rest, "", ("--refmap",))  # `--refmap=+refs/heads/*:refs/replace/*`
    return _refspecs_denial(sub, specs, local, notes_ref)


def _refspecs_denial(sub: str, specs: list[str], local: bool, notes_ref: str) -> Denial | None:
    for spec in specs:
        target = spec.lstrip("+").rpartition(":")[2] if ":" in spec else (spec.lstrip("+") if sub == "push" else "")
        if _replace_ref(target) or _may_match(target, "refs/replace/"):
            return _replace_denial()
        if local and (is_notes_ref(target, notes_ref, short=False) or _may_match(target, notes_ref)):
            return Denial("notes-ref", f"`git {sub} . …:{target}` rewrites the harness's stamps by hand",
                          "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    return None


_LISTING = frozenset({"-l", "--list", "--format"})  # `git replace -l [PATTERN]`: reading, not making


def _check_stamps_and_hooks_path(sub: str, rest: list[str], notes_ref: str, configured: str) -> Denial | None:
    """core.hooksPath set for good, and the notes ref holding the stamps written by hand: named, through
    core.notesRef (``configured``: set for this run or in the repository's config), or as what HEAD points
    at, which the next commit or `reset --soft` moves (#28's task F-0065)."""
    if sub == "config":
        return _check_git_config(rest, notes_ref)
    if sub == "notes":
        return _check_git_notes(rest, notes_ref, configured)
    if sub in ("update-ref", "symbolic-ref") and any(is_notes_ref(a, notes_ref, short=False) for a in rest):
        return Denial("notes-ref", f"`git {sub}` on {notes_ref} rewrites the harness's stamps",
                      "the stamps are written by the post-commit hook (`harness stamp` by hand)")
    return None


def _configured_notes_ref(config: RunConfig, setup: GitSetup) -> str:
    """The notes ref `git notes` writes without `--ref`: core.notesRef set for this run, else the repository's."""
    found = [v for k, v in config.pairs if k == "core.notesref"]
    return found[-1] if found else setup.notes_ref


def _names_the_stamps(value: str, notes_ref: str) -> bool:
    """A notes ref setting (a `:`-separated list of refs or globs for notes.rewriteRef) that can name the stamps."""
    return unresolved(value) or any(is_notes_ref(v, notes_ref) or _may_match(v, notes_ref) for v in value.split(":"))


def _check_notes_config(config: RunConfig, notes_ref: str) -> Denial | None:
    """`-c notes.rewriteRef=…` (or `GIT_CONFIG_*`) making an amend or rebase copy notes into the stamps. (core.notesRef
    set for a run is judged where `git notes` writes: reading the stamps through it is fine.)"""
    for key, value in config.pairs:
        if key == "notes.rewriteref" and _names_the_stamps(value, notes_ref):
            return _notes_config_denial(key, value)
    return None


def _notes_config_denial(key: str, value: str) -> Denial:
    return Denial("notes-ref", f"{key}={value} points git notes at the harness's stamps (a note added, or copied "
                  "by an amend or rebase, rewrites them)", "leave it unset; the stamps are written by the "
                  "post-commit hook (`harness stamp` by hand)")


def _check_git_files(sub: str, rest: list[str], where: guarded_paths.Where, setup: GitSetup) -> Denial | None:
    """git commands that delete, move or overwrite the harness's files (or git's hooks)."""
    operands = _paths_of(rest)
    if sub == "clean":
        return _check_clean(rest, where)
    if sub == "update-index":
        return _check_update_index(rest, where)
    if sub in ("rm", "mv"):
        for a in operands:
            if guarded_paths.harness_state(where.resolve(a)) or guarded_paths.glob_harness_state(where.resolve(a)):
                return delete_denial(a)
            if guarded_paths.hook_config(where, a, setup.hooks_dirs):
                return hook_file_denial(a)
        return first_protected(operands, where)
    if sub in ("checkout", "restore") and not _from_a_commit_the_harness_names(sub, rest):
        return older.pathspecs_denial(sub, operands, where) or first_protected(operands, where)
    return None


def _check_update_index(rest: list[str], where: guarded_paths.Where) -> Denial | None:
    """A symlink entry however its mode is spelled, entries read from stdin, and `.harness/` paths."""
    if "--index-info" in rest:
        return Denial("link", "`git update-index --index-info` reads index entries from its stdin, which the guard "
                      "cannot read: a symlink entry (mode 120000) or a `.harness/` path among them",
                      "stage each file by its name, with `git add` or `git update-index --add`")
    if any(_link_mode(w) for w in _cacheinfo_modes(rest)):
        return Denial("link", "a symlink entry in the index (mode 120000) becomes a link at the next checkout: a "
                      "second name for whatever it points to", "link nothing into .harness/ or .git; ask a human")
    # `--force-remove .harness/...` and `--cacheinfo MODE,ID,.harness` rewrite what the next commit records
    # of the harness, as `git rm --cached` does (#28's task F-0034). Paths it reads from stdin: the hooks judge.
    for a in (w.rsplit(",", 1)[-1] for w in rest if not w.startswith("-")):
        if guarded_paths.harness_state(where.resolve(a)) or guarded_paths.glob_harness_state(where.resolve(a)):
            return delete_denial(a)
    return None


def _cacheinfo_modes(rest: list[str]) -> list[str]:
    """The modes `--cacheinfo MODE,ID,PATH` and `--cacheinfo MODE ID PATH` give (any `X,Y,Z` word counts)."""
    modes = [w.split(",", 1)[0] for w in rest if w.count(",") >= 2]
    return modes + [rest[i + 1] for i, w in enumerate(rest[:-1]) if w == "--cacheinfo"]


def _link_mode(mode: str) -> bool:
    """Whether git reads ``mode`` as a symlink's: it parses it as octal (`0120000`, `120777` too) and keeps
    its file-type bits; a word it expands the guard cannot read (#28's task F-0062)."""
    if unresolved(mode):
        return True
    try:
        return int(mode, 8) & 0o170000 == 0o120000 or int(mode, 8) < 0
    except ValueError:
        return False


def _check_older_state(sub: str, rest: list[str], where: guarded_paths.Where, setup: GitSetup,
                       stdin_file: str | None) -> Denial | None:
    """Another revision's `.harness/` put over the work tree or the index (:mod:`git_older_state`)."""
    if sub == "read-tree":
        return older.check_read_tree(rest)
    if sub == "reset":
        return older.check_reset(rest, where)
    if sub == "checkout-index":
        return older.check_checkout_index(rest, where, setup)
    if sub == "apply":
        return older.check_git_apply(rest, stdin_file, where, setup)
    return older.check_uncommitted_change(sub, rest, setup)


def _paths_of(rest: list[str]) -> list[str]:
    after = rest[rest.index("--") + 1:] if "--" in rest else []
    return after if after else [a for a in rest if not a.startswith("-")]


def _from_a_commit_the_harness_names(sub: str, rest: list[str]) -> bool:
    """`git checkout [HEAD|<commit id>] -- FILE` and `git restore [--source=HEAD|<id>] FILE`: putting
    back a committed version is how the harness's own hints repair a ledger (the hooks judge what is
    committed), and so is `git checkout -- FILE` from the index (filling the index from another revision
    is refused: `read-tree`, `reset REV -- PATH`). Another revision (`HEAD~1`, a branch) could bring back
    an older, shorter ledger."""
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
    return older.from_a_named_commit(source)


def _check_config_sources(sub: str, rest: list[str], where: guarded_paths.Where, notes_ref: str, setup: GitSetup,
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
    if includes_a_file(key):
        return _include_denial(f"`git config {positional[0]}`")
    if key.startswith("alias.") and depth < MAX_ALIASES:
        name = positional[0].split(".", 1)[1]
        expanded = expand_alias(name, [], RunConfig(((f"alias.{name}", value),)), setup)
        if expanded is not None:
            return _check_alias(name, expanded, where, notes_ref, (), setup, shell, depth + 1, None)
    return None


def _include_denial(what: str) -> Denial:
    return Denial("config-source", f"{what} makes git read a file the guard cannot see",
                  "set the configuration you need directly with `git config KEY VALUE`")


# `git config`'s ways of changing a whole section or the whole file at once: the option (with the length of its
# shortest abbreviation git reads as it alone), or the subcommand of the same name (git 2.46+).
WHOLE_CONFIG = (("rename-section", 5), ("remove-section", 5), ("edit", 4))


def _check_config_at_once(sub: str, rest: list[str], where: guarded_paths.Where, setup: GitSetup) -> Denial | None:
    """`git config --rename-section OLD NEW` and `--remove-section NAME` of a section whose keys the rules judge, and
    `git config --edit` of a config file the guard guards (F-0232, F-0233): they set, drop or hand to an editor the
    keys the rules refuse to see set one by one (`--rename-section x core` makes x.hooksPath core.hooksPath)."""
    action = _whole_config_action(rest) if sub == "config" else None
    if action is None:
        return None
    if action == "edit":
        return _check_config_edit(rest, where, setup)
    # Every positional word is judged, not the first two: a word the guard misreads as an option's value
    # (F-0247) must not leave the real section unread.
    sections = [w for w in config_positional(rest) if w != action]
    return next((d for d in (_section_denial(s, action) for s in sections) if d), None)


def _whole_config_action(rest: list[str]) -> str | None:
    """Which of WHOLE_CONFIG's actions `git config REST` takes: its option (abbreviated too; `-e`, alone or last
    in a cluster of flags), or its subcommand (the first word that is no option)."""
    positional = config_positional(rest)
    if positional[:1] and positional[0] in (name for name, _ in WHOLE_CONFIG):
        return positional[0]
    for a in rest:
        if a.startswith("--"):
            name = a.partition("=")[0]
            found = next((n for n, unique in WHOLE_CONFIG if len(name) >= unique and f"--{n}".startswith(name)), None)
            if found:
                return found
        elif a.startswith("-") and "e" in a[1:] and "f" not in a[1:a.index("e")]:
            return "edit"  # (`-fe` is the file `e`)
    return None


def _section_denial(section: str, action: str) -> Denial | None:
    """The denial of the keys the rules judge that renaming or removing ``section`` sets or drops, for the reason
    each key's own rule gives: core.hooksPath (core), include.path (include, includeIf.*), the stamps' notes refs
    (notes), and keys whose values git runs or expands (alias, and each of git_runs.COMMAND_SETTINGS's sections)."""
    if unresolved(section):
        return unresolved_denial(section, f"a section `git config {action}` changes")
    name = section.partition(".")[0].lower()
    if HOOKS_PATH.startswith(name + "."):
        return hooks_path_denial()
    if includes_a_file(f"{section.lower()}.path"):
        return _include_denial(f"`git config`'s {action} of {section}")
    if any(key.startswith(name + ".") for key in NOTES_REF_KEYS):
        return _notes_config_denial(f"{section}.*", "(whatever the section holds)")
    if name == "alias" or name in COMMAND_SECTIONS or ext_rewrite(f"{section}.insteadof"):
        return Denial("config-source", f"`git config`'s {action} of {section} sets or drops its keys at once, values the "
                      "guard does not read: git expands or runs them (an alias, an editor, a remote's command)",
                      "set each key with `git config KEY VALUE`, which the guard judges (a remote is renamed with "
                      "`git remote rename`)")
    return None


def _check_config_edit(rest: list[str], where: guarded_paths.Where, setup: GitSetup) -> Denial | None:
    """`git config --edit` hands a config file to an editor the line may set (GIT_EDITOR, `-c core.editor`, EDITOR):
    judged as a write of that file, the repository's own unless `--global`, `--system`, `--worktree` or `-f FILE`
    name another; a file the guard does not guard stays the agent's to edit."""
    for path in _edited_config_files(rest, where):
        if unresolved(path):
            return unresolved_denial(path, "the config file `git config --edit` opens")
        if guarded_paths.hook_config(where, path, setup.hooks_dirs):
            return hook_file_denial(path)
    return None


def _edited_config_files(rest: list[str], where: guarded_paths.Where) -> list[str]:
    """The files `git config --edit` may open: `-f FILE`, the user's (`--global`: ~/.gitconfig or git's XDG one),
    the system's, the worktree's, else the repository's own config."""
    named = option_values(rest, "f", ("--file",))
    if named:
        return named
    if "--global" in rest:
        home = [where.home] if where.home else []
        return [posixpath.join(h, tail) for h in ("~", *home) for tail in (".gitconfig", ".config/git/config")]
    if "--system" in rest:
        return ["/etc/gitconfig"]
    git_dir = posixpath.join(where.git_top(), ".git")
    return [posixpath.join(git_dir, "config.worktree" if "--worktree" in rest else "config")]


def _check_git_config(args: list[str], notes_ref: str) -> Denial | None:
    positional = config_positional(args)
    if any(a in CONFIG_READS for a in args) or (positional[:1] and positional[0] in CONFIG_READS):
        return None
    keys = [a.lower() for a in positional]
    unsetting = any(a.startswith("--unset") for a in args) or keys[:1] == ["unset"]
    setting = keys[:1] == ["set"] or len(keys) >= 2
    if HOOKS_PATH in keys and (unsetting or setting):
        return hooks_path_denial()
    words = positional[1:] if keys[:1] == ["set"] else positional
    if len(words) >= 2 and words[0].lower() in NOTES_REF_KEYS and _names_the_stamps(words[1], notes_ref):
        return _notes_config_denial(words[0], words[1])
    return None


def _check_git_notes(args: list[str], notes_ref: str, configured: str = "") -> Denial | None:
    ref, i = None, 0
    while i < len(args) and args[i].startswith("-"):
        opt, eq, value = args[i].partition("=")
        if opt == "--ref":
            ref = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            i += 0 if eq else 1
        i += 1
    sub = args[i] if i < len(args) else "list"
    if ref is None and configured and sub in NOTES_WRITES and _names_the_stamps(configured, notes_ref):
        return _notes_config_denial("core.notesRef", configured)
    if ref is not None and is_notes_ref(ref, notes_ref) and sub in NOTES_WRITES:
        return Denial("notes-ref", f"`git notes --ref {ref} {sub}` writes the harness's stamps by hand",
                      "the stamps are written by the post-commit hook (`harness stamp` by hand); "
                      "read them with `git notes --ref " + ref + " show`")
    return None


def _template_denial(sub: str, rest: list[str], options: list[str], env: tuple[str, ...], config: RunConfig,
                     where: guarded_paths.Where) -> Denial | None:
    """git_templates' judgement of an `init` or `clone`, the only subcommands that copy a template: its rules load
    for them alone, not on every `git commit` the guard answers (#28 item 1's floor)."""
    if sub not in ("init", "clone"):
        return None
    from harness.agent.judge.git_templates import template_denial

    return template_denial(sub, rest, options, env, config, where)
