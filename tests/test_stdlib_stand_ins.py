"""What a recording uses instead of tempfile, shutil.which and datetime (their imports were a tenth of
`harness evidence`'s fixed cost): each gives the answers of the module it stands in for."""

from __future__ import annotations

import os
import random
import shutil
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from harness import scratch_files
from harness.evidence.record import _which, program_of
from harness.store.tasks import iso_utc


def test_a_scratch_file_is_new_private_and_named_as_asked(tmp_path):
    fd, path = scratch_files.create(tmp_path, ".ledger.", ".tmp")
    os.close(fd)
    name = os.path.basename(path)
    assert os.path.dirname(path) == str(tmp_path)
    assert name.startswith(".ledger.") and name.endswith(".tmp") and len(name) > len(".ledger..tmp")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_scratch_file_never_opens_what_stands_at_its_name(tmp_path, monkeypatch):
    # A name already taken (a file, or a link an attacker placed) is skipped, never opened.
    (tmp_path / "x.aaaaaaaaaaaa").write_text("someone else's")
    os.symlink(tmp_path / "elsewhere", tmp_path / "x.bbbbbbbbbbbb")
    names = iter([b"\xaa" * 6, b"\xbb" * 6, b"\xcc" * 6])
    monkeypatch.setattr(os, "urandom", lambda n: next(names))
    fd, path = scratch_files.create(tmp_path, "x.")
    os.close(fd)
    assert path == str(tmp_path / "x.cccccccccccc")
    assert (tmp_path / "x.aaaaaaaaaaaa").read_text() == "someone else's"
    assert not (tmp_path / "elsewhere").exists()


def test_a_folder_full_of_taken_names_is_an_error_not_a_loop(tmp_path, monkeypatch):
    (tmp_path / "x.000000000000").write_text("")
    monkeypatch.setattr(os, "urandom", lambda n: b"\0" * n)
    with pytest.raises(FileExistsError, match="no unused temporary name"):
        scratch_files.create(tmp_path, "x.")


def test_a_copy_keeps_the_bytes_and_the_times_git_reads(tmp_path):
    source = tmp_path / "index"
    source.write_bytes(os.urandom(3 << 20))  # more than one chunk
    os.utime(source, ns=(1_600_000_000_123_456_789, 1_700_000_000_987_654_321))
    fd, path = scratch_files.create(tmp_path, "copy.")
    try:
        scratch_files.copy_with_times(str(source), fd)
    finally:
        os.close(fd)
    assert Path(path).read_bytes() == source.read_bytes()
    assert os.stat(path).st_mtime_ns == source.stat().st_mtime_ns


def _executable(path, mode=0o755):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(mode)
    return path


def test_which_finds_what_shutil_which_finds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _executable(tmp_path / "a" / "tool", 0o644)             # not executable: skipped
    _executable(tmp_path / "b" / "tool")                     # the first executable one
    _executable(tmp_path / "c" / "tool")
    (tmp_path / "d" / "tool").mkdir(parents=True)            # a folder of that name: skipped
    _executable(tmp_path / "tool")                           # found through an empty entry (this folder)
    entries = ["a", "d", "b", "c", "", str(tmp_path / "a"), "missing"]
    for _ in range(200):
        path = os.pathsep.join(random.sample(entries, random.randint(0, len(entries))))
        assert _which("tool", path) == shutil.which("tool", path=path), path
    assert _which("tool", "") is None and shutil.which("tool", path="") is None


def test_the_program_a_recording_names_is_found_on_the_commands_path(tmp_path):
    tool = _executable(tmp_path / "bin" / "mytool")
    assert program_of(["mytool", "-q"], tmp_path, {"PATH": str(tmp_path / "bin")}) == str(tool)
    assert program_of(["mytool"], tmp_path, {"PATH": str(tmp_path)}) is None
    assert program_of(["./bin/mytool"], tmp_path, {"PATH": ""}) == str(tool)


@pytest.mark.parametrize("milliseconds", [True, False])
def test_the_clock_reads_as_datetime_writes_it(milliseconds):
    spec = "milliseconds" if milliseconds else "seconds"
    edges = [0.0, 1.5, -1.25, -0.0000001, 1764889454.9999996, 1764889454.0004994, 1764889454.9995, 1e9 + 0.123456789, 4102444799.9999]
    for t in edges + [random.uniform(0, 4.1e9) for _ in range(20_000)]:
        want = datetime.fromtimestamp(t, UTC).isoformat(timespec=spec).replace("+00:00", "Z")
        assert iso_utc(t, milliseconds) == want, t


def test_the_clock_without_an_argument_is_now():
    # Between two readings of datetime's clock taken around it: the same clock, not a speed.
    readings = [datetime.now(UTC).replace(microsecond=0)]
    read = datetime.strptime(iso_utc(), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    readings.append(datetime.now(UTC))
    assert sorted([*readings, read])[1] == read
