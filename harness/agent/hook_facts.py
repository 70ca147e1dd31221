"""Read what the agent hooks judge from a repository: the current task, its evidence trees,
the source tree now and the gate evaluated now (the same reading `harness status` makes)."""

from __future__ import annotations

import os

from harness import paths
from harness.errors import HarnessError

# typing, pathlib and the store's layout (dataclasses, a regex) cost the tool guard more than its answer:
# what it calls here works on os.path strings, and the rest imports them where it runs.
TYPE_CHECKING = False
if TYPE_CHECKING:  # the agent policy is imported where a task is judged: the tool guard never needs it
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from harness.agent.judge.agent_policy import TaskFacts
    from harness.agent.judge.git_config_view import GitSetup
    from harness.store.reader import LoadedTask
    from harness.store.settings import GatePolicy
    from harness.store.tasks import TaskStore


def repo_root(cwd: str | None) -> Path | None:
    """The work tree the host says it runs in, or None outside any git repository."""
    from pathlib import Path

    from harness.store.layout import find_worktree

    try:
        return find_worktree(Path(cwd) if cwd else None)
    except (HarnessError, OSError):
        return None


def guarded_root(start: str | None) -> str | None:
    """The repository whose harness a path at ``start`` falls under: the nearest folder up from it that
    holds a git repository (a `.git` folder, or a `gitdir:` file) and `.harness/`. A `.git` entry that is
    no repository (an empty file anyone can make) and a nested repository without a harness are walked
    past: neither hides the harness around them (#25's task F-0020). The folder's real path, as a string.
    A `.git` is a folder, or a regular `gitdir:` file read without blocking: a FIFO in its place is no
    repository, and must not hang the guard past the host's timeout (#25's task F-0027)."""
    if not start:
        return None
    from harness.agent.git_config_files import git_dirs
    from harness.gitio.environment import is_dir

    folder = os.path.realpath(start)
    while True:
        if is_dir(os.path.join(folder, paths.HARNESS)) and git_dirs(folder) is not None:
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def nested_repositories(root: str, cwd: str) -> tuple[str, ...]:
    """The tops of the repositories between ``root`` (exclusive) and ``cwd`` (a `vendor/lib` with its own `.git`
    and no harness): git run there acts on them, not on ``root`` (#25's task F-0028). Only a `.git` folder of its
    own counts: not a link, not a `gitdir:` file, not a linked worktree's folder (`commondir`), which may all
    lead back to ``root``'s; and none while the hook's environment names a repository (#28's task F-0117)."""
    if not cwd.startswith(root.rstrip("/") + "/") or any(os.environ.get(v) for v in NAMES_A_REPOSITORY):
        return ()
    out, folder = [], cwd
    while folder != root and folder.startswith(root):
        dot_git = os.path.join(folder, ".git")
        if os.path.isdir(dot_git) and not os.path.islink(dot_git) and not os.path.lexists(os.path.join(dot_git, "commondir")):
            out.append(folder)
        folder = os.path.dirname(folder)
    return tuple(out)


def other_git(root: str, cwd: str) -> str:
    """Whether a `.git` of any kind lies between ``root`` (exclusive) and ``cwd``: "worktree" when its config sets
    core.worktree (its history is then written into another folder, maybe ``root``'s), "repository", or "".
    Read as the rest of the guard reads git's files: regular files only, never blocking on a FIFO."""
    from harness.agent.git_config_files import git_dirs, regular_text

    found, folder = "", cwd
    while folder != root and folder.startswith(root.rstrip("/") + "/"):
        if os.path.lexists(os.path.join(folder, ".git")):
            found = "repository"
            dirs = git_dirs(folder)
            config = regular_text(os.path.join(dirs[1], "config")) if dirs else None
            if config is not None and b"worktree" in config.lower():
                return "worktree"
        folder = os.path.dirname(folder)
    return found


# Variables by which git works on another repository than the one its folder is in.
NAMES_A_REPOSITORY = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY")


def has_harness(root: Path | None) -> bool:
    return root is not None and (root / paths.HARNESS).is_dir()


def load_facts(root: Path, on_wait: Callable[[str], None] | None = None,
               deadline: float | None = None) -> TaskFacts | None:
    """The current task's facts, or None when there is no harness or no single current task (``on_wait`` hears
    that the store's lock is held; ``deadline``: past it the lock is not waited for, harness.store.fsio.locked)."""
    from harness.agent.judge.agent_policy import TaskFacts
    from harness.context import Context
    from harness.core import gate as core_gate
    from harness.core import next_step
    from harness.gate import facts
    from harness.gate.steps_now import commit_steps
    from harness.signatures.trust import Signers
    from harness.store import settings
    from harness.store.layout import Layout
    from harness.store.tasks import TaskStore

    layout = Layout(root)
    if not layout.harness.is_dir():
        return None
    s = TaskStore(layout, Context(on_lock_wait=on_wait, lock_deadline=deadline))
    s.recover()
    try:
        tid = s.current_id()
    except HarnessError:
        return None  # no task, or several open and none chosen: nothing to hold the agent to
    policy = settings.load_gate(layout)
    with s.reading():
        task = s.load(tid)
        doc = s.render(task)["task.yaml"]["task"]
        trees = {t: r["tree"] for t, r in task.proj.evidence.items()}
        tree, git = "", None
        if trees or task.proj.findings:
            git = s.git
            tree = git.worktree_source_tree()
        gi = facts.gate_input(s.source, task, policy, tree, Signers(lambda: s.git))
        report = core_gate.evaluate(gi)
        blockers = next_step.work_blockers(gi.state, report.blockers)
        p = task.proj
        steps = next_step.for_gate_input(gi, blockers, iteration=p.iteration, max_iterations=p.max_iterations,
                                         gate_pass=p.gate_pass_for(tree, policy.digest)[0])
        verdict, said = report.verdict, tuple(b.text for b in blockers)
        refused = _refusal(s, task, policy)
        if refused is not None:  # the gate judges nothing under this gate.yaml, and says so (read 114's F-0402)
            verdict, said, steps = "INVALID_HARNESS_STATE", (refused.message,), next_step.out_of_invalid(refused.kind)
        # A DONE not in HEAD yet is unfinished: the commit that carries it is the next step.
        committing = commit_steps(s, task, tree or None) if p.state == "DONE" else []
        steps = [*committing, *steps]
    changed = {}
    for t in policy.required_types():
        if git is not None and t in trees and trees[t] != tree:
            changed[t] = git.changed_paths(trees[t], tree, limit=3)[0]
    return TaskFacts(
        task_id=tid, title=doc["title"], state=doc["state"], iteration=doc["iteration"],
        max_iterations=doc["max_iterations"], required=tuple(policy.required_types()),
        evidence_trees=trees, tree=tree, gate_now=verdict, blockers=said, changed=changed,
        next_steps=tuple((step.command, step.why) for step in steps), uncommitted_done=bool(committing),
    )


def _refusal(s: TaskStore, task: LoadedTask, policy: GatePolicy) -> HarnessError | None:
    """Why the gate would refuse to judge under gate.yaml now (a loosening no human approved), as status says it."""
    from harness.gate.loosening import refuse_unapproved_now

    try:
        refuse_unapproved_now(s, task, policy)
    except HarnessError as exc:
        return exc
    return None


def source_tree(root: Path) -> str:
    """The working tree's source tree, read from git alone: what a stop is counted against when the store's lock,
    which :func:`load_facts` waits for, is held."""
    from harness.gitio.git import Git

    return Git(root).worktree_source_tree()


def block_limit(root: Path) -> int:
    """`agent.stop_block_limit` from config.yaml (default 3)."""
    from harness.agent.judge.agent_policy import DEFAULT_BLOCK_LIMIT
    from harness.store.layout import Layout
    from harness.store.settings import load_config

    try:
        return load_config(Layout(root)).stop_block_limit
    except HarnessError:
        return DEFAULT_BLOCK_LIMIT


def notes_ref(root: str | Path) -> str:
    """The configured notes ref, read leniently and cheaply: the guard runs before every shell command."""
    from harness.agent import notes_ref_plain

    # Read as harness.store.bounded reads it (a FIFO or /dev/zero as config.yaml must not hang or exhaust the
    # guard), without importing the store: anything it refuses reads as no file.
    raw = notes_ref_plain.settings_bytes(os.path.join(root, paths.CONFIG))
    plain = notes_ref_plain.read(raw)  # a plainly written file needs no YAML parser (a third of the answer)
    if plain is not None:
        return plain
    from harness.store.settings import notes_ref_of

    return notes_ref_of(raw)


def git_setup(root: str | Path, subject: str) -> GitSetup:
    """The repository's git aliases and hooks folders, for the tool guard to judge ``subject`` (the
    command line, or the paths an edit tool writes) by; when it may commit, also the harness hooks
    the framework config being committed drops. git runs only when the subject could need it (it
    names git or a hook): the guard runs before every tool call, and most never touch either."""
    return start_git_setup(root, subject)()


_UNQUOTED = str.maketrans("", "", "'\"\\")  # the shell's quote and escape characters, dropped from a line


def start_git_setup(root: str | Path, subject: str) -> Callable[[], GitSetup]:
    """:func:`git_setup` in two steps: the git processes it needs start here, and the function returned
    reads them (importing the judge's GitSetup then): the tool guard loads its rules while git runs."""
    from harness.agent.git_config_files import guarded_files, may_set_hooks_path
    from harness.gitio.guard_config import start_config, start_framework_shows

    # Every config file git reads decides whether the hooks run as the repository's does (#25's task F-0021,
    # F-0024..F-0026): the user's, where their symlinks point, a worktree's common one, what they include.
    user_files = guarded_files(str(root))
    # The words, not the raw text: `g''it`, `"g"it` and `g\it` run git. And any git word may be an alias
    # for commit (`git ci`), so the framework config is compared whenever git is named (#28's task F-0033).
    words = subject.translate(_UNQUOTED).lower()
    names_git = "git" in words or "hook" in words
    # A hooks folder core.hooksPath names is guarded whatever the text says (#25's task F-0019): for a line
    # that names neither git nor a hook, git's config is read only when a config file may set it; for one that
    # does, always (a config file the guard does not read may set it: git reads it).
    config = start_config(root) if names_git or may_set_hooks_path(str(root)) else None
    shows = start_framework_shows(root) if "git" in words else None  # beside git config

    def finish() -> GitSetup:
        from harness.agent.judge.git_config_view import GitSetup
        from harness.gitio.guard_config import (
            aliases_of,
            config_entries,
            framework_configs,
            hooks_dirs,
            remote_commands_of,
            submodule_updates_of,
        )

        entries = config_entries(config) if config is not None else []
        aliases, hooks_path = aliases_of(entries)
        if not names_git:
            return GitSetup(hooks_dirs=(*hooks_dirs(root, hooks_path), *user_files))
        remote_urls, notes_ref = _remotes_and_notes_ref(entries, subject)
        dropped: set[str] = set()
        if shows is not None:
            head, index, worktree = framework_configs(root, shows)
            dropped = _framework_dropped(head, index, worktree)
        return GitSetup(aliases=aliases, hooks_dirs=(*hooks_dirs(root, hooks_path), *user_files),
                        dropped_framework_hooks=tuple(sorted(dropped)), remote_urls=remote_urls, notes_ref=notes_ref,
                        submodule_updates=submodule_updates_of(entries), remote_commands=remote_commands_of(entries))

    return finish


def _framework_dropped(head: str | None, index: str | None, worktree: str | None) -> set[str]:
    """The harness hooks HEAD's framework config runs (or names) and the index's or the work tree's does not,
    each as pre-commit loads it. A HEAD whose config can name no harness hook has none to drop: PyYAML stays unimported."""
    from harness.agent.judge import framework_config

    if not framework_config.may_run_harness_hooks(head):
        return set()
    from harness.agent.framework_yaml import load_config

    committed = load_config(head)
    return {hook for text in {index, worktree} for hook in framework_config.lost(committed, load_config(text))}


def _remotes_and_notes_ref(entries: list[tuple[str, str]], subject: str) -> tuple[dict[str, str], str]:
    """Each remote's url (a remote ``subject`` itself configures: `$`, unknown) and core.notesRef (#28's task F-0064,
    F-0065): `git fetch self …` is judged by where `self` leads."""
    from harness.agent.line_facts import line_remotes
    from harness.gitio.guard_config import remotes_and_notes_ref

    remote_urls, notes_ref = remotes_and_notes_ref(entries)
    return {**remote_urls, **line_remotes(subject.translate(_UNQUOTED))}, notes_ref


def framework_edit_dropped(path: Path, tool_name: str, tool_input: dict[str, Any]) -> list[str]:
    """The harness hooks an edit tool's write of the framework config at ``path`` would drop."""
    from harness.agent.judge import framework_config

    try:
        before = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        before = ""
    from harness.agent.framework_yaml import load_config

    if tool_name == "apply_patch":
        patch = next((v for k in ("command", "input", "patch") for v in [tool_input.get(k)] if isinstance(v, str)), "")
        return framework_config.patch_dropped(before, patch, load_config)
    after = framework_config.edited_text(tool_name, tool_input, before)
    return framework_config.dropped(before, after, load_config) if after is not None else []


ARCHIVE_SUFFIXES = (".tar", ".tgz", ".tar.gz", ".tbz2", ".tar.bz2", ".txz", ".tar.xz", ".zip")
MAX_ARCHIVE_BYTES = 64 << 20
MAX_MEMBERS = 20000


def archive_members(command: str, cwd: str) -> dict[str, tuple[str, ...]]:
    """The members of the archives a command line names and may extract (`tar -x`, `unzip`), by
    absolute path, so the guard judges where they land. Only small archives of plain files and
    folders are listed; one that cannot be (too big, unreadable, holding links) is left out and
    judged as before, blind."""
    if "tar" not in command and "unzip" not in command:
        return {}
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return {}
    found = {}
    for w in words:
        path = os.path.normpath(os.path.join(cwd, w.partition("=")[2] if w.startswith("--file=") else w))
        if w.endswith(ARCHIVE_SUFFIXES) and os.path.isfile(path) and os.path.getsize(path) <= MAX_ARCHIVE_BYTES:
            members = _list_archive(path)
            if members is not None:
                found[path] = members
    return found


def _list_archive(path: str) -> tuple[str, ...] | None:
    import tarfile
    import zipfile

    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                links = any((i.external_attr >> 16) & 0o170000 == 0o120000 for i in z.infolist())
        else:
            with tarfile.open(path) as t:
                infos = t.getmembers()
                names = [i.name for i in infos]
                links = any(not (i.isfile() or i.isdir()) for i in infos)
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError, ValueError):
        return None
    return tuple(names) if not links and len(names) <= MAX_MEMBERS else None
