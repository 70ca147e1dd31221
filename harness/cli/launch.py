"""The `harness` entry point: answers the git-hook calls that need no CLI, then hands over to click.

A hook runs on every commit. For a code-only commit (no `.harness/` path staged, no merge
being concluded) the commit-time checks have nothing to judge, and git alone can say so:
answering before click, pygit2 or any check is imported keeps such a commit close to what a
bare Python hook costs. The stamp after a commit is answered here too, without click.
"""

from __future__ import annotations

import sys

from harness.install import (
    hook_stages,  # (argv prefix) -> what it is; `hook run STAGE` is the native shims', the others the framework's
)

COMMIT_CHECKS = hook_stages.commit_check_calls()
PUSHES = hook_stages.push_calls()
STAMPS = hook_stages.stamp_calls()


def fast_answer(argv: list[str]) -> int | None:
    """The exit code of a hook call answered without the CLI, or None to run the CLI."""
    from harness import context

    with context.command():  # a command of its own, as main() opens one (harness.context)
        return _answer(argv)


def _answer(argv: list[str]) -> int | None:
    if argv[:2] == ["hook", "agent"]:
        return _agent_hook(argv[2:])
    if argv == ["--version"]:
        return _version()
    if argv[:1] == ["status"]:
        from harness.cli.status_fast import answer

        return answer(argv[1:])
    if argv[:1] == ["evidence"]:
        from harness.cli.evidence_fast import answer as record

        return record(argv[1:])
    if any(argv[:len(p)] == p for p in COMMIT_CHECKS) and not _options(argv):
        from harness.gitio.fast_path import staged_nothing_to_judge

        return 0 if staged_nothing_to_judge() else None
    for prefix in PUSHES:
        if argv[:len(prefix)] == prefix and not _options(argv[len(prefix):]):
            return push_answer(argv[len(prefix):])
    if any(argv[:len(p)] == p for p in STAMPS) and not _options(argv):
        if _reads_stdin(argv) and sys.stdin is not None and not sys.stdin.isatty():
            sys.stdin.read()  # the rewritten pairs: HEAD's stamp is all this stage records
        stamp_head()
        return 0
    return None


def _options(argv: list[str]) -> bool:
    """Whether a hook call carries an option (`-h`, `--help`, one click refuses): click answers those, as
    the full path would (#28's task F-0140). The hooks' own calls pass none: stage, remote, filenames."""
    return any(arg.startswith("-") for arg in argv)


def _reads_stdin(argv: list[str]) -> bool:
    """Whether ``argv`` is a shim's call for a stage git writes lines to on stdin."""
    stage = hook_stages.stage(argv[2]) if argv[:2] == ["hook", "run"] and len(argv) > 2 else None
    return stage is not None and stage.reads_stdin


def _agent_hook(args: list[str]) -> int | None:
    """`hook agent HOST EVENT`, the agent's guard before every tool call: answered by the code the click
    command runs (harness.cli.agent_hook), without click. Anything else (a bad HOST, --help) is click's."""
    from harness.cli.agent_hook import EVENTS, HOSTS, answer

    if len(args) != 2 or args[0] not in HOSTS or args[1] not in EVENTS:
        return None
    return answer(args[0], args[1])  # which says a wait for a lock on stderr, as main() does


def _version() -> int:
    """`harness --version` in click's words. The package's own version, which a test holds equal to
    the distribution's that click reads (importlib.metadata alone costs 20 times the answer)."""
    from harness import __version__

    try:
        print(f"harness, version {__version__}", flush=True)
    except BrokenPipeError:
        from harness.cli.plain_echo import reader_gone

        return reader_gone()
    return 0


def push_answer(args: list[str]) -> int | None:
    """A code-only push's answer from git alone (:mod:`harness.gitio.push_fast_path`), or None.
    The refs git gives on standard input are read here and put back for the full path."""
    import io
    import os

    try:
        if sys.stdin is None or sys.stdin.isatty():
            return None
        data = sys.stdin.buffer.read()
    except (AttributeError, OSError, ValueError):
        return None  # no standard input to read here: the full path reads what it can
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    from harness.gitio.push_fast_path import code_only_push, in_a_worktree

    if not in_a_worktree():
        return None  # the full path says where it looked
    # As the push guard names the remote: a push to a bare URL names none.
    remote = args[0] if args and args[0] != (args[1] if len(args) > 1 else None) else None
    remote = remote or os.environ.get("PRE_COMMIT_REMOTE_NAME")
    checked = code_only_push(data.splitlines(), remote)
    if checked is None or not _notes_clean(data.splitlines(), remote):
        return None
    print(f"harness: push guard: {checked} commit(s) checked, no problems", file=sys.stderr)
    return 0


def _notes_clean(lines: list[bytes], remote: str | None) -> bool:
    """Whether every note the push's notes refs add reads clean (F-0355); False also when in doubt: the full push
    guard then reads them, and names what it refuses."""
    from harness.gitio.push_fast_path import pushed_notes, worktree_root

    found = pushed_notes(lines, remote)
    if found is None:
        return False
    notes, configs = found
    if not notes:
        return True
    from pathlib import Path

    from harness.store.note_check import flagged, patterns_of

    root = worktree_root()
    return not flagged(notes, patterns_of(configs, Path(root) if root is not None else None))


def stamp_head() -> None:
    """Stamp HEAD with a git note and warn of what the push guard will refuse. Never fails."""
    from harness.errors import HarnessError

    stage = ["stamp"]
    try:
        from harness.history.stamp_head import stamp_head as stamp_and_check

        found = stamp_and_check(lambda step: stage.append(step))
        if found and found[1]:
            print(render_problems("WARNING: this commit will be refused at push", found[1], found[0]),
                  file=sys.stderr)
    except HarnessError as exc:
        print(f"harness: {stage[-1]} skipped: {exc.render()}", file=sys.stderr)
    except Exception as exc:  # after the commit there is nothing to refuse: say so, and keep a crash log
        from harness import crashlog

        log = crashlog.write(exc)
        print(f"harness: {stage[-1]} skipped after an internal error ({crashlog.describe(exc)})"
              + (f", crash log: {log}" if log else ""), file=sys.stderr)


def render_problems(title: str, problems: list, commit: str | None = None) -> str:
    where = f" in commit {commit[:12]}" if commit else ""
    return "\n".join([f"harness: {title}{where} — refused:", *(f"  {p.render()}" for p in problems)])


def entry() -> None:
    from harness.cli.streams import degrade_to_ascii

    degrade_to_ascii()  # before anything prints: a narrow locale gets ASCII, never a UnicodeEncodeError
    answered_fast = False
    try:
        code = _fast_answer_guarded(sys.argv[1:])
        answered_fast = code is not None and (sys.argv[1:2] == ["evidence"]
                                              or any(sys.argv[1:1 + len(p)] == p for p in PUSHES))
        if code is None:
            from harness.cli.main import main

            code = main()
    except KeyboardInterrupt:
        code = _interrupted()
    except Exception as exc:
        # Ctrl-C while a module loads lazily (pygit2 on first use) leaves it half made; the
        # `except pygit2.GitError` that then reads it raises AttributeError over the interrupt.
        from harness.cli.crash import from_interrupt

        if not from_interrupt(exc):
            raise
        code = _interrupted()
    # The guard, before every tool call; a code-only push, answered from git before the CLI loaded; a
    # recording answered before click (harness.cli.evidence_fast), whose teardown of the two hundred modules
    # it loaded cost about a tenth of the recording.
    if (sys.argv[1:2] == ["hook"] and sys.argv[-1:] == ["pre-tool-use"]) or answered_fast:
        from harness.cli.quick_exit import exit_now

        exit_now(code)  # without the interpreter's teardown, when this process is the harness program alone
    sys.exit(code)


def _fast_answer_guarded(argv: list[str]) -> int | None:
    """:func:`fast_answer`, under the hooks' crash guard (main() guards what follows)."""
    if argv[:1] != ["hook"]:
        return fast_answer(argv)
    from harness.cli import crash

    with crash.guard(crash.refuse):  # nothing here reports its own errors: each is a crash
        return fast_answer(argv)


def _interrupted() -> int:
    from harness.errors import EXIT_INTERRUPTED

    print("harness: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED
