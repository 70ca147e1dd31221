"""A cut at the start of kept output (the evidence record's tail, the log's tail, a finding's output tail) drops
the words a secret after it is known by when it lands inside them: `Authorization: Bearer`, `--password`. The
value, kept as the first word, matched no rule (read 56b's F-0114). The bytes before the cut are read with the
kept ones; what the rules find across the cut is hidden. A cut that drops no such words keeps what it kept."""

from __future__ import annotations

import pytest

from harness.core.redact import compile_patterns
from harness.evidence.outputcut import cut_start, log_text, stream_tails, tail_text
from harness.runner import Capture

OPAQUE = "Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS"  # an OAuth access token: no shape of its own
PASSWORD = "Tr0ub4dor-and-3-horses"
FILLER = "".join(f"progress line {i:05d} ok\n" for i in range(400))


def _cut_inside(lead: str, value: str, limit: int) -> bytes:
    """Output whose last ``limit`` bytes start one character before the blank between ``lead`` and ``value``."""
    rest = lead[-1] + " " + value + "\n"
    tail = FILLER[-(limit - len(rest)):]
    return ("start\n" + lead + " " + value + "\n" + "\n" + tail[1:]).encode()


@pytest.mark.parametrize(("lead", "value"), [("> Authorization: Bearer", OPAQUE), ("+ deploy --password", PASSWORD)],
                         ids=["authorization-bearer", "password-flag"])
def test_a_tail_cut_inside_the_words_before_a_secret_hides_the_secret(lead, value):
    data = _cut_inside(lead, value, 2000)
    whole = compile_patterns().redact(data.decode())
    assert value not in whole  # the output uncut: the rules know it
    out = tail_text(Capture(b"", data, len(data)), 2000, compile_patterns())
    assert value not in out and out.startswith("[REDACTED:cut_secret]"), out[:80]
    assert out.rstrip().endswith("progress line 00399 ok")


def test_the_log_s_tail_cut_inside_the_words_before_a_secret_hides_it():
    head = b"the first lines\n" * 10
    plain = ("x\n" + FILLER * 3)[-6000:].encode()

    def logged(tail: bytes) -> str:
        cap = Capture(head, tail, len(head) + len(tail) + 10_000)  # 10,000 bytes between them were not kept
        text, truncated = log_text(cap, compile_patterns(), 2000)
        assert truncated
        return text

    kept = len(logged(plain).rsplit("bytes in all]\n", 1)[1])  # how much of a 6,000-byte tail the log keeps
    tail = _cut_inside("> Authorization: Bearer", OPAQUE, kept + 1)
    tail = b"x" * (len(plain) - len(tail)) + tail
    text = logged(tail)
    assert OPAQUE not in text, text[-kept - 80:]


def test_a_stream_s_tail_with_a_split_keeps_both_the_split_and_the_cut_secret_hidden():
    out = _cut_inside("+ deploy --password", PASSWORD, 2000)
    err = b"warning\n"
    combined = Capture(out + err, b"", len(out) + len(err), bytes(len(out)) + b"\x01" * len(err))
    stdout_tail, stderr_tail = stream_tails(Capture(b"", out, len(out)), Capture(b"", err, len(err)), combined,
                                            2000, compile_patterns())
    assert PASSWORD not in stdout_tail and stderr_tail == "warning\n"


def test_a_cut_that_drops_no_such_words_keeps_what_it_kept():
    """What a careless fix would hide: a tail whose first kept line is ordinary output."""
    data = ("start\n" + FILLER).encode()
    out = tail_text(Capture(b"", data, len(data)), 500, compile_patterns())
    assert "REDACTED" not in out and out == cut_start(data[-500:]).decode()


def test_a_log_whose_kept_tail_starts_inside_the_words_before_a_secret_hides_it():
    """Read 57's F-0123: past the log's cap the runner keeps a head and a tail ring; the ring started inside
    `Bearer`, and the words before its start had been kept nowhere: the token was the tail's first word."""
    from harness import runner

    tail_cap = 2000
    data = _cut_inside("> Authorization: Bearer", OPAQUE, tail_cap)
    data = b"the first lines\n" * 100 + data
    bounded = runner._Bounded(64, tail_cap)
    for i in range(0, len(data), 300):
        bounded.add(data[i:i + 300])
    cap = bounded.freeze()
    assert cap.truncated and cap.tail.startswith(b"r " + OPAQUE.encode())  # the ring starts inside the words
    text, truncated = log_text(cap, compile_patterns(), 10_000)
    assert truncated and OPAQUE not in text, text[:200]
    assert text.rstrip().endswith("progress line 00399 ok")


def test_a_stream_s_whole_tail_hides_a_token_whose_words_on_the_other_stream_the_combined_ring_cut_off():
    """Read 58's F-0129: stderr ends with `Authorization: Bearer `, stdout then writes the token; stdout, short, is
    kept whole. The combined capture, which says a secret crosses the streams, kept only from just before the
    token: its words were in the ring's lead, which nothing read."""
    from harness import runner

    words, token = b"> Authorization: Bearer ", OPAQUE.encode() + b"\n"
    filler = FILLER.encode() * 3
    out, err = runner._Bounded(4096, 4096), runner._Bounded(4096, 4096)
    combined = runner._Bounded(64, len(token) + 3, origins=True)  # its tail starts 3 bytes before the token
    for chunk, stream in ((filler, err), (words, err), (token, out)):
        stream.add(chunk)
        combined.add(chunk, 0 if stream is out else 1)
    whole = combined.freeze()
    assert whole.truncated and whole.tail.startswith(b"er " + OPAQUE.encode())
    stdout_tail, _ = stream_tails(out.freeze(), err.freeze(), whole, 2000, compile_patterns())
    assert OPAQUE not in stdout_tail, stdout_tail
