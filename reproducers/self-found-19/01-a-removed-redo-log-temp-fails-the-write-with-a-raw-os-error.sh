#!/usr/bin/env bash
# Defect: harness/store/fsio.py commit_files writes its redo log with atomic_write, whose temp `git clean -fdX` (which
#   does not wait for the store's lock) may remove between its write and its rename: os.replace raises
#   FileNotFoundError, and the command dies with a raw OS error (exit 2, "No such file or directory") that names no
#   cause. The write's own temps are put back from the bytes in hand (F-0381); the log's and a single file's are not.
# Correct: a temp removed before its rename is written again from the bytes in hand and the write goes through; one
#   removed every time is refused with a message naming the cause (something cleaning in a loop), nothing written.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
"$here"/.venv/bin/python - "$T" <<'PY'
import glob, os, sys
from pathlib import Path

from harness.store import fsio

root = Path(sys.argv[1])
(root / "task").mkdir()
a, b, journal = root / "task/a.yaml", root / "task/b.yaml", root / "local/journal"
a.write_bytes(b"old a\n"); b.write_bytes(b"old b\n"); journal.parent.mkdir()
removed = []

def clean() -> None:  # what `git clean -fdX` does to the ignored temps while the command writes
    for tmp in glob.glob(str(journal.parent / ".journal.*.tmp")):
        os.unlink(tmp); removed.append(tmp)

fsio.step = clean
try:
    fsio.commit_files(journal, {a: b"new a\n", b: b"new b\n"})
except Exception as exc:
    print(f"DEFECT: the write died when its redo log's temp was removed: {type(exc).__name__}: {exc}")
    sys.exit(1)
if not removed:
    print("setup: no temp was removed"); sys.exit(2)
if (a.read_bytes(), b.read_bytes()) != (b"new a\n", b"new b\n") or journal.exists():
    print("DEFECT: the write reported done but its files do not hold it"); sys.exit(1)
print("OK: the redo log's temp, removed before its rename, was written again and the write went through")
PY
