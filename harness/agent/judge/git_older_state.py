"""Another revision's `.harness/` put over the work tree or the index: older, shorter records in place of
the ledger, with no commit (and so no hook) to see it.

Pure. git writes another revision's files through more than `git checkout REV -- PATH`: a pathspec git
matches otherwise than the shell (#28's task F-0067); the index, filled from another revision by `git
read-tree REV` or `git reset REV -- PATH` and then checked out (F-0068); `git checkout-index --prefix=`
through a folder that is a link back into the repository (F-0069); a patch (`git apply`, `patch`) or a
commit's change applied without committing (`revert -n`, `cherry-pick -n`, `merge --no-commit`,
`stash apply`; F-0074). What the guard cannot see for itself (a folder's real path, a patch file's
headers, what a commit changes) the adapter hands in through :class:`GitSetup`; without it, refused.
"""

from __future__ import annotations

import posixpath

from harness.agent.judge import guarded_paths
from harness.agent.judge.denials import Denial
from harness.agent.judge.git_config_view import GitSetup
from harness.agent.judge.git_pathspecs import may_name_harness
from harness.agent.judge.shell_resolve import unresolved
from harness.core import lazy_re as re  # imported on a pattern's first use: most lines need none

REVISION = r"[0-9a-f]{7,40}"  # a commit id, as the harness's own hints print one
# Options of reset, revert, cherry-pick and merge whose value is the next word (`-m 1`, `-X theirs`).
VALUED = frozenset({"-m", "--mainline", "-s", "--strategy", "-X", "--strategy-option", "--cleanup", "-F", "--file",
                    "--into-name", "--pathspec-from-file"})
REVIEW_ONLY = frozenset({"--check", "--stat", "--numstat", "--summary"})  # `git apply` options that only read


def older_state_denial(sub: str, operand: str, source: str = "another revision") -> Denial:
    return Denial("protected-file", f"`git {sub}` of {operand} from {source} would put back older, "
                  "shorter records over the harness's ledger", "put back a file from HEAD or a commit id "
                  "(`git checkout HEAD -- FILE`), or ask a human")


def from_a_named_commit(source: str) -> bool:
    """HEAD or a commit id: how the harness's hints name a committed version to put back."""
    return source == "HEAD" or bool(re.fullmatch(REVISION, source))


def pathspecs_denial(sub: str, specs: list[str], where: guarded_paths.Where) -> Denial | None:
    """A pathspec of another revision's files that git could match in `.harness/` (F-0067)."""
    for spec in specs:
        rel = where.resolve(spec)
        if may_name_harness(spec, where) or guarded_paths.glob_harness_state(rel):
            return older_state_denial(sub, spec)
    return None


# -- the index filled from another revision (F-0068) ------------------------------------------------

def check_read_tree(rest: list[str]) -> Denial | None:
    """`git read-tree` of anything but HEAD: another revision's `.harness/` in the index, which `git checkout
    -- FILE` (the harness's own repair hint) then puts over the work tree; a tree's symlink entries with
    `--prefix=` (F-0062). With `-u`, written at once."""
    trees = [a for a in rest if not a.startswith("-")]
    other = next((t for t in trees if t != "HEAD"), None)
    if other is None:
        return None
    return Denial("protected-file", f"`git read-tree {other}` fills the index from another tree than HEAD: its "
                  "older `.harness/` (or a symlink entry) is checked out from there by the next `git checkout -- "
                  "FILE`", "read another revision's files with `git show REV:PATH`, or put one back whole with "
                  "`git checkout REV -- PATH` outside `.harness/`")


def check_reset(rest: list[str], where: guarded_paths.Where) -> Denial | None:
    """`git reset REV [--] PATH…`: the index's copy of PATH from REV (the branch stays)."""
    words, after = _split_at_dashes(rest)
    if after is None:
        rev, specs = (words[0], words[1:]) if len(words) > 1 else ("HEAD", words)
    else:
        rev, specs = (words[0] if words else "HEAD"), after
    if not specs or from_a_named_commit(rev):
        return None
    return pathspecs_denial("reset", specs, where)


def _split_at_dashes(rest: list[str]) -> tuple[list[str], list[str] | None]:
    """(the words before `--` that are no option nor an option's value, the words after it or None)."""
    words, i = [], 0
    while i < len(rest) and rest[i] != "--":
        if rest[i] in VALUED:
            i += 1
        elif not rest[i].startswith("-"):
            words.append(rest[i])
        i += 1
    return words, (rest[i + 1:] if i < len(rest) else None)


# -- checkout-index: where the files land (F-0069, F-0073) ----------------------------------------

def check_checkout_index(rest: list[str], where: guarded_paths.Where, setup: GitSetup) -> Denial | None:
    """`git checkout-index` writing `.harness/` from the index. git writes PREFIX + each path (from the top,
    a relative PREFIX too); `--prefix=export/` lands in `export/.harness/`, no record (F-0073). A prefix
    whose folder lies outside the repository is followed to its real path (a link back into it writes
    the record; F-0069), and refused when that cannot be known."""
    prefix = next((a.partition("=")[2] for a in rest if a.startswith("--prefix=")), "")
    if unresolved(prefix):
        return older_state_denial("checkout-index", f"--prefix={prefix}", "the index, into a folder the guard cannot "
                                  "work out,")
    base = _landing(prefix, where, setup)
    if base is None:
        return older_state_denial("checkout-index", f"--prefix={prefix}", "the index, through a folder whose real "
                                  "path cannot be known before the line runs (run it on its own),")
    short = "".join(a[1:] for a in rest if a[:1] == "-" and a[1:2] != "-")
    if "a" in short or "--all" in rest or "--stdin" in rest:
        what = "every file" if "--stdin" not in rest else "the paths on its stdin"
        return older_state_denial("checkout-index", what, "the index") if _may_reach_record(base, where) else None
    operands = rest[rest.index("--") + 1:] if "--" in rest else [a for a in rest if not a.startswith("-")]
    top = where.git_top()  # (a nested repository's index holds paths from its own top: #25's task F-0028)
    for a in operands:
        full = posixpath.normpath(posixpath.join(where.cwd, a))
        rel = full[len(top.rstrip("/")) + 1:] if full.startswith(top.rstrip("/") + "/") else None
        if rel is not None and (_writes_record(base + rel, where) or guarded_paths.glob_harness_state(where.resolve(full))):
            return older_state_denial("checkout-index", a, "the index")
    return None


def _landing(prefix: str, where: guarded_paths.Where, setup: GitSetup) -> str | None:
    """The absolute spelling git prepends to each path: the prefix's folder by its real path (when it lies
    outside the repository as written, only as the adapter found it), then the rest of the prefix."""
    folder, _, tail = prefix.rpartition("/")
    written = posixpath.normpath(posixpath.join(where.git_top(), folder))
    real = setup.export_folders.get(written) if setup.export_folders is not None else written
    if real is None and where.resolve(written) is None:
        return None
    return posixpath.join(real or written, "") + tail


def _writes_record(full: str, where: guarded_paths.Where) -> bool:
    return guarded_paths.harness_state(where.resolve(full))


def _may_reach_record(landing: str, where: guarded_paths.Where) -> bool:
    """Whether `landing` + some index path is in `.harness/`: the landing is in the record already, or it is
    the top followed by a start of `.harness`'s name (`--prefix=.harnes` + `s/tasks/…`), nothing included."""
    folder, _, tail = landing.rpartition("/")
    rel = where.resolve(folder)
    return rel is not None and (guarded_paths.harness_state(rel) or (rel == "." and guarded_paths.HARNESS.startswith(tail)
                                                               and tail != guarded_paths.HARNESS))


# -- patches (F-0074) ------------------------------------------------------------------------------

def check_patch_input(program: str, patch_file: str | None, extra: list[str], where: guarded_paths.Where,
                      setup: GitSetup) -> Denial | None:
    """`git apply FILE`/`patch < FILE`: refused when the patch names a path in `.harness/` (under any
    number of leading folders stripped, as `-p` does) or cannot be read (stdin, a file the adapter did not
    read, one written on the same line). ``extra``: paths named besides (patch's file, `--directory`)."""
    if patch_file is None or unresolved(patch_file):
        return _unread_patch(program, "its standard input" if patch_file is None else patch_file)
    if setup.patches is None:
        return None  # judged without the adapter: a file's patch is not read
    named = setup.patches.get(posixpath.normpath(posixpath.join(where.cwd, patch_file)))
    if named is None:
        return _unread_patch(program, patch_file)
    for path in (*named, *extra):
        if _patch_path_names_harness(path, where):
            return Denial("protected-file", f"`{program}` of {patch_file} changes {path} in `.harness/`: a diff "
                          "can put older, shorter records over the harness's ledger",
                          "leave `.harness/` out of the patch (`git diff -- ':!.harness'`); the harness writes it")
    return None


def _unread_patch(program: str, source: str) -> Denial:
    return Denial("protected-file", f"`{program}` of a patch from {source} can change `.harness/` (put older "
                  "records over the ledger), and the guard cannot read that patch before it applies",
                  "save the patch to a file first (`git diff … -- ':!.harness' > fix.patch`), then apply the file "
                  "in a command of its own")


def _patch_path_names_harness(path: str, where: guarded_paths.Where) -> bool:
    parts = [p for p in path.split("/") if p]
    for k in range(len(parts)):
        stripped = "/".join(parts[k:])
        if any(guarded_paths.harness_state(guarded_paths.Where(where.root, base).resolve(stripped)) for base in (where.cwd, where.root)):
            return True
    return False


def check_git_apply(rest: list[str], stdin_file: str | None, where: guarded_paths.Where, setup: GitSetup) -> Denial | None:
    """`git apply [--cached|--index] [PATCH…]` (stdin when none): what the patch writes (F-0074)."""
    if any(a in REVIEW_ONLY for a in rest) and "--apply" not in rest:
        return None
    directory = [a.partition("=")[2] + "/x" for a in rest if a.startswith("--directory=")]
    files: list[str | None] = [a for a in rest if not a.startswith("-")] or [stdin_file]
    for f in files:
        denial = check_patch_input("git apply", stdin_file if f == "-" else f, directory, where, setup)
        if denial:
            return denial
    return None


def check_patch_program(args: list[str], stdin_file: str | None, where: guarded_paths.Where, setup: GitSetup) -> Denial | None:
    """`patch [-d DIR] [-i PATCH] [-o OUT] [FILE [PATCH]]` (the patch on stdin when not named)."""
    if "--dry-run" in args:
        return None
    found, positional = _patch_options(args)
    folder = found.get("d", "")
    patch_file = found.get("i") or (positional[1] if len(positional) > 1 else stdin_file)
    extra = [posixpath.join(folder, p) for p in (*positional[:1], found.get("o", ""), "x" if folder else "") if p]
    return check_patch_input("patch", patch_file, extra, where, setup)


# patch's options with a value (`-p 1`, `-p1`, `--strip=1`, `--strip 1`), and the long names of those that matter.
PATCH_SHORT_VALUED = frozenset("BdDFgioprVYz")
PATCH_LONG = {"--input": "i", "--directory": "d", "--output": "o", "--strip": "p", "--fuzz": "F", "--ifdef": "D",
              "--get": "g", "--reject-file": "r", "--version-control": "V", "--basename-prefix": "Y", "--suffix": "z",
              "--prefix": "B", "--quoting-style": "", "--reject-format": ""}


def _patch_options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """(patch's valued options by letter, its operands)."""
    found: dict[str, str] = {}
    positional, i = [], 0
    while i < len(args):
        word, following = args[i], (args[i + 1] if i + 1 < len(args) else "")
        name, eq, value = word.partition("=")
        if word.startswith("--") and name in PATCH_LONG:
            found[PATCH_LONG[name]] = value if eq else following
            i += 0 if eq else 1
        elif word[:1] == "-" and word[1:2] in PATCH_SHORT_VALUED:
            found[word[1]] = word[2:] or following
            i += 0 if word[2:] else 1
        elif not word.startswith("-"):
            positional.append(word)
        i += 1
    return found, positional


# -- a commit's change applied without a commit (F-0074) ------------------------------------------

def change_query(sub: str, rest: list[str]) -> tuple[str, ...] | None:
    """What to ask git (its arguments) for the change `git SUB REST` applies to the work tree without
    committing it; () when it cannot be told (revisions on stdin, several heads); None when the command
    commits (its hooks judge it) or applies no change. The adapter asks exactly this (one process)."""
    numstat = ("--no-renames", "--format=", "--numstat")
    words, _ = _split_at_dashes(rest)
    if sub in ("revert", "cherry-pick") and ({"-n", "--no-commit"} & set(rest)):
        if "--stdin" in rest:
            return ()
        walk = any(".." in w or w.startswith("^") for w in words)
        return ("log", "-m", *numstat, *(() if walk else ("--no-walk=unsorted",)), *words, "--", guarded_paths.HARNESS) if words else None
    if sub == "merge" and {"--no-commit", "--squash"} & set(rest) and not {"--abort", "--continue", "--quit"} & set(rest):
        if len(words) > 1:
            return ()
        head = words[0] if words else "@{upstream}"
        return ("diff", "--no-renames", "--numstat", f"HEAD...{head}", "--", guarded_paths.HARNESS)
    if sub == "stash" and words[:1] and words[0] in ("apply", "pop", "branch"):
        named = words[2:3] if words[0] == "branch" else words[1:2]
        ref = (f"stash@{{{named[0]}}}" if named[0].isdigit() else named[0]) if named else "stash@{0}"
        return ("log", "--diff-merges=first-parent", *numstat, "--no-walk=unsorted", ref, "--", guarded_paths.HARNESS)
    return None


def check_uncommitted_change(sub: str, rest: list[str], setup: GitSetup) -> Denial | None:
    """`revert -n`, `cherry-pick -n`, `merge --no-commit`/`--squash`, `stash apply`/`pop`: refused when the change
    they apply removes or rewrites a line of a guarded file (the ledger, approvals, evidence) — a revert
    takes back the lines its commit added — or when git could not say what it changes."""
    query = change_query(sub, rest)
    if query is None or setup.changes is None:
        return None  # it commits (the hooks judge it), or judged without the adapter, by its words
    rows = setup.changes.get(query) if query else None
    if rows is None:
        return Denial("protected-file", f"`git {sub} {' '.join(rest)}` applies a change the guard could not read "
                      "from git, over the work tree with no commit (and so no hook) to see whether it puts back "
                      "older records", "run it as a command of its own, naming the commits (or commit without "
                      "`-n`/`--no-commit`: the hooks judge a commit)")
    for added, deleted, path in rows:
        removed = added if sub == "revert" else deleted
        if guarded_paths.protected(path) and (removed is None or removed > 0):
            return older_state_denial(sub, path, "a change that takes lines out of it")
    return None
