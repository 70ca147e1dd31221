"""What the judge needs from disk and git about the first command of a shell line, looked up here (the rules
stay pure): the real folder a `git checkout-index --prefix=` lands in (#28's task F-0069), the paths a patch
file names (`git apply FILE`, `patch < FILE`), and what the commit a `revert -n`, `cherry-pick -n`, `merge
--no-commit` or `stash apply` applies changes in `.harness/` (F-0074), and the files pytest reads options from
(`@FILE`, `-c FILE`: F-0131). Only the first command's: a later one may run after a command that changed them
(`git diff > p && git apply p`), and is judged without them.

os, and one git process for a line whose first command applies a commit's change; nothing for any other line.
"""

from __future__ import annotations

import os

MAX_PATCH_BYTES = 8 << 20
MAX_PATCHES = 16
MAX_OPTION_FILE_BYTES = 1 << 20
MAX_OPTION_FILES = 16
# Lines of a patch that name a file it changes (git's, unified and context diffs, svn's `Index:`).
HEADERS = ("diff --git ", "--- ", "+++ ", "*** ", "rename from ", "rename to ", "copy from ", "copy to ", "Index: ")
CHANGE_WORDS = ("revert", "cherry-pick", "merge", "stash")

Rows = tuple[tuple[int | None, int | None, str], ...]
# A remote the line itself adds, renames, points elsewhere or configures: its url is not what git's config says now.
REMOTE_NAMED = (r"\bremote\s+(?:add|set-url)\s+(?:(?:-[tm]\s+\S+|-\S+)\s+)*([^\s;&|()]+)",
                r"\bremote\s+rename\s+(?:-\S+\s+)*\S+\s+([^\s;&|()]+)", r"\bremote\.([^\s=]+)\.url\b")


def line_remotes(text: str) -> dict[str, str]:
    """The remotes ``text`` configures itself (`git remote add self . && git fetch self …`) -> `$`: a url the
    judge takes as possibly this repository's."""
    if "remote" not in text:
        return {}
    import re

    return {name: "$" for pattern in REMOTE_NAMED for name in re.findall(pattern, text)}


def line_facts(command: str, root: str, cwd: str) -> dict[str, object]:
    """GitSetup's `export_folders`, `patches` and `changes` for ``command`` run in ``cwd`` (keyword arguments):
    empty when the first command needs none (an alias's expansion is not followed: judged as unknown)."""
    nothing: dict[str, object] = {"export_folders": {}, "patches": {}, "changes": {}, "pytest_files": {}}
    if not ("--prefix=" in command or "apply" in command or "patch" in command
            or any(w in command for w in CHANGE_WORDS) or _names_pytest_files(command)):
        return nothing
    from harness.agent.judge.shell_commands import ShellSyntaxError, TooMuchToJudge, parse
    from harness.agent.judge.shell_resolve import resolve

    try:
        first = next(iter(resolve(parse(command))), None)
    except (ShellSyntaxError, TooMuchToJudge, RecursionError):  # the judge refuses or fails it itself
        return nothing
    if first is None:
        return nothing
    words = list(first.words) + [t for op, t in first.redirects if op == "<"]
    elsewhere = any(a.startswith(("GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=")) for a in first.assignments)
    return {"export_folders": _export_folders(words, root), "patches": _patches(words, cwd),
            "changes": {} if elsewhere else _changes(list(first.words), root),
            "pytest_files": _pytest_files([*_addopts(first.assignments), *first.words], cwd)}


def _names_pytest_files(command: str) -> bool:
    """Whether ``command`` may give pytest a file of options: `@FILE`, `-c`, `-qc` (F-0146), `--config-file`."""
    return ("pytest" in command or "py.test" in command) and (
        "@" in command or any(w.startswith("-") and "c" in w for w in command.split()))


def _addopts(assignments: tuple[str, ...]) -> list[str]:
    from harness.agent.judge.pytest_writes import addopts_words

    return addopts_words(assignments)


def _pytest_files(words: list[str], cwd: str) -> dict[str, str]:
    """Each file a word may name as pytest's `@FILE` or `-c FILE` (and those such files name in turn) -> its
    text, when it is a small readable file. Generous: the judge takes only the ones pytest reads."""
    found: dict[str, str] = {}
    todo, prev = list(words), ""
    while todo and len(found) < MAX_OPTION_FILES:
        word = todo.pop(0)
        for value in _option_file_values(word, prev):
            path = os.path.normpath(os.path.join(cwd, value))
            text = None if path in found else "" if path == os.devnull else _small_text(path, MAX_OPTION_FILE_BYTES)
            if text is not None:
                found[path] = text
                todo += text.splitlines()
        prev = word
    return found


def _option_file_values(word: str, prev: str) -> list[str]:
    """The file ``word`` may name after ``prev``: `@FILE`, `--config-file=FILE`, `-cFILE`, or FILE after `-c`,
    `-qc` or `--config-file`."""
    if prev == "--config-file" or (prev.startswith("-") and not prev.startswith("--") and prev.endswith("c")):
        return [word]
    if word.startswith("@"):
        return [word[1:]]
    if word.startswith("--config-file="):
        return [word.partition("=")[2]]
    if word.startswith("-c") and len(word) > 2 and not word.startswith("--"):
        return [word[2:]]
    return []


def _small_text(path: str, cap: int) -> str | None:
    """The text of the regular file ``path`` when it holds at most ``cap`` bytes, else None."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > cap:
            return None
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "surrogateescape")
    except OSError:
        return None


def _export_folders(words: list[str], root: str) -> dict[str, str]:
    """`--prefix=DIR/…`'s folder (from the top, as git reads a relative one) -> its real path."""
    found = {}
    for w in words:
        if w.startswith("--prefix="):
            written = os.path.normpath(os.path.join(root, w[len("--prefix="):].rpartition("/")[0]))
            found[written] = os.path.realpath(written)
    return found


def _patches(words: list[str], cwd: str) -> dict[str, tuple[str, ...]]:
    """Each word naming a small readable file (an option's glued value too: `--input=F`, `-iF`) -> the paths
    its patch headers name."""
    found: dict[str, tuple[str, ...]] = {}
    for w in words:
        for value in {w, w.partition("=")[2], w[2:] if w.startswith("-i") else ""} - {""}:
            path = os.path.normpath(os.path.join(cwd, value))
            if path in found or len(found) >= MAX_PATCHES:
                continue
            named = _patch_paths(path)
            if named is not None:
                found[path] = named
    return found


def _patch_paths(path: str) -> tuple[str, ...] | None:
    text = _small_text(path, MAX_PATCH_BYTES)
    if text is None:
        return None
    named = []
    for line in text.splitlines():
        head = next((h for h in HEADERS if line.startswith(h)), None)
        if head == "diff --git ":
            named += line[len(head):].replace('"', "").split(" ")  # `a/x b/y`; a quoted name's parts too
        elif head is not None:
            named.append(line[len(head):].split("\t")[0].strip().strip('"'))
    return tuple(dict.fromkeys(named))


def _changes(words: list[str], root: str) -> dict[tuple[str, ...], Rows]:
    """The `--numstat` rows git gives for the change a first command `git revert -n …` (and kin) applies."""
    if not words or os.path.basename(words[0]) != "git":
        return {}
    from harness.agent.judge.bypass_git import git_subcommand
    from harness.agent.judge.git_older_state import change_query

    found = git_subcommand(words[1:])
    own = words[1:len(words) - len(found[1]) - 1] if found else []
    if any(w.startswith(("-C", "--git-dir", "--work-tree")) for w in own):
        return {}  # another repository's history: the judge finds nothing for it, and refuses
    query = change_query(*found) if found else None
    if not query:
        return {}
    from harness.gitio import spawned_git

    done = spawned_git.start(root, *query).result()
    if done is None or done[0] != 0:
        return {}  # a revision git does not know: judged as a change the guard cannot read
    return {query: _rows(done[1])}


def _rows(out: bytes) -> Rows:
    rows = []
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        added, tab, rest = line.partition("\t")
        deleted, _, path = rest.partition("\t")
        if tab and path:
            rows.append((int(added) if added.isdigit() else None, int(deleted) if deleted.isdigit() else None, path))
    return tuple(rows)
