"""config.yaml and gate.yaml: read, validated, with their digests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from harness.store import validate, yamlio
from harness.store.layout import Layout

DEFAULT_OUTPUT = {"tail_bytes": 8192, "log_cap_bytes": 8 * 1024 * 1024}
DEFAULT_NOTES_REF = "refs/notes/harness"


@dataclass(frozen=True)
class GatePolicy:
    doc: dict      # the validated `gate:` mapping
    digest: str    # sha-256 of gate.yaml's bytes; a gate PASS is bound to it

    def required_types(self) -> list[str]:
        return [t for t, v in self.doc["verification"].items() if v == "required"]


def _read(path, schema: str, name: str) -> tuple[dict, bytes]:
    raw = path.read_bytes() if path.exists() else None
    doc = yamlio.read(path, name)
    validate.check(doc, schema, name, raw)
    return doc, raw or b""


# Variables that change what a test command does without changing its argv: which
# interpreter a bare `python3` is, what it imports, which options pytest or node add.
DEFAULT_RECORDED_ENV = ("PATH", "PYTHONPATH", "PYTEST_ADDOPTS", "NODE_OPTIONS", "VIRTUAL_ENV")


def load_config(layout: Layout) -> dict:
    doc, _ = _read(layout.config, "config", ".harness/config.yaml")
    return {
        "evidence": doc.get("evidence") or {},
        "output": {**DEFAULT_OUTPUT, **(doc.get("output") or {})},
        "redaction": (doc.get("redaction") or {}).get("patterns") or [],
        "notes_ref": (doc.get("notes") or {}).get("ref") or DEFAULT_NOTES_REF,
        "recorded_env": list(doc["recorded_env"]) if doc.get("recorded_env") is not None else list(DEFAULT_RECORDED_ENV),
    }


def parse_gate(raw: bytes, name: str = ".harness/gate.yaml") -> GatePolicy:
    doc = yamlio.parse(raw, name)
    validate.check(doc, "gate", name, raw)
    return GatePolicy(doc["gate"], hashlib.sha256(raw).hexdigest())


def load_gate(layout: Layout) -> GatePolicy:
    try:
        raw = layout.gate.read_bytes()
    except FileNotFoundError:
        from harness.errors import HarnessError

        raise HarnessError(".harness/gate.yaml: missing", hint="run `harness init` to restore the default policy") from None
    return parse_gate(raw)
