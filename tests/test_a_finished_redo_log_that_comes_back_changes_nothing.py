"""The redo log's removal is not fsynced (an fsync less on every write): a crash may bring back a
log whose renames were all done. Rolling it forward again must change nothing, even after later
writes to the same files."""

from __future__ import annotations

import json

from harness.store import fsio


def test_a_redo_log_brought_back_after_its_renames_changes_nothing(tmp_path):
    journal, a, b = tmp_path / "journal", tmp_path / "t/a.yaml", tmp_path / "t/b.jsonl"
    fsio.commit_files(journal, {a: b"first a\n", b: b"first b\n"})
    assert not journal.exists()
    # What the first write promised, as its log said (its temps were renamed away since).
    temps = [(str(a.parent / f".{a.name}.gone.tmp"), str(a)), (str(b.parent / f".{b.name}.gone.tmp"), str(b))]
    fsio.commit_files(journal, {a: b"second a\n"})
    journal.write_text(json.dumps(temps), "utf-8")  # the unlink lost in a crash: the log is back
    assert fsio.roll_forward(journal) is True
    assert a.read_bytes() == b"second a\n" and b.read_bytes() == b"first b\n"
    assert not journal.exists()
    assert fsio.roll_forward(journal) is False
