"""Every file the harness reads goes through one bounded reader: regular files only, read
no further than a per-kind cap, decoding limits reported as the user-facing error (exit 2)."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.store import bounded


def tdir(repo: Path, tid: str) -> Path:
    return repo / ".harness" / "tasks" / tid


def clean(r) -> None:
    assert "Traceback" not in r.text, r.text


# -- the reader itself ---------------------------------------------------------------------

def test_a_regular_file_reads_whole_and_a_missing_one_reads_none(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    assert bounded.read(tmp_path / "f", "yaml") == b"abc"
    assert bounded.read(tmp_path / "absent", "yaml") is None


@pytest.mark.parametrize("make, what", [
    (lambda p: os.mkfifo(p), "a FIFO"),
    (lambda p: p.mkdir(), "a folder"),
    (lambda p: p.symlink_to("/dev/zero"), "a symlink"),
])
def test_special_files_are_refused_unread_naming_the_path(tmp_path, monkeypatch, make, what):
    # Opened without blocking (a FIFO with no writer) and refused before a byte is read (a FIFO
    # or /dev/zero would never end).
    path = tmp_path / "gate.yaml"
    make(path)
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(fd) or real_read(fd, n))
    with pytest.raises(HarnessError) as err:
        bounded.read(path, "settings", ".harness/gate.yaml")
    assert err.value.message.startswith(f".harness/gate.yaml: cannot read {what}"), err.value.message
    assert reads == []


def test_a_file_the_user_names_may_be_a_link_but_not_to_a_device(tmp_path):
    (tmp_path / "real.yaml").write_bytes(b"x: 1\n")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    assert bounded.read(tmp_path / "link.yaml", "input", follow=True) == b"x: 1\n"
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(HarnessError, match="character device"):
        bounded.read(tmp_path / "zero", "input", follow=True)


def test_the_cap_is_enforced_while_reading_not_after(tmp_path):
    huge = tmp_path / "config.yaml"
    with open(huge, "wb") as fh:  # a sparse 2 GiB file: reading it whole would cost 2 GiB
        fh.truncate(2 * 1024 ** 3)
    tracemalloc.start()
    try:
        with pytest.raises(HarnessError, match="larger than the 8 MiB limit for a settings file"):
            bounded.read(huge, "settings", ".harness/config.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 1024 * 1024, peak


def test_a_large_log_is_hashed_in_bounded_memory(tmp_path):
    log = tmp_path / "unit.log"
    log.write_bytes(b"line\n" * (6 * 1024 * 1024 // 5))
    import hashlib

    tracemalloc.start()
    try:
        got = bounded.sha256(log, "log")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == hashlib.sha256(log.read_bytes()).hexdigest()
    assert peak < 4 * 1024 * 1024, peak


# -- through the CLI -----------------------------------------------------------------------

def test_a_fifo_in_place_of_a_task_file_is_refused_not_waited_on(h, repo, task):
    path = tdir(repo, task) / "requirements.yaml"
    path.unlink()
    os.mkfifo(path)
    for args in (("status",), ("replay",), ("gate",)):
        r = h.proc(*args, timeout=60)
        assert r.code == 2, (args, r.out, r.err)
        assert f".harness/tasks/{task}/requirements.yaml: cannot read a FIFO" in r.text  # gate reports on stdout
        assert "Traceback" not in r.text


def test_a_fifo_as_config_yaml_is_refused_and_writers_are_not_blocked(h, repo, task):
    cfg = repo / ".harness/config.yaml"
    cfg.unlink()
    os.mkfifo(cfg)
    r = h.proc("status", timeout=60)
    assert r.code == 2 and ".harness/config.yaml: cannot read a FIFO" in r.err, r.err
    # The reader released the lock: a writer gets through.
    assert h.proc("requirement", "add", "Still writable", "--priority", "must", timeout=60).code == 0


def test_gate_yaml_as_a_symlink_is_refused_even_to_dev_zero(h, repo, task):
    gate = repo / ".harness/gate.yaml"
    gate.unlink()
    gate.symlink_to("/dev/zero")
    r = h.proc("gate", timeout=60)
    assert r.code == 2, r.err
    assert ".harness/gate.yaml: cannot read a symlink" in r.text
    assert "Traceback" not in r.text


def test_gate_yaml_as_a_symlink_to_a_valid_policy_is_refused_too(h, repo, task):
    gate = repo / ".harness/gate.yaml"
    (repo / "policy.yaml").write_bytes(gate.read_bytes())
    gate.unlink()
    gate.symlink_to(repo / "policy.yaml")
    r = h("gate")
    assert r.code == 2 and ".harness/gate.yaml: cannot read a symlink" in r.text, r.text


def test_an_oversized_task_yaml_comment_is_refused(h, repo, task):
    path = tdir(repo, task) / "task.yaml"
    with open(path, "ab") as fh:
        fh.write(b"#" + b"x" * (8 * 1024 * 1024) + b"\n")
    r = h("status")
    assert r.code == 2, r.text
    assert f".harness/tasks/{task}/task.yaml: larger than the 8 MiB limit" in r.err
    clean(r)


def _append_event(repo: Path, tid: str, data_json: str) -> None:
    ledger_path = tdir(repo, tid) / "events.jsonl"
    lines = ledger_path.read_text().splitlines()
    last = json.loads(lines[-1])
    from harness.core.ledger import line_hash

    line = ('{"data":' + data_json + f',"prev":"{line_hash(lines[-1])}","seq":{last["seq"] + 1},'
            f'"ts":"{last["ts"]}","type":"requirement.added"}}')
    ledger_path.write_text("\n".join(lines + [line]) + "\n")


@pytest.mark.parametrize("data, expect", [
    ("[" * 5000 + "]" * 5000, "nested more than 64 levels deep"),
    ('{"id":' + "9" * 5000 + "}", "Exceeds the limit"),
])
def test_ledger_decoding_limits_are_named_with_file_and_line(h, repo, task, data, expect):
    _append_event(repo, task, data)
    n = len((tdir(repo, task) / "events.jsonl").read_text().splitlines())
    for args in (("status",), ("replay",)):
        r = h(*args)
        assert r.code == 2, r.text
        assert f".harness/tasks/{task}/events.jsonl:{n}: not a JSON event" in r.err and expect in r.err, r.err
        clean(r)


@pytest.mark.parametrize("text, deep", [
    ("[" * 64 + "]" * 64, False),                       # at the limit
    ("[" * 65 + "]" * 65, True),                        # one past it: json decodes it, the walk refuses it
    ('{"a":' * 65 + "1" + "}" * 65, True),
    ('["' + "[{" * 500 + '"]', False),                  # brackets inside a string nest nothing
    ('{"k":"' + "[" * 100 + '","n":' + "[" * 30 + "]" * 30 + "}", False),
])
def test_json_nesting_is_refused_past_the_limit_whatever_the_brackets_in_strings(text, deep):
    from harness.core.limits import decode_json

    for form in (text, text.encode()):
        if deep:
            with pytest.raises(ValueError, match="nested more than 64 levels deep"):
                decode_json(form)
        else:
            assert decode_json(form) == json.loads(text)


def test_a_huge_yaml_integer_is_a_malformed_file_not_a_traceback(h, repo, task):
    path = tdir(repo, task) / "task.yaml"
    path.write_text(path.read_text().replace("max_iterations: 5", "max_iterations: " + "9" * 5000))
    r = h("replay")
    assert r.code == 2 and f".harness/tasks/{task}/task.yaml" in r.err, r.text
    clean(r)
