"""config.yaml and gate.yaml: read, validated, with their digests — the one reader of each.

Every front end that needs a setting (evidence, the gate's input, audit --rerun, the
stamp, approvals, install) gets it from here as a typed value, so "a string command
becomes argv unless it runs through a shell" is written once.
"""

from __future__ import annotations

import shlex

from harness import paths
from harness.core.sha256 import sha256
from harness.core.value_class import dataclass, field
from harness.errors import GATE_INVALID, HarnessError
from harness.store import bounded, validate, yamlio
from harness.store.layout import Layout

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from harness.store.source import Source

CONFIG = paths.CONFIG
GATE = paths.GATE
DEFAULT_OUTPUT = {"tail_bytes": 8192, "log_cap_bytes": 8 * 1024 * 1024}
DEFAULT_NOTES_REF = "refs/notes/harness"
DEFAULT_STOP_BLOCK_LIMIT = 3
# Variables that change what a test command does without changing its argv: which
# interpreter a bare `python3` is, what it imports, which options pytest or node add.
DEFAULT_RECORDED_ENV = ("PATH", "PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "NODE_OPTIONS", "VIRTUAL_ENV",
                        "PYTHONPYCACHEPREFIX")


@dataclass(frozen=True)
class Command:
    """One evidence type's configured command."""

    raw: list[str] | str          # as config.yaml gives it
    shell: bool = False
    timeout: float | None = None
    junit: str | None = None

    @property
    def argv(self) -> list[str]:
        """The argv an evidence record shows for it: a list as given, a string split like a
        shell would unless it runs through one."""
        if isinstance(self.raw, list):
            return list(self.raw)
        return [self.raw] if self.shell else shlex.split(self.raw)

    def identity(self) -> dict[str, Any]:
        """What a run must match to be this check (see :func:`harness.core.gate.command_identity`)."""
        from harness.core.gate import command_identity

        # The shell is part of a list command's identity too: a run through one is not the list's (F-0335).
        return command_identity(self.argv, self.junit, self.shell)

    def to_run(self) -> list[str] | str:
        """What the runner is handed: a list as given, a string as config.yaml runs it (split unless in a shell)."""
        if isinstance(self.raw, list) or self.shell:
            return list(self.raw) if isinstance(self.raw, list) else self.raw
        return shlex.split(self.raw)


@dataclass(frozen=True)
class Config:
    commands: dict[str, Command] = field(default_factory=dict)
    tail_bytes: int = DEFAULT_OUTPUT["tail_bytes"]
    log_cap_bytes: int = DEFAULT_OUTPUT["log_cap_bytes"]
    redaction: tuple[str, ...] = ()
    notes_ref: str = DEFAULT_NOTES_REF
    recorded_env: tuple[str, ...] = DEFAULT_RECORDED_ENV  # environment variables evidence records
    stop_block_limit: int = DEFAULT_STOP_BLOCK_LIMIT  # agent stop hook: consecutive blocks before it lets go

    def configured_identity(self) -> dict[str, dict[str, Any]]:
        return {etype: c.identity() for etype, c in self.commands.items()}

    def configured_argv(self) -> dict[str, list[str]]:
        """type -> the argv config.yaml names for it, as an evidence record would show it."""
        return {etype: c.argv for etype, c in self.commands.items()}


@dataclass(frozen=True)
class GatePolicy:
    doc: dict[str, Any]  # the validated `gate:` mapping
    digest: str          # sha-256 of gate.yaml's bytes; a gate PASS is bound to it

    def required_types(self) -> list[str]:
        return [t for t, v in self.doc["verification"].items() if v == "required"]

    @property
    def suite(self) -> dict[str, Any] | None:
        """The `suite:` section (protected paths, the test type PASS_TO_PASS runs), if any."""
        return self.doc.get("suite")


def config_from_doc(doc: dict[str, Any]) -> Config:
    from harness.core.redaction_patterns import compiled

    patterns = tuple((doc.get("redaction") or {}).get("patterns") or ())
    try:  # refused by every reader, not only by the evidence run that compiles it
        compiled(patterns)
    except HarnessError as exc:
        raise HarnessError(f"{CONFIG}: {exc.message}", exc.hint) from None
    from harness.core.evidence_types import BUILTIN

    builtin = [t for t in BUILTIN if t in (doc.get("evidence") or {})]
    if builtin:  # the harness runs these itself: a command of the project's would be what it checks
        raise HarnessError(f"{CONFIG}: evidence.{builtin[0]}: the harness runs {builtin[0]} itself; it takes no command",
                           hint=f"remove evidence.{builtin[0]} (gate.yaml's suite: section configures it)")
    for etype, conf in (doc.get("evidence") or {}).items():
        _refuse_shell_syntax(etype, conf)
    output = {**DEFAULT_OUTPUT, **(doc.get("output") or {})}
    commands = {etype: Command(conf["command"], bool(conf.get("shell")), conf.get("timeout"), conf.get("junit"))
                for etype, conf in (doc.get("evidence") or {}).items()}
    return Config(commands, output["tail_bytes"], output["log_cap_bytes"], patterns,
                  (doc.get("notes") or {}).get("ref") or DEFAULT_NOTES_REF,
                  tuple(doc["recorded_env"]) if doc.get("recorded_env") is not None else DEFAULT_RECORDED_ENV,
                  int((doc.get("agent") or {}).get("stop_block_limit") or DEFAULT_STOP_BLOCK_LIMIT))


def _refuse_shell_syntax(etype: str, conf: dict[str, Any]) -> None:
    """A string command is split into arguments unless a shell runs it: `pytest && echo ok` would
    run pytest with `&&` as an argument, and mean something else than it says."""
    from harness.core.shell_syntax import shell_syntax

    raw = conf.get("command")
    if isinstance(raw, str) and not conf.get("shell"):
        found = shell_syntax(raw)
        if found:
            raise HarnessError(f"{CONFIG}: evidence.{etype}.command {raw!r} has shell syntax ({found!r}) but no "
                               "shell runs it: split into arguments it would mean something else",
                               hint=f"set evidence.{etype}.shell: true to run it in a shell, or write the command "
                                    "as a list of arguments")


def parse_config(raw: bytes | None, name: str = CONFIG, cache: Path | None = None) -> Config:
    """config.yaml's settings; a missing file (None) means the defaults and no commands. ``cache``: where
    its reader keeps the digests of valid files (harness.store.validate)."""
    if raw is None:
        return Config()
    doc = yamlio.parse(raw, name)
    validate.check(doc, "config", name, raw, cache)
    return config_from_doc(doc or {})


def config_of(src: Source) -> Config:
    """config.yaml as ``src`` (the working tree or a commit) holds it."""
    return parse_config(src.read(CONFIG), cache=src.valid_cache)


def load_config(layout: Layout) -> Config:
    """The working tree's config.yaml; missing is an error here (`harness init` writes it)."""
    raw = bounded.read(layout.config, "settings", CONFIG)  # regular file, capped while read
    if raw is None:
        raise HarnessError(f"{CONFIG}: missing")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HarnessError(f"{CONFIG}: not UTF-8 text (byte {exc.start})") from None
    doc = yamlio.parse(raw, CONFIG)
    validate.check(doc, "config", CONFIG, raw, layout.valid_cache)
    return config_from_doc(doc if isinstance(doc, dict) else {})


def patterns_in(raw: bytes | None) -> tuple[str, ...]:
    """config.yaml's `redaction.patterns`, read leniently, for a secret check of text no schema vouches for (a note, the
    messages it quotes about a broken commit): a config with another problem still names what the project calls
    secret, and a pattern that is no regex is left out, not the ones beside it. None, or no YAML: none."""
    from harness.core.redaction_patterns import compiled

    try:
        doc = yamlio.parse(raw, CONFIG) if raw else None
    except HarnessError:
        return ()
    section = doc.get("redaction") if isinstance(doc, dict) else None
    listed = section.get("patterns") if isinstance(section, dict) else None
    kept: dict[str, None] = {}
    for pattern in listed if isinstance(listed, list) else ():
        try:
            compiled([pattern])
        except HarnessError:
            continue
        kept[pattern] = None
    return tuple(kept)


def worktree_patterns(root: Path) -> tuple[str, ...]:
    """:func:`patterns_in` of the work tree's config.yaml under ``root`` (none in a bare repository): what the
    repository holds now, beside what a commit held."""
    try:
        return patterns_in(bounded.read(root / CONFIG, "settings", CONFIG))
    except HarnessError:
        return ()


def notes_ref_of(raw: bytes | None) -> str:
    """The notes ref, read leniently (hooks stamp even beside a broken config.yaml)."""
    try:
        doc = yamlio.parse(raw, CONFIG) if raw else None
        return ((doc or {}).get("notes") or {}).get("ref") or DEFAULT_NOTES_REF
    except (HarnessError, AttributeError):
        return DEFAULT_NOTES_REF


def parse_gate(raw: bytes, name: str = GATE, cache: Path | None = None) -> GatePolicy:
    doc = yamlio.parse(raw, name)
    validate.check(doc, "gate", name, raw, cache)
    return GatePolicy(doc["gate"], sha256(raw).hexdigest())


def load_gate(layout: Layout) -> GatePolicy:
    """The working tree's gate.yaml; a file missing, unreadable or invalid raises HarnessError of kind GATE_INVALID
    (what clears it is a fix or a revert of gate.yaml, read 114's F-0403)."""
    try:
        # Not following a symlink: git commits the link, not the policy it points to.
        raw = bounded.read(layout.gate, "settings", GATE)
        if raw is None:
            raise HarnessError(f"{GATE}: missing", hint="run `harness init --restore-gate` to put back the "
                                   "committed policy")
        return parse_gate(raw, cache=layout.valid_cache)
    except HarnessError as exc:
        raise HarnessError(exc.message, exc.hint, kind=GATE_INVALID) from None
