"""The git configuration one git command runs under, as far as the guard can know it.

Pure. An alias (`git ci -n` with `alias.ci = commit`) is the command it expands to; the
aliases come from the repository's configuration (read by an adapter, handed in as
:class:`GitSetup`), from `-c alias.…=…`, and from `GIT_CONFIG_KEY_n`/`GIT_CONFIG_PARAMETERS`.
Some sources the guard cannot read: a file named by `include.path` or `GIT_CONFIG_GLOBAL`, a
value behind `--config-env`. Under those, git's commit and push machinery, and the commands
that run a remote's uploadpack (F-0320), are refused rather than judged blind; and under a config
file the guard cannot read (:meth:`RunConfig.unread_files`), any git command is (F-0337).
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.agent.judge.shell_resolve import unresolved
from harness.core.value_class import dataclass, field

# Config files the guard does not read: under these, any alias or hooks path may be in force.
OPAQUE_ENV = frozenset({"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "GIT_DIR", "GIT_COMMON_DIR"})
# Variables that move the global config file (~/.gitconfig, $XDG_CONFIG_HOME/git/config) for git's
# machinery; exporting them is not refused on its own (a shell sets HOME for many reasons).
HOME_ENV = frozenset({"HOME", "XDG_CONFIG_HOME"})
# The variables that give git a global or system config file: git reads it at any command, `git --version` too
# (its trace2 settings, which write files: checked), where a file an include names is read only by a command that
# reads its configuration (F-0337).
FILE_ENV = ("GIT_CONFIG_GLOBAL=", "GIT_CONFIG_SYSTEM=", "HOME=", "XDG_CONFIG_HOME=")
# git runs its own command, never an alias, under these names (an alias cannot shadow a builtin).
_BUILTIN_NAMES = """add am annotate apply archive bisect blame branch bundle cat-file check-ignore checkout
cherry cherry-pick citool clean clone commit commit-tree config count-objects describe diff diff-files diff-index
diff-tree difftool fetch for-each-ref format-patch fsck gc grep gui hash-object help hook init log ls-files
ls-remote ls-tree merge merge-base merge-file mktree mv notes pull push range-diff read-tree rebase reflog remote
repack replace reset restore rev-list rev-parse revert rm send-pack shortlog show show-ref sparse-checkout stash
status submodule switch symbolic-ref tag update-index update-ref verify-commit version whatchanged worktree
write-tree"""
BUILTINS = frozenset(_BUILTIN_NAMES.split())
# What git runs its hooks around, and what writes the config those hooks depend on.
MACHINERY = frozenset({"commit", "push", "merge", "pull", "am", "rebase", "cherry-pick", "revert", "config",
                       "notes", "update-ref", "commit-tree", "send-pack", "hook"})


@dataclass(frozen=True)
class GitSetup:
    """What the repository's git configuration says, read by an adapter (harness.gitio.guard_config)."""
    aliases: Mapping[str, str] = field(default_factory=dict)   # alias name -> its expansion
    hooks_dirs: tuple[str, ...] = ()    # folders git runs hooks from, and the user's git config files (also as ~/…)
    dropped_framework_hooks: tuple[str, ...] = ()               # harness hooks HEAD's framework config runs
                                                                #   and the index's or work tree's does not
    archive_members: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # absolute archive path ->
                                                                #   its members, when the adapter could list them
    # None below: not looked up (the rules judged without an adapter), and judged by the words alone, as before.
    remote_urls: Mapping[str, str] | None = None                # remote name -> its url (remote.NAME.url); a
                                                                #   name the line itself configures -> "$"
    notes_ref: str = ""                                         # core.notesRef in the repository's config
    submodule_updates: tuple[tuple[str, str], ...] = ()         # (submodule.NAME.update, `!CMD`) in its config:
                                                                #   `git submodule update` runs CMD (F-0255)
    remote_commands: tuple[tuple[str, str], ...] = ()           # (remote.NAME.uploadpack|receivepack, CMD) in its
                                                                #   config: a fetch, a push runs CMD (F-0310);
                                                                #   (url.ext::CMD.insteadOf, PREFIX) too (F-0321)
    # What the adapter found on disk and in git's history for the line's FIRST command (a later one may run
    # after a command that changed them: judged with nothing known). See :meth:`without_line_facts`.
    export_folders: Mapping[str, str] | None = None             # checkout-index --prefix folder (absolute, as
                                                                #   written) -> its real path
    patches: Mapping[str, tuple[str, ...]] | None = None        # absolute patch file -> the paths its headers
                                                                #   name (`a/x`, `b/x`, as written)
    changes: Mapping[tuple[str, ...], tuple[tuple[int | None, int | None, str], ...]] | None = None
                                                                # the `git log`/`git diff --numstat` asked for a
                                                                #   change applied uncommitted -> its rows
    pytest_files: Mapping[str, str] | None = None               # absolute file a pytest `@FILE` or `-c FILE`
                                                                #   names -> its text
    patch_read: bool = False                                    # the host applies the line's `apply_patch` itself,
                                                                #   its patch's paths judged as the tool's writes

    def without_line_facts(self) -> GitSetup:
        """This setup for a command that runs after another on the line: the files and history it was
        judged by may have changed since (`git diff > p && git apply p`, `ln -s … d && … --prefix=d/`)."""
        if self.export_folders == {} and self.patches == {} and self.changes == {} and self.pytest_files == {}:
            return self
        from harness.core.value_class import replace

        return replace(self, export_folders={}, patches={}, changes={}, pytest_files={})


NO_SETUP = GitSetup()  # judged as written: no aliases known, only `.git/hooks` guarded


@dataclass(frozen=True)
class RunConfig:
    """Config set for one run: (key, value) pairs in order, and config sources the guard cannot read."""
    pairs: tuple[tuple[str, str], ...] = ()
    opaque: tuple[str, ...] = ()

    def plus(self, key: str, value: str) -> RunConfig:
        key = key.lower() if "." not in key else _key(key)
        opaque = self.opaque + ((f"{key}={value}",) if includes_a_file(key) else ())
        return RunConfig(self.pairs + ((key, value),), opaque)

    def with_opaque(self, what: str) -> RunConfig:
        return RunConfig(self.pairs, self.opaque + (what,))

    def unread_files(self) -> tuple[str, ...]:
        """The config files among the sources the guard cannot read (F-0337): an include (`-c`, `GIT_CONFIG_*`,
        `--config-env` of include.path or of a key the guard cannot work out), a global or system file moved. Not
        another repository's own config (GIT_DIR, GIT_COMMON_DIR) nor GIT_CONFIG, which only `git config` reads,
        nor `--config-env` of another key, whose value is judged where git runs it."""
        return tuple(what for what in self.opaque if _names_a_file(what))

    def alias(self, name: str, setup: GitSetup) -> str | None:
        """Alias names are case-insensitive (`git CI` runs alias.ci)."""
        name = name.lower()
        found = [v for k, v in self.pairs if k.lower() == f"alias.{name}"]
        return found[-1] if found else next((v for k, v in setup.aliases.items() if k.lower() == name), None)


def _key(key: str) -> str:
    """Config keys compare case-insensitively in their section and name, not their subsection."""
    section, _, rest = key.partition(".")
    sub, _, name = rest.rpartition(".")
    return f"{section.lower()}.{sub + '.' if sub else ''}{name.lower()}"


def includes_a_file(key: str) -> bool:
    """Whether the (lowercased) key names a config file git reads as well: include.path, includeIf.COND.path."""
    return key == "include.path" or (key.startswith("includeif.") and key.endswith(".path"))


def _names_a_file(opaque: str) -> bool:
    if opaque.startswith("--config-env "):
        key = opaque[len("--config-env "):]
        return includes_a_file(key.lower()) or unresolved(key)
    if opaque.partition("=")[2] == "/dev/null":
        # An empty file sets nothing that runs (it drops the user's or the system's settings: the machinery, whose
        # hooks path may be there, still refuses it)
        return False
    return opaque.startswith(FILE_ENV) or includes_a_file(opaque.partition("=")[0])


def from_env(assignments: tuple[str, ...], home: str = "") -> RunConfig:
    """The config a command's environment sets: GIT_CONFIG_KEY_n/VALUE_n, GIT_CONFIG_PARAMETERS,
    and files git will read that the guard does not (GIT_CONFIG_GLOBAL, …). ``home``: the user's home
    folder, which HOME set to it again does not move."""
    env = dict(a.split("=", 1) for a in assignments if "=" in a)
    config = RunConfig()
    for name, value in env.items():
        if (name in OPAQUE_ENV or name in HOME_ENV) and not _moves_nothing(name, value, home):
            config = config.with_opaque(f"{name}={value}")
        elif name.startswith("GIT_CONFIG_KEY_"):
            config = config.plus(value, env.get("GIT_CONFIG_VALUE_" + name.removeprefix("GIT_CONFIG_KEY_"), ""))
        elif name == "GIT_CONFIG_PARAMETERS":
            for key, val in _parameters(value):
                config = config.plus(key, val)
    return config


def _moves_nothing(name: str, value: str, home: str) -> bool:
    """Whether the variable, set so, gives git no configuration other than it reads anyway: HOME set to the current
    one (`HOME=$HOME`, `~`, as the shell reader resolves them), a variable set to itself."""
    if value in (f"${name}", f"${{{name}}}"):
        return True
    return name == "HOME" and bool(home) and value.rstrip("/") == home.rstrip("/")


def _parameters(value: str) -> list[tuple[str, str]]:
    if "'" not in value:  # the shell parser already took the quotes off: read it as one pair
        key, _, val = value.partition("=")
        return [(key, val)]
    import shlex  # (imported where it is used: the guard judges most command lines without it)

    try:
        words = shlex.split(value)
    except ValueError:
        return [("include.path", value)]  # unreadable: judged as a source the guard cannot see
    return [(k, v) for k, _, v in (w.partition("=") for w in words)]


def expand_alias(sub: str, rest: list[str], config: RunConfig, setup: GitSetup) -> tuple[str, list[str]] | None:
    """An alias as what it runs: ("git", its words + rest), or ("!", the shell line); None for no alias."""
    if sub in BUILTINS:
        return None
    value = config.alias(sub, setup)
    if value is None:
        return None
    import shlex

    if value.startswith("!"):
        return "!", [value[1:] + "".join(" " + shlex.quote(a) for a in rest)]
    try:
        return "git", shlex.split(value) + rest
    except ValueError:
        return "!", [value]  # unreadable: judged as a command line, which refuses to read it
