"""Evidence output stays within its caps: the log holds its cap for any output and counts what it leaves out, and a redacted record fits its reader's cap."""

from __future__ import annotations

import json
import re
import sys

import pytest

from support.processes import py
from support.records import log_bytes, record, set_config


def _raw_len(text: str) -> int:
    # Output made of undecodable bytes and newlines only: each \xNN is one byte.
    return text.count("\\x") + text.count("\n")


@pytest.mark.parametrize("size", [3000, 60000])
def test_log_cap_holds_for_binary_output_and_the_marker_counts_what_is_left_out(h, repo, task, size):
    set_config(repo, """
        output:
          log_cap_bytes: 4096
    """)
    script = f"""
        import sys
        line = bytes(range(0x80, 0xC0)) + b'\\n'   # 64 undecodable bytes: 256 bytes of text
        data = line * ({size} // 65)
        sys.stdout.buffer.write(data)
    """
    assert h("evidence", "build", "--", *py(script)).code == 0
    rec = record(repo, task, "build")
    log = log_bytes(repo, task, "build")
    total = rec["output_bytes"]
    assert total == size // 65 * 65
    assert len(log) <= 4096 and rec["log_bytes"] == len(log)
    assert rec["log_truncated"] is True
    head, marker, tail = re.split(rb"\n(\[harness: [^\]]*\])\n", log)
    omitted = int(re.match(rb"\[harness: (\d+) bytes of output omitted here; (\d+) bytes in all\]", marker)[1])
    assert omitted == total - _raw_len(head.decode()) - _raw_len(tail.decode())
    assert len(log) > 2048, "the log kept far less than its cap allows"


def test_a_pattern_that_swells_every_character_keeps_the_record_within_its_readers_cap(h, task, repo, monkeypatch):
    # Each 'a' of a megabyte tail became a 17-byte marker: a 35 MB record no reader accepts
    # (16 MiB). The same proportions at a sixteenth of the size: tails of 64 KiB against a
    # reader's cap of 1 MiB, which the unbounded record (2 x 64 KiB x 17) would exceed twice over.
    from harness.store import bounded

    monkeypatch.setitem(bounded.CAPS, "evidence", bounded.MiB)
    path = repo / ".harness/config.yaml"
    path.write_text(path.read_text().replace("patterns: []", "patterns: ['a']")
                    .replace("tail_bytes: 8192", "tail_bytes: 65536"))
    h("evidence", "build", "--", sys.executable, "-c",
      "import sys; sys.stdout.write('a' * 65536); sys.stderr.write('a' * 65536)")
    record = repo / ".harness/tasks" / task / "evidence/build.json"
    assert record.stat().st_size <= bounded.MiB
    assert "[REDACTED:custom]" in json.loads(record.read_text())["stdout_tail"]  # redacted, not dropped
    assert h("status").code == 0 and h("replay").code == 0


@pytest.mark.parametrize("truncated", [False, True])
def test_a_redacted_tail_is_cut_to_its_byte_limit_after_redaction(truncated):
    from harness.core.redact import compile_patterns
    from harness.evidence.outputcut import tail_text
    from harness.runner import Capture

    data = b"a\n" * 2048
    cap = Capture(b"", data, len(data) + (1000 if truncated else 0))
    text = tail_text(cap, 4096, compile_patterns(["a"]))  # each "a" becomes a 17-byte marker
    assert 4000 < len(text.encode()) <= 4096 and text.endswith("[REDACTED:custom]\n") and "a\n" not in text


def test_a_record_that_would_still_exceed_its_readers_cap_drops_its_tails_and_says_so(h, task, repo, monkeypatch):
    from harness.store import bounded

    monkeypatch.setitem(bounded.CAPS, "evidence", 3000)  # below a record with its two tails
    h("evidence", "build", "--", sys.executable, "-c", "print('x' * 2000)")
    record = json.loads((repo / ".harness/tasks" / task / "evidence/build.json").read_text())
    assert record["stdout_tail"] == "" and "output tails dropped" in record["error"]
    assert "x" * 2000 in (repo / ".harness/tasks" / task / "evidence/build.log").read_text()  # the log keeps them
