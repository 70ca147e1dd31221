"""What earlier stamps found, keyed by git object ids, so a stamp re-evaluates only what changed.

Every key names the exact content it was computed from (a task folder's tree id; with the
gate.yaml and config.yaml blob ids and the source tree for a gate verdict), so a hit is the
result a fresh computation would give. The file lives in the git directory, next to what it
describes, and is rewritten atomically; a lost or corrupt cache only costs a recomputation.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from harness import __version__

KEEP = 4096  # entries kept: every current task's, then the most recently used others


class StampCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.old: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        if path is None:
            return
        try:
            doc = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return
        # Another harness version may compute differently: its entries are not this one's.
        if isinstance(doc, dict) and doc.get("harness") == __version__ and isinstance(doc.get("entries"), dict):
            self.old = doc["entries"]

    def get(self, key: str) -> Any:
        """The value kept for ``key`` (None if unknown); it is kept again at the next save."""
        if key in self.used:
            return self.used[key]
        value = self.old.get(key)
        if value is not None:
            self.used[key] = value
        return value

    def put(self, key: str, value: Any) -> Any:
        self.used[key] = value
        return value

    def save(self) -> None:
        if self.path is None or not self.used:
            return
        entries = dict(self.used)
        for key, value in self.old.items():
            if len(entries) >= KEEP:
                break
            entries.setdefault(key, value)
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"harness": __version__, "entries": entries}, separators=(",", ":")), "utf-8")
            os.replace(tmp, self.path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
