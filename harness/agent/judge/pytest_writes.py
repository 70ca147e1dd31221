"""What pytest writes over and empties, wherever its options come from (#28's task F-0131..F-0133).

Pure. pytest writes its reports and logs where options name them (`--junitxml`, `--log-file`, `--debug`),
empties its `--basetemp` and writes its cache into `cache_dir`. It takes those options from its command
line, from PYTEST_ADDOPTS, from `-o NAME=VALUE`, from a file of arguments (`@FILE`, one a line: pytest
>= 8.2 reads it as argparse does) and from the ini file `-c` names. The files an `@` or a `-c` names are
read by the adapter (harness.agent.line_facts) for the line's first command only; a later command may
run after the line wrote them, so its files are unknown and the command is refused.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

WRITTEN = ("--junitxml", "--junit-xml", "--resultlog", "--result-log", "--report-log", "--log-file")
DEBUG = "--debug"                  # its value is optional: without one, pytestdebug.log in the folder it runs in
EMPTIED = ("--basetemp",)
OVERRIDE = "--override-ini"        # -o NAME=VALUE
CONFIG = "--config-file"           # -c FILE
ROOTDIR = "--rootdir"              # where a relative cache_dir is resolved from
INI_WRITTEN = ("log_file",)
INI_EMPTIED = ("cache_dir",)       # written into; `--cache-clear` removes its folders
SHORT_VALUED = "kmcopWrn"          # pytest's (and xdist's) short options that take a value
MAX_FILES = 16                     # argument files read inside argument files
# Every option the quick path (harness.agent.quick_allow) leaves to the judge for it.
OPTIONS = (*WRITTEN, DEBUG, *EMPTIED, OVERRIDE, CONFIG, ROOTDIR)
IN_TEXT = re.compile(r"(--junitxml|--junit-xml|--resultlog|--result-log|--report-log|--log-file|--debug|--basetemp)"
                     r"(?:=|[\s\"',]+)([^\s\"',\]]+)")
# `key = V`, `key: V` (an ini's other separator), `"key" = "V"` (TOML's quoted key), `-o key=V` in addopts.
KEY_IN_TEXT = re.compile(r"(?:^|[\s\"'])(cache_dir|log_file)[\"']?\s*[=:]\s*[\"']?([^\s\"',\]#;]+)", re.M)
ARGS_FILE_IN_TEXT = re.compile(r"(?:^|[\s\"'=:,\[])@([^\s\"',\]]+)", re.M)  # `addopts = @FILE`


class Reach:
    """The files pytest may write over and the folders it may empty; ``unread``: a file of options the
    judge was not given (pytest would read options the guard cannot see)."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.emptied: list[str] = []
        self.unread: str | None = None
        self.bases: list[str] = []      # folders a relative value may be resolved from instead: --rootdir, -c's
        self.more: list[str] = []       # options `-o addopts=…` adds, read after the others


def reach(args: list[str], addopts: list[str], files: Mapping[str, str], cwd: str) -> Reach:
    """What `pytest ARGS` run in ``cwd`` reaches, with PYTEST_ADDOPTS' words ``addopts`` and the text of the
    files the adapter read (absolute path -> text)."""
    out = Reach()
    words = _expanded([*addopts, *args], files, cwd, out)
    for _ in range(MAX_FILES):  # `-o addopts=…` gives more options, which may give more (F-0142)
        i = 0
        while i < len(words):
            i += _one_option(words, i, files, cwd, out)
        words, out.more = _expanded(out.more, files, cwd, out), []
        if not words:
            break
    else:
        out.unread = out.unread or "-o addopts=…"
    return out


def config_reach(text: str, out: Reach) -> Reach:
    """What pytest's configuration ``text`` (an ini, tox.ini, setup.cfg or pyproject.toml) makes it write and
    empty: writing options in its addopts (`--basetemp=V`, `--debug V`, TOML's `"--log-file", "V"`), its
    cache_dir and log_file."""
    for name, value in IN_TEXT.findall(text):
        (out.emptied if name in EMPTIED else out.written).extend(_from_any_folder(value))
    for key, value in KEY_IN_TEXT.findall(text):
        (out.emptied if key in INI_EMPTIED else out.written).extend(_from_any_folder(value))
    files = ARGS_FILE_IN_TEXT.findall(text)
    if files:  # arguments read from a file when pytest starts, whatever it holds by then (F-0136)
        out.unread = out.unread or files[0]
    return out


def _from_any_folder(value: str) -> list[str]:
    """A configuration's relative value, and as pytest run in a folder below would resolve it: `../.harness/x`
    names the record from any folder one level down (#28's task F-0145)."""
    norm = posixpath.normpath(value)
    parts = norm.split("/")
    ups = next((i for i, p in enumerate(parts) if p != ".."), len(parts))
    return [value] if not ups or norm.startswith("/") else [value, "/".join(parts[ups:]) or "."]


def _expanded(words: list[str], files: Mapping[str, str], cwd: str, out: Reach, depth: int = 0) -> list[str]:
    """``words`` with each `@FILE` replaced by the file's lines, as argparse reads them (recursively)."""
    found: list[str] = []
    for word in words:
        if not word.startswith("@"):
            found.append(word)
            continue
        text = files.get(posixpath.normpath(posixpath.join(cwd, word[1:])))
        if text is None or depth >= MAX_FILES:
            out.unread = out.unread or word[1:]
            continue
        found += _expanded(text.splitlines(), files, cwd, out, depth + 1)
    return found


def _one_option(words: list[str], i: int, files: Mapping[str, str], cwd: str, out: Reach) -> int:
    """Read the option at ``words[i]`` into ``out``; how many words it took."""
    word = words[i]
    nxt = words[i + 1] if i + 1 < len(words) else None
    name, eq, value = word.partition("=")
    if word.startswith("--"):
        given = value if eq else nxt
        taken = 1 if eq or nxt is None else 2
        if name == DEBUG:  # `--debug FILE` takes FILE only when it is no option
            takes_next = not eq and nxt is not None and not nxt.startswith("-")
            given = value if eq else nxt if takes_next else "pytestdebug.log"
            taken = 2 if takes_next else 1
        if name == ROOTDIR and given is not None:
            out.bases.append(given)
            return taken
        if name in (*WRITTEN, DEBUG, *EMPTIED, OVERRIDE, CONFIG) and given is not None:
            _valued(name, given, files, cwd, out)
            return taken
        return 1
    if word.startswith("-") and len(word) > 1:
        for j, letter in enumerate(word[1:], 1):
            if letter in SHORT_VALUED:
                given, taken = (word[j + 1:], 1) if j + 1 < len(word) else (nxt, 2)
                if given is not None and letter in "oc":
                    _valued(OVERRIDE if letter == "o" else CONFIG, given, files, cwd, out)
                return taken if given is not None else 1
    return 1


def _valued(name: str, value: str, files: Mapping[str, str], cwd: str, out: Reach) -> None:
    if name in WRITTEN or name == DEBUG:
        out.written.append(value)
    elif name in EMPTIED:
        out.emptied.append(value)
    elif name == OVERRIDE:
        key, _, setting = value.partition("=")
        if key.strip() == "addopts":
            out.more += addopts_words((f"PYTEST_ADDOPTS={setting}",))
        elif key.strip() in INI_WRITTEN:
            out.written.append(setting.strip())
        elif key.strip() in INI_EMPTIED:
            out.emptied.append(setting.strip())
    else:  # CONFIG: the ini file pytest reads instead of finding one
        text = files.get(posixpath.normpath(posixpath.join(cwd, value)))
        if text is None:
            out.unread = out.unread or value
        else:
            out.bases.append(posixpath.dirname(value) or ".")
            config_reach(text, out)


def addopts_words(assignments: tuple[str, ...]) -> list[str]:
    """PYTEST_ADDOPTS' words from the NAME=value pairs set for a command (split as pytest splits them)."""
    import shlex

    words: list[str] = []
    for pair in assignments:
        name, _, value = pair.partition("=")
        if name == "PYTEST_ADDOPTS":
            try:
                words += shlex.split(value)
            except ValueError:
                words += value.split()
    return words
