"""The git hook stages the harness answers, and the checks each runs: the one table the launcher
(:mod:`harness.cli.launch`), the stage runner (`harness hook run`), the installer
(:mod:`harness.install.shims`) and the generated files (:mod:`harness.install.hook_files`:
``.pre-commit-hooks.yaml`` and the native shim ``hooks/native-hook``) read.

Read on every commit before anything else is imported: plain tuples, no imports.
"""

from __future__ import annotations


class Stage:
    """One git hook: what it runs (`harness hook CHECK`, in order, stopping at the first failure)."""

    __slots__ = ("checks", "name", "reads_stdin", "server", "skips_code_only")

    def __init__(self, name: str, checks: tuple[str, ...], *, reads_stdin: bool = False,
                 skips_code_only: bool = False, server: bool = False) -> None:
        self.name = name
        self.checks = checks
        self.reads_stdin = reads_stdin          # git writes lines on stdin (refs, rewritten pairs)
        self.skips_code_only = skips_code_only  # a code-only commit leaves these checks nothing to judge
        self.server = server                    # installed by `harness install --server` only

    def __repr__(self) -> str:
        return f"Stage({self.name!r}, {self.checks!r})"


STAGES = (
    # The merge guard judges nothing unless a merge is being concluded: at pre-commit it runs for
    # the `git commit` that concludes a conflicted merge.
    Stage("pre-commit", ("validate", "merge-guard"), skips_code_only=True),
    Stage("pre-merge-commit", ("validate", "merge-guard")),
    Stage("post-commit", ("stamp",)),
    Stage("post-merge", ("stamp",)),
    Stage("post-rewrite", ("stamp",), reads_stdin=True),
    Stage("pre-push", ("push-guard",), reads_stdin=True),
    Stage("pre-receive", ("pre-receive",), reads_stdin=True, server=True),
)

CLIENT_STAGES = tuple(s.name for s in STAGES if not s.server)
SERVER_STAGES = tuple(s.name for s in STAGES if s.server)


class FrameworkHook:
    """One hook id of ``.pre-commit-hooks.yaml``: `harness hook CHECK` at every client stage
    whose checks name CHECK (none: the framework's manual stage, run by hand or by CI)."""

    __slots__ = ("check", "description", "id", "name", "verbose")

    def __init__(self, hook_id: str, check: str, name: str, description: str, verbose: str = "") -> None:
        self.id = hook_id
        self.check = check
        self.name = name
        self.description = description
        self.verbose = verbose  # why a passing hook's output is shown ("": it is not)

    @property
    def stages(self) -> tuple[str, ...]:
        return tuple(s.name for s in STAGES if not s.server and self.check in s.checks) or ("manual",)


FRAMEWORK_HOOKS = (
    FrameworkHook(
        "harness-validate", "validate", "harness — validate staged .harness/ changes",
        "Schemas, append-only hash-chained ledgers, legal transitions, projections agree, DONE only with a gate "
        "PASS for the committed tree, gate.yaml only tightened."),
    FrameworkHook(
        "harness-stamp", "stamp", "harness — stamp the new HEAD (git notes)",
        "Records task states, gate verdicts and fresh evidence on the new commit. Never fails a commit; its "
        "warnings (this commit will be refused at push) are always shown.",
        verbose="A passing hook's output is hidden by the framework unless verbose: the warning is the point."),
    FrameworkHook(
        "harness-merge-guard", "merge-guard", "harness — merge guard",
        "A merge bringing in a commit that marks a task DONE needs a fresh gate PASS recorded at that commit."),
    FrameworkHook(
        "harness-push-guard", "push-guard", "harness — push guard",
        "Validates every pushed commit (catches --no-verify) and re-evaluates the gate at every commit that "
        "marks a task DONE.",
        verbose="its warnings (a notes ref hiding other refs) matter most when it passes"),
    FrameworkHook(
        "harness-gate", "gate", "harness — quality gate report",
        "The gate on exactly the tree in the index, what is being committed (exit 0 PASS, 1 BLOCKED or no task "
        "to judge, 2 invalid). Records nothing tracked; `harness gate` by hand records.",
        verbose="the report is the point, PASS included"),
    FrameworkHook(
        "harness-audit", "audit-range", "harness — audit a commit range",
        "The push-guard checks over --from-ref/--to-ref (pre-commit run --hook-stage manual harness-audit "
        "--from-ref A --to-ref B), for CI."),
)

# The hook ids the framework runs at git's own stages: set up, they run what the shims run.
FRAMEWORK_STAGE_HOOK_IDS = tuple(h.id for h in FRAMEWORK_HOOKS if h.stages != ("manual",))


def stage(name: str) -> Stage | None:
    return next((s for s in STAGES if s.name == name), None)


def commit_check_calls() -> tuple[list[str], ...]:
    """The `harness` argv prefixes of a commit's checks that a code-only commit answers at once:
    the framework's (`hook validate`, `hook merge-guard`) and the shims' (`hook run pre-commit`)."""
    skipping = [s for s in STAGES if s.skips_code_only]
    checks = dict.fromkeys(c for s in skipping for c in s.checks)
    return (*(["hook", c] for c in checks), *(["hook", "run", s.name] for s in skipping))


def push_calls() -> tuple[list[str], ...]:
    """The `harness` argv prefixes of the push guard: a code-only push is answered from git before the CLI."""
    return (["hook", "push-guard"], *(["hook", "run", s.name] for s in STAGES if s.checks == ("push-guard",)))


def stamp_calls() -> tuple[list[str], ...]:
    """The `harness` argv prefixes that only stamp HEAD (answered without the CLI)."""
    return (["hook", "stamp"], *(["hook", "run", s.name] for s in STAGES if s.checks == ("stamp",)))
