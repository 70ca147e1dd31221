"""The command lines git runs for a command: from its settings, its options and its `ext::` transport.

Pure. git runs shell lines from its settings (an editor, a pager, fsmonitor, an external diff, a filter, a
credential helper, a trailer's or a difftool's command, an alias set for the run …, set by `-c`, `--config-env`, `GIT_CONFIG_*`, a
variable like `EDITOR`, or `git config` for later runs), from options (`rebase -x`, `difftool -x`, `bisect run`,
`submodule foreach`, `--upload-pack`, abbreviated too, `grep -O`), and from an `ext::` remote, spelled out or reached
through `url.<base>.insteadOf`. Each is a line the guard judges as it judges a `!` alias (#28's task F-0122,
F-0125..F-0130, F-0310, F-0311, F-0321, F-0322, F-0337). A filter's `%f` is any file of the work tree: the ledger
too.
"""

from __future__ import annotations

from harness.agent.judge.guarded_paths import HARNESS
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

# The settings whose value git runs as a command line: (section, the pattern of the rest of the key). By section, so
# that a section renamed into one of them (`git config --rename-section x core`) is known as theirs (F-0232).
COMMAND_SETTINGS = (("core", r"(?:editor|pager|fsmonitor|sshcommand|askpass|gitproxy|alternaterefscommand)"),
                    ("sequence", "editor"), ("diff", r"(?:external|.+\.(?:textconv|command))"),
                    ("gpg", r"(?:(?:\w+\.)?program|ssh\.defaultkeycommand)"), ("pager", ".+"),
                    ("filter", r".+\.(?:clean|smudge|process)"), ("merge", r".+\.driver"),
                    ("credential", r"(?:.+\.)?helper"), ("uploadpack", "packobjectshook"),
                    ("remote", r".+\.(?:receivepack|uploadpack|url|pushurl|vcs)"), ("interactive", "difffilter"),
                    *((tool, r".+\.(?:cmd|command)") for tool in ("trailer", "difftool", "mergetool", "man", "browser")),
                    ("sendemail", r"(?:.+\.)?\w*cmd"),  # an identity's too (`sendemail.work.tocmd`; F-0337)
                    ("hook", r".+\.command"),  # git's hooks set in its config (2.50+)
                    ("instaweb", "httpd"),  # the web server `git instaweb` starts, word-split (F-0322)
                    ("submodule", r".+\.update"),  # `!CMD`: run by `git submodule update` (F-0255)
                    # F-0337: the ssh signing key's command (`commit -S` with gpg.format=ssh), the alternates' refs
                    # (`rev-list --alternate-refs`), imap-send's tunnel (each checked with git), git gui's tools
                    ("imap", "tunnel"), ("guitool", r".+\.cmd"))
COMMAND_KEYS = "^(?:" + "|".join(f"{section}\\.{rest}" for section, rest in COMMAND_SETTINGS) + ")$"
COMMAND_SECTIONS = frozenset(section for section, _ in COMMAND_SETTINGS)
COMMAND_VARIABLES = frozenset({"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "PAGER",
                               "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF",
                               "GIT_PROXY_COMMAND"})
# Options whose value git runs as a command line, by subcommand. git's option parser takes any unique prefix of a long
# option (`--upl=CMD` is `--upload-pack=CMD`) and clusters short ones (`-ix CMD`): read so (F-0311). ls-remote's
# `--exec` is a hidden synonym of its `--upload-pack`. grep runs `-O`'s value with the matching files, instaweb the web
# server `--httpd` names (word-split, its parser takes prefixes too) and send-email its `--*-cmd` through the shell
# (Getopt::Long takes unique prefixes; F-0322).
COMMAND_OPTIONS = {"rebase": ("-x", "--exec"), "difftool": ("-x", "--extcmd"), "fetch": ("--upload-pack",),
                   "pull": ("--upload-pack",), "clone": ("-u", "--upload-pack"), "ls-remote": ("--upload-pack", "--exec"),
                   "push": ("--receive-pack", "--exec"), "archive": ("--exec",), "grep": ("-O", "--open-files-in-pager"),
                   "instaweb": ("-d", "--httpd"),
                   "send-email": ("--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd"),
                   # read by hand, by their full names alone: filter-branch's shell `case` (`--setup` runs once,
                   # before the filters), fetch-pack's `--upload-pack=`/`--exec=`, daemon's `--access-hook=` (run
                   # through the shell at each connection)
                   "filter-branch": ("--setup", "--env-filter", "--tree-filter", "--index-filter", "--parent-filter",
                                     "--msg-filter", "--commit-filter", "--tag-name-filter"),
                   "fetch-pack": ("--upload-pack", "--exec"), "daemon": ("--access-hook",)}
EXACT_NAMES = frozenset({"filter-branch", "fetch-pack", "daemon"})
# Whose command options take their value only attached (`-OCMD`, `--open-files-in-pager=CMD`): grep's is optional, a
# bare `-O` is the pager and the next word its pattern; daemon reads `--access-hook=` alone.
ATTACHED_ONLY = frozenset({"grep", "daemon"})
# Options of their own that are prefixes of a command option: written out, they are themselves (`--to ADDRESS`).
SPELLED_OUT = {"send-email": ("--to", "--cc")}
# The other short options that take a value, by subcommand: in a cluster, what follows one is its value, not flags.
SHORT_VALUED = {"rebase": "CSrsX", "difftool": "t", "clone": "objc", "grep": "ABCefm", "instaweb": "pbm"}
# `git config`'s long options, every version's (2.46's subcommands' too), and those of them that take the next word as
# their value. git reads any unique prefix of a long option as the option (`--typ bool` is `--type bool`), so a word
# after an abbreviated one is its value, not a key: read otherwise, `git config --typ path include.path F` hid the key
# from every rule (F-0247, F-0248).
CONFIG_LONG = ("global", "system", "local", "worktree", "file", "blob", "get", "get-all", "get-regexp", "get-urlmatch",
               "replace-all", "add", "unset", "unset-all", "rename-section", "remove-section", "list", "fixed-value",
               "edit", "get-color", "get-colorbool", "type", "no-type", "bool", "int", "bool-or-int", "bool-or-str",
               "path", "expiry-date", "null", "name-only", "includes", "no-includes", "show-origin", "show-scope",
               "default", "comment", "value", "all", "regexp", "url", "append", "show-names", "no-show-names")
CONFIG_LONG_VALUED = frozenset({"file", "blob", "type", "default", "comment", "value", "url"})
CONFIG_SHORT_VALUED = "ft"  # `-f FILE`, `-t TYPE`
LEDGER = f"{HARNESS}/tasks/TASK/events.jsonl"  # a file a filter's `%f` may name


def lines_run(sub: str, rest: list[str], pairs: list[tuple[str, str]], env: tuple[str, ...], root: str,
              configured: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """Every command line git may run for `git SUB REST` under the settings ``pairs`` and variables ``env``;
    ``configured``: the repository's own settings git runs (`submodule.NAME.update = !CMD`, a remote's uploadpack and
    receivepack, an `ext::` insteadOf), for the commands that run them (`git submodule update`, a fetch, a push;
    F-0255, F-0310, F-0321)."""
    values = dict(e.partition("=")[::2] for e in env)
    lines = [value for name, value in values.items() if name in COMMAND_VARIABLES]
    for key, value in _settings(sub, rest, pairs, configured):
        if re.match(COMMAND_KEYS, key.lower()):
            lines += _as_run(key.lower(), value, root)
        base = ext_rewrite(key)
        if base is not None:
            lines.append(_ext_line(base[5:]))
    lines += _option_lines(sub, rest)
    lines += [_ext_line(a[5:]) for a in rest if a.startswith("ext::")]  # `ext::CMD` runs CMD (F-0130)
    lines += _aliases_run(pairs)
    return [line for line in lines if line.strip()]


def ext_rewrites(sub: str, rest: list[str], pairs: list[tuple[str, str]],
                 configured: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """The `ext::` bases of the `url.<base>.insteadOf`/`pushInsteadOf` settings in force for `git SUB REST` (F-0321):
    git appends the rest of each URL it rewrites to the base, so the command it runs holds words the guard cannot see
    (`ext::rm -rf .har` + `ness`)."""
    return [base for key, _ in _settings(sub, rest, pairs, configured) if (base := ext_rewrite(key)) is not None]


def ext_rewrite(key: str) -> str | None:
    """The base of a `url.<base>.insteadOf` or `pushInsteadOf` key when it is an `ext::` URL, else None. The base is
    the key's subsection, as written (its case kept)."""
    low = key.lower()
    if not (low.startswith("url.") and low.endswith((".insteadof", ".pushinsteadof"))):
        return None
    base = key[len("url."):key.rindex(".")]
    return base if base.lower().startswith("ext::") else None


def _settings(sub: str, rest: list[str], pairs: list[tuple[str, str]],
              configured: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """The settings in force for `git SUB REST`: set for the run, written by it (`git config`), and the repository's
    own that this command runs."""
    run_here = [(key, value) for key, value in configured if _runs_setting(sub, rest, key.lower())]
    return [*pairs, *_config_written(sub, rest), *run_here]


# The commands that run a remote's uploadpack (they fetch, or ask the remote for its refs: `maintenance`'s prefetch
# task too), and `git remote`'s subcommands that do (`add` with `-f`). A clone makes a repository of its own and reads
# none of this one's settings.
FETCHES = frozenset({"fetch", "pull", "ls-remote", "maintenance"})
REMOTE_FETCHES = frozenset({"update", "show", "prune", "set-head", "-f", "--fetch"})


def runs_uploadpack(sub: str, rest: list[str]) -> bool:
    """Whether `git SUB REST` runs a remote's uploadpack (whichever remote: the guard does not work out which)."""
    return sub in FETCHES or (sub == "remote" and any(a in REMOTE_FETCHES for a in rest))


def _runs_setting(sub: str, rest: list[str], key: str) -> bool:
    """Whether `git SUB REST` runs the repository's setting ``key``: a submodule's update command at `git submodule
    update`; a remote's uploadpack at a fetch, its receivepack at a push; a URL rewritten to `ext::` at either."""
    if key.startswith("submodule."):
        return sub == "submodule" and "update" in rest
    if key.endswith(".uploadpack"):
        return runs_uploadpack(sub, rest)
    if key.startswith("url."):
        return runs_uploadpack(sub, rest) or sub == "push"
    return key.endswith(".receivepack") and sub == "push"


def config_env_pairs(opaque: tuple[str, ...], env: tuple[str, ...]) -> list[tuple[str, str]]:
    """`--config-env KEY=VAR` as (KEY, VAR's value on the line, or `$VAR` when the line does not set it; F-0128)."""
    values = dict(e.partition("=")[::2] for e in env)
    out = []
    for entry in opaque:
        if entry.startswith("--config-env "):
            key, _, var = entry[len("--config-env "):].partition("=")
            out.append((key, values.get(var, "${" + var + "}")))
    return out


def _as_run(key: str, value: str, root: str) -> list[str]:
    """The lines git runs for a setting: a credential helper is `git credential-NAME …` unless a path or `!…`; a
    remote's URL runs only as `ext::`, its uploadpack and receivepack as the line they are, as `--upload-pack`'s value
    (F-0310); a filter's `%f` may name the ledger (F-0129)."""
    if key.startswith("remote.") and key.endswith((".url", ".pushurl")):
        return [_ext_line(value[5:])] if value.startswith("ext::") else []
    if key.startswith("submodule."):  # `checkout`, `rebase`, `merge`, `none` are modes; `!CMD` a command (F-0255)
        return [value[1:]] if value.startswith("!") else []
    if key.startswith("credential") and not value.startswith(("!", "/")):
        return ["git credential-" + value]
    if key.startswith("remote.") and key.endswith(".vcs"):  # the remote helper git runs, as `git remote-VCS`
        return ["git remote-" + value]
    line = value.removeprefix("!")
    return [line, line.replace("%f", f"{root}/{LEDGER}")] if "%f" in line else [line]


def _aliases_run(pairs: list[tuple[str, str]]) -> list[str]:
    """The lines of the aliases set for the run, whatever the command: git runs a remote helper (`git remote-NAME`,
    for `NAME::URL` and remote.X.vcs) and a credential helper (`git credential-NAME`) as `git` commands, which an alias
    of that name answers (F-0337; checked). A `!` alias is its shell line, another `git` and its words."""
    return [value[1:] if value.startswith("!") else "git " + value for key, value in pairs if key.startswith("alias.")]


def _ext_line(spec: str) -> str:
    """The command an `ext::` URL runs, as a shell line: its words split at spaces, `% ` a space within a word,
    `%%` a percent sign (its `%S`-style placeholders dropped)."""
    import shlex

    words: list[str] = []
    word, i = "", 0
    while i < len(spec):
        c = spec[i]
        if c == "%" and i + 1 < len(spec):
            word += {" ": " ", "%": "%"}.get(spec[i + 1], "")
            i += 2
            continue
        if c == " ":
            words, word = ([*words, word] if word else words), ""
        else:
            word += c
        i += 1
    return shlex.join([*words, word] if word else words)


def _config_written(sub: str, rest: list[str]) -> list[tuple[str, str]]:
    """The (key, value) `git config [OPTIONS] [set] KEY VALUE` writes for later runs (F-0127)."""
    if sub != "config":
        return []
    words = config_positional(rest)
    if words[:1] == ["set"]:
        words = words[1:]
    return [(words[0], words[1])] if len(words) >= 2 else []


def config_positional(args: list[str]) -> list[str]:
    """The words of `git config` that are not options nor an option's value (`-f FILE`, `--typ bool`)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a.startswith("-"):
            skip = config_value_follows(a)
        else:
            out.append(a)
    return out


def config_value_follows(word: str) -> bool:
    """Whether `git config`'s option ``word`` takes the next word as its value, as git's option parser reads it: `-f`
    or `-t` alone or last in a cluster of flags (`-zf FILE`; `-fFILE` holds it), a long option of CONFIG_LONG_VALUED
    without `=`, or a prefix of one that names no other option (`--typ`, `--fil`, `--defa`; F-0247, F-0248)."""
    if word.startswith("--"):
        name = word[2:]
        if "=" in name or not name:
            return False
        found = [n for n in CONFIG_LONG if n.startswith(name)]
        return name in CONFIG_LONG_VALUED or (len(found) == 1 and found[0] in CONFIG_LONG_VALUED)
    flags = word[1:]
    at = next((j for j, ch in enumerate(flags) if ch in CONFIG_SHORT_VALUED), None)
    return at == len(flags) - 1


def _option_lines(sub: str, rest: list[str]) -> list[str]:
    """The lines an option runs (`rebase -x CMD`, `--exec=CMD`), `bisect run CMD…`, `submodule foreach CMD…`."""
    if sub == "bisect" and rest[:1] == ["run"]:
        return [" ".join(rest[1:])]
    if sub == "submodule" and "foreach" in rest:
        after = rest[rest.index("foreach") + 1:]
        while after and after[0].startswith("-"):
            after = after[1:]
        return [" ".join(after)]
    names = COMMAND_OPTIONS.get(sub, ())
    out = []
    for i, a in enumerate(rest):
        following = rest[i + 1] if i + 1 < len(rest) and sub not in ATTACHED_ONLY else ""
        if a.startswith("--"):
            opt, eq, value = a.partition("=")
            if opt not in SPELLED_OUT.get(sub, ()) and _names_one(opt, names, sub in EXACT_NAMES):
                out.append(value if eq else following)
        elif a.startswith("-") and sub not in EXACT_NAMES:
            attached = _short_value(a, names, SHORT_VALUED.get(sub, ""))
            if attached is not None:
                out.append(attached or following)
    return out


def abbreviates(typed: str, option: str) -> bool:
    """Whether git's option parser may read the long option ``typed`` (`--upl`) as ``option`` (`--upload-pack`): a
    prefix of it. A prefix of two options git refuses as ambiguous, so reading it as either refuses no command that
    runs; an option spelled out that is a prefix of a listed one would be misread, and none of git's is (a test asks
    git for its options)."""
    return len(typed) > 2 and option.startswith(typed)


def _names_one(opt: str, names: tuple[str, ...], exact: bool) -> bool:
    return any(opt == n or (not exact and abbreviates(opt, n)) for n in names if n.startswith("--"))


def _short_value(word: str, names: tuple[str, ...], valued: str) -> str | None:
    """The value of a listed short option in the cluster ``word`` (`-x`, `-ixCMD`, `-qx`): the rest of the word, ""
    when it is the next word's; None when the cluster holds none before another option's value begins."""
    for j, ch in enumerate(word[1:], 1):
        if f"-{ch}" in names:
            return word[j + 1:]
        if ch in valued:
            return None
    return None
