"""What earlier stamps found, keyed by git object ids, so a stamp re-evaluates only what changed.

Every key names the exact content it was computed from (a task folder's tree id; with the
gate.yaml and config.yaml blob ids and the source tree for a gate verdict), so a hit is the
result a fresh computation would give. The file lives in the git directory, next to what it
describes. It is a log: a stamp appends only what it computed (one write), and the log is
rewritten, atomically, only when superseded lines pile up. A lost, torn or foreign line only
costs a recomputation.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from harness import __version__
from harness.errors import HarnessError

FORMAT = 4  # 2: gate facts carry the configured commands' identities (JUnit report, shell); 3: keyed by the
# approvals file; 4: facts that checked a signature, or read in a shallow clone, are not kept
KEEP = 4096  # entries kept at a rewrite besides the ones the last stamp used
# Bytes the log may hold: a quarter of what its reader accepts (file_caps' "cache"). Entries are not alike in size
# (a task's gate facts carry its suites' case lists, a megabyte each), and a log past the reader's cap skipped every
# later stamp (F-0147): an append that would pass the budget rewrites instead, keeping the newest that fit.
def budget() -> int:
    from harness.core.file_caps import CAPS

    return CAPS["cache"] // 4


class StampCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.old: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        self.new: dict[str, Any] = {}
        self.passing: set[str] = set()  # answered for this stamp only: neither appended nor kept at a rewrite
        self.lines = 0
        self.size = 0  # bytes of the log as read
        if path is None:
            return
        from harness.store import bounded

        # Bounded, regular files only: a FIFO here would hang every commit's stamp. Anything but
        # a regular file is refused (the stamp says so and skips); a torn or foreign one is ignored.
        try:
            content = bounded.read(path, "cache", f"the stamp cache {path}")
        except HarnessError as exc:
            if _regular_file(path):  # too big to read (an older harness let it grow): replaced, not a skipped stamp
                self.lines = -1
                return
            raise HarnessError(exc.message, hint=f"remove it (`rm {path}`): the next stamp writes a new one") from None
        if content is None:
            return
        self.size = len(content)
        raw = content.splitlines()
        # Another harness version may compute differently: its entries are not this one's.
        if not raw or raw[0] != self._header():
            self.lines = -1  # rewrite rather than append to a foreign or broken file
            return
        self.lines = len(raw)
        try:  # one parse of the whole log is several times faster than one per line
            pairs = json.loads(b"[" + b",".join(raw[1:]) + b"]")
        except ValueError:
            pairs = []
            for line in raw[1:]:
                try:
                    pairs.append(json.loads(line))
                except ValueError:
                    continue  # a torn line (a writer killed mid-append)
        for pair in pairs:
            if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str):
                self.old[pair[0]] = pair[1]

    @staticmethod
    def _header() -> bytes:
        return json.dumps({"harness": __version__, "format": FORMAT}).encode()

    def get(self, key: str) -> Any:
        """The value kept for ``key`` (None if unknown)."""
        if key in self.used:
            return self.used[key]
        value = self.old.get(key)
        if value is not None:
            self.used[key] = value
        return value

    def put(self, key: str, value: Any, keep: bool = True) -> Any:
        """Answer ``key`` with ``value`` for the rest of this stamp, and (``keep``) for later ones."""
        self.used[key] = value
        if not keep:
            self.passing.add(key)
            self.new.pop(key, None)
        else:
            self.passing.discard(key)
            if self.old.get(key) != value:
                self.new[key] = value
        return value

    def save(self) -> None:
        stale = bool(self.passing & self.old.keys())  # a kept answer this stamp replaced for itself alone: drop it
        if self.path is None or not (self.new or stale):
            return
        lines = [json.dumps([k, v], separators=(",", ":")).encode() for k, v in self.new.items()]
        try:
            kept = len(self.old) + len(self.new)
            fits = self.size + sum(len(line) + 1 for line in lines) <= budget()
            if not stale and fits and 0 < self.lines <= 2 * kept + 256 and kept <= len(self.used) + KEEP:
                from harness.store import bounded

                # One write (concurrent stamps do not interleave), to a regular file only.
                bounded.append(self.path, b"".join(line + b"\n" for line in lines), str(self.path))
                return
            self._rewrite()
        except (OSError, HarnessError):
            pass  # a cache: what is not kept is computed again

    def _rewrite(self) -> None:
        assert self.path is not None
        room = budget() - len(self._header()) - 1
        lines: dict[str, bytes] = {}
        # What this stamp used first, then the most recently written: each while the log stays within its budget.
        for key, value in [*reversed(self.used.items()), *reversed(self.old.items())]:
            if len(lines) >= len(self.used) + KEEP:
                break
            if key in self.passing or key in lines:
                continue
            line = json.dumps([key, value], separators=(",", ":")).encode() + b"\n"
            if len(line) <= room:
                lines[key] = line
                room -= len(line)
        body = b"".join(reversed(lines.values()))  # oldest first, as appends leave them: the newest wins a reread
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_bytes(self._header() + b"\n" + body)
            os.replace(tmp, self.path)
        finally:
            if tmp.exists():
                tmp.unlink()


def _regular_file(path: Path) -> bool:
    import stat

    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
