"""The command lines git runs for a command: from its settings, its options and its `ext::` transport.

Pure. git runs shell lines from its settings (an editor, a pager, fsmonitor, an external diff, a filter, a
credential helper, a trailer's or a difftool's command …, set by `-c`, `--config-env`, `GIT_CONFIG_*`, a
variable like `EDITOR`, or `git config` for later runs), from options (`rebase -x`, `difftool -x`, `bisect run`,
`submodule foreach`, `--upload-pack`), and from an `ext::` remote. Each is a line the guard judges as it judges
a `!` alias (#28's task F-0122, F-0125..F-0130). A filter's `%f` is any file of the work tree: the ledger too.
"""

from __future__ import annotations

from harness.agent.judge.guarded_paths import HARNESS
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

# The settings whose value git runs as a command line: (section, the pattern of the rest of the key). By section, so
# that a section renamed into one of them (`git config --rename-section x core`) is known as theirs (F-0232).
COMMAND_SETTINGS = (("core", r"(?:editor|pager|fsmonitor|sshcommand|askpass|gitproxy)"), ("sequence", "editor"),
                    ("diff", r"(?:external|.+\.(?:textconv|command))"), ("gpg", r"(?:\w+\.)?program"), ("pager", ".+"),
                    ("filter", r".+\.(?:clean|smudge|process)"), ("merge", r".+\.driver"),
                    ("credential", r"(?:.+\.)?helper"), ("uploadpack", "packobjectshook"),
                    ("remote", r".+\.(?:receivepack|uploadpack|url|pushurl)"), ("interactive", "difffilter"),
                    *((tool, r".+\.(?:cmd|command)") for tool in ("trailer", "difftool", "mergetool", "man", "browser")),
                    ("sendemail", r"\w*cmd"), ("hook", r".+\.command"))  # git's hooks set in its config (2.50+)
COMMAND_KEYS = "^(?:" + "|".join(f"{section}\\.{rest}" for section, rest in COMMAND_SETTINGS) + ")$"
COMMAND_SECTIONS = frozenset(section for section, _ in COMMAND_SETTINGS)
COMMAND_VARIABLES = frozenset({"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "PAGER",
                               "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF"})
# Options whose value git runs as a command line, by subcommand.
COMMAND_OPTIONS = {"rebase": ("-x", "--exec"), "difftool": ("-x", "--extcmd"), "fetch": ("--upload-pack",),
                   "pull": ("--upload-pack",), "clone": ("-u", "--upload-pack"), "ls-remote": ("--upload-pack",),
                   "push": ("--receive-pack", "--exec"), "archive": ("--exec",),
                   "filter-branch": ("--env-filter", "--tree-filter", "--index-filter", "--parent-filter",
                                     "--msg-filter", "--commit-filter", "--tag-name-filter")}
CONFIG_VALUED = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value"})
LEDGER = f"{HARNESS}/tasks/TASK/events.jsonl"  # a file a filter's `%f` may name


def lines_run(sub: str, rest: list[str], pairs: list[tuple[str, str]], env: tuple[str, ...], root: str) -> list[str]:
    """Every command line git may run for `git SUB REST` under the settings ``pairs`` and variables ``env``."""
    values = dict(e.partition("=")[::2] for e in env)
    lines = [value for name, value in values.items() if name in COMMAND_VARIABLES]
    for key, value in [*pairs, *_config_written(sub, rest)]:
        if re.match(COMMAND_KEYS, key.lower()):
            lines += _as_run(key.lower(), value, root)
    lines += _option_lines(sub, rest)
    lines += [_ext_line(a[5:]) for a in rest if a.startswith("ext::")]  # `ext::CMD` runs CMD (F-0130)
    return [line for line in lines if line.strip()]


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
    remote's URL runs only as `ext::`; a filter's `%f` may name the ledger (F-0129)."""
    if key.startswith("remote."):
        return [_ext_line(value[5:])] if value.startswith("ext::") else []
    if key.startswith("credential") and not value.startswith(("!", "/")):
        return ["git credential-" + value]
    line = value.removeprefix("!")
    return [line, line.replace("%f", f"{root}/{LEDGER}")] if "%f" in line else [line]


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
    words: list[str] = []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a in CONFIG_VALUED:
            i += 2
            continue
        if not a.startswith("-"):
            words.append(a)
        i += 1
    if words[:1] in (["set"], ["--add"]):
        words = words[1:]
    return [(words[0], words[1])] if len(words) >= 2 else []


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
        opt, eq, value = a.partition("=")
        if opt in names and opt.startswith("--"):
            out.append(value if eq else (rest[i + 1] if i + 1 < len(rest) else ""))
        elif a[:2] in names and not a.startswith("--"):
            out.append(a[2:] or (rest[i + 1] if i + 1 < len(rest) else ""))
    return out
