"""The tool calls the guard allows whatever the repository holds, told apart before the rules load.

Most of an agent's tool calls are reads, edits of source files and plain commands (`ls -la`,
`pytest -q tests`). The full judge (harness.agent.judge.bypass, with bashlex for a command line) answers
"allow" for each of them, silently; loading it costs several times the answer. This module
recognises the calls whose answer is certain from their text alone, with os.path and a few stat
calls, and :mod:`harness.agent.run` answers them before importing the judge.

Certain means: the full judge cannot refuse it and cannot fail on it (a failure answers with a
message, not silently). Anything less plain (a quote, an expansion, a glob, a redirect, an
operator, a program that writes, deletes, runs a command line or is git, a path in `.harness/`,
`.git/`, a hooks folder or the framework's config, a linked worktree, a word naming git or a
hook, whose git configuration the judge would read) is left to the judge. `tests/test_agent_guard_quick_allow.py`
holds the answers equal to the judge's on both sides of every condition.
"""

from __future__ import annotations

import os

from harness import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from harness.agent.hosts import ToolAction

# Programs that only read (or run tests): none is a prefix, runner, shell, declarer, writer,
# deleter, copier, mode changer, in-place editor, archiver, git, harness or python (the judge's
# special cases); tests/test_agent_guard_quick_allow.py holds this list apart from theirs. Writers
# the judge does not know of are left out (`sort -o`, `uniq IN OUT`, `tree -o`, `less -o`, `rg --pre`
# running a program); pytest stays (it writes `--junitxml`, `--basetemp`), so no plain command that
# names what the guard covers (GUARDED_WORDS) is answered here: a judge that learns of such a
# writer is not bypassed.
READERS = frozenset({"ls", "cat", "head", "tail", "wc", "grep", "pwd", "echo", "pytest", "diff", "stat", "which",
                     "du", "df", "date", "whoami", "uname", "cut", "nl", "od", "hexdump", "md5sum", "sha256sum",
                     "basename", "dirname", "realpath", "readlink", "true", "false", "id", "printenv"})
# A command line of these characters alone is one simple command of plain words: no quote,
# expansion, glob, brace, tilde, comment, redirect, operator, escape or line break.
PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _./=,:+@%-")
# Options by which a reader writes or reads where it may write (harness.agent.judge.bypass_files' OUTPUT_OPTIONS
# of the READERS and harness.agent.judge.pytest_writes.OPTIONS; a test holds them equal): `pytest --basetemp=..`
# empties a folder above the repository. pytest's short `-o` and `-c`, and its `@FILE`, are looked for apart.
WRITING_OPTIONS = ("--junitxml", "--junit-xml", "--resultlog", "--result-log", "--report-log", "--log-file", "--debug",
                   "--basetemp", "--override-ini", "--config-file", "--rootdir")
# What makes a written path something the judge looks at more closely.
SPECIAL_IN_PATH = frozenset("$`*?[")
GUARDED_TOP = (paths.HARNESS, ".git", paths.FRAMEWORK_CONFIG)
# Files whose content the judge reads: pytest's configuration may give a --basetemp to empty.
PYTEST_CONFIGS = paths.PYTEST_CONFIGS
# What the judge's own failure policy takes for a mention of what it guards (bypass.mentions_guarded), and hooks.
GUARDED_WORDS = ("git", "harness", "skip=", "hookspath", "hook", "events.jsonl", "evidence", "approvals.jsonl",
                 "allowed_signers", "pre-commit")


def surely_allowed(cwd: str | None, action: ToolAction) -> bool:
    """Whether the full judge allows ``action`` silently; False when unsure."""
    if not _usable(cwd) or action.workdir is not None or action.deletes:
        return False
    if action.shell is not None and (action.writes or not _plain_reader(action.shell)):
        return False  # told from the text alone, before any file is looked at (most judged lines end here)
    assert cwd is not None
    here = os.path.realpath(cwd)
    root = _worktree(here)
    # A linked worktree (`.git` a file) is left to the judge: its hooks live in the common git
    # folder that file names; and so is a repository without the harness (allowed, but rare).
    if root is None or not os.path.isdir(os.path.join(root, paths.HARNESS)) \
            or not os.path.isdir(os.path.join(root, ".git")):
        return False
    from harness.agent.git_config_files import may_set_hooks_path

    if may_set_hooks_path(root):  # a hooks folder anywhere, named in a config: the judge knows where
        return False
    if action.shell is not None:
        return not action.writes and _plain_reader(action.shell)
    subject = " ".join(action.writes)
    if "git" in subject or "hook" in subject:
        return False  # the judge reads the repository's git configuration for these
    return bool(action.writes) and all(_usable(path) for path in action.writes) \
        and _writes_outside_guarded(here, root, action.writes)


def _usable(path: str | None) -> bool:
    """A path os calls take: text with no NUL and no lone surrogate (either raises in them)."""
    if not path or "\0" in path:
        return False
    try:
        os.fsencode(path)
    except UnicodeError:
        return False
    return True


def _plain_reader(command: str) -> bool:
    words = command.split()
    lowered = command.lower()
    return bool(words) and words[0] in READERS and PLAIN.issuperset(command) \
        and not any(word in lowered for word in GUARDED_WORDS) \
        and not any(word.startswith(WRITING_OPTIONS) for word in words) \
        and not (words[0] == "pytest" and any(_pytest_reads_more(word) for word in words))


def _pytest_reads_more(word: str) -> bool:
    """A pytest word that reads options from elsewhere or sets where it writes: `@FILE`, `-c FILE`, `-o
    NAME=VALUE`, in a cluster too (`-qc FILE`); and PYTEST_ADDOPTS is no reader's word, so never answered here."""
    return word.startswith("@") or (word.startswith("-") and not word.startswith("--") and ("c" in word or "o" in word))


def _writes_outside_guarded(here: str, root: str, writes: tuple[str, ...]) -> bool:
    real_root = os.path.realpath(root).rstrip("/")
    hooks = os.path.realpath(os.path.join(root, ".git", "hooks"))
    for path in writes:
        joined = os.path.join(here, path)
        # By its real path and by the name it is written under, as the judge checks both: `x/../.harness/…`
        # through a symlink `x` resolves elsewhere but names the record (#28's task F-0028).
        if not all(_plain_target(full, real_root, hooks) for full in (os.path.realpath(joined), os.path.normpath(joined))):
            return False
    return True


def _plain_target(full: str, real_root: str, hooks: str) -> bool:
    if SPECIAL_IN_PATH & set(full) or full == hooks or full.startswith(hooks.rstrip("/") + "/"):
        return False
    if not full.startswith(real_root + "/"):
        return False  # outside the repository: another harness's record, maybe (the judge looks)
    parts = full[len(real_root) + 1:].split("/")
    # Any folder named like the guarded ones, not only the top: a repository nested in this one keeps its
    # own record and hooks at SUB/.harness/ and SUB/.git/ (the judge finds its harness; #28's task F-0026).
    return not any(part in GUARDED_TOP for part in parts) and parts[-1] not in PYTEST_CONFIGS


def _worktree(here: str) -> str | None:
    """harness.store.layout.find_worktree's walk up, in os.path terms: the first folder holding `.git`."""
    folder = here
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
