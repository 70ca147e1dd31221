"""A secret a command writes partly to stdout and partly to stderr (a terminal shows it whole) is kept
in neither stream's tail: each is redacted alone, where neither half is known to any rule, so the
combined output, which holds the secret whole, says which bytes are its (#28's task F-0154)."""

from __future__ import annotations

import json
import random
import sys

import pytest

from harness.core.redact import compile_patterns
from harness.runner import run_command

from support.processes import writer_read_apart

TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"
PY = sys.executable


def _record(repo, tid: str, etype: str = "build") -> str:
    return (repo / ".harness" / "tasks" / tid / "evidence" / f"{etype}.json").read_text()


def _writes(folder, *parts: tuple[int, str]) -> list[str]:
    """A command writing each (stream, text) in order, each read by the capture before the next is written; the
    texts in a file, so that no piece of a secret is in the command's own argv."""
    (folder / "parts.json").write_text(json.dumps(parts))
    return writer_read_apart(folder / "parts.json")


def test_a_token_written_half_to_each_stream_is_in_neither_tail(h, repo, task, tmp_path):
    h.ok("evidence", "build", "--", *_writes(tmp_path, (0, TOKEN[:20]), (1, TOKEN[20:] + "\n")))
    record = _record(repo, task)
    assert TOKEN[4:20] not in record and TOKEN[20:] not in record, record
    tails = json.loads(record)
    assert "[REDACTED:" in tails["stdout_tail"] and "[REDACTED:" in tails["stderr_tail"]


def test_the_rest_of_each_stream_is_kept_around_the_split_secret(h, repo, task, tmp_path):
    command = _writes(tmp_path, (0, "step 1 ok\nlogin with "), (1, "warning: slow disk\n"), (0, TOKEN[:18]),
                      (1, TOKEN[18:]), (0, "\nstep 2 ok\n"), (1, "\ndone\n"))
    h.ok("evidence", "build", "--", *command)
    record = json.loads(_record(repo, task))
    assert TOKEN[4:18] not in json.dumps(record) and TOKEN[18:] not in json.dumps(record)
    assert "step 1 ok" in record["stdout_tail"] and "step 2 ok" in record["stdout_tail"]
    assert "warning: slow disk" in record["stderr_tail"] and "done" in record["stderr_tail"]


def test_the_combined_capture_knows_the_stream_of_each_byte(tmp_path):
    """Each byte's stream, and each stream's bytes in their order. Not the order between the streams: two pipes
    keep none, and a capture not scheduled while the command writes reads them in either order (F-0085)."""
    r = run_command(_writes(tmp_path, (0, "aa"), (1, "bbb"), (0, "c")), echo=False)
    data, origin = r.combined.head + r.combined.tail, r.combined.origin
    assert len(data) == len(origin) == 6
    assert bytes(b for b, o in zip(data, origin) if o == 0) == b"aac"
    assert bytes(b for b, o in zip(data, origin) if o == 1) == b"bbb"
    assert r.stdout.origin == b"" and r.stderr.origin == b""


def _captures(parts: list[tuple[int, bytes]], head_cap: int = 1 << 20, tail_cap: int = 1 << 20):
    from harness.runner import _Bounded

    caps = [_Bounded(head_cap, tail_cap, origins=i == 2) for i in range(3)]
    for stream, data in parts:
        caps[stream].add(data)
        caps[2].add(data, stream)
    return [c.freeze() for c in caps]


def test_tails_without_a_secret_across_the_streams_are_each_streams_own():
    from harness.evidence.outputcut import stream_tails, tail_text

    red = compile_patterns(detector=True)
    rng = random.Random(7)
    words = [b"ok", b"FAILED", b"test_x", b"\n", b" ", TOKEN.encode(), b"password=hunter2hunter2", b"\xff"]
    for _ in range(200):
        parts = [(rng.randint(0, 1), b" ".join(rng.choice(words) for _ in range(rng.randint(1, 6))) + b"\n")
                 for _ in range(rng.randint(1, 12))]
        out, err, combined = _captures(parts)
        assert stream_tails(out, err, combined, 64, red) == (tail_text(out, 64, red), tail_text(err, 64, red)), parts


def test_a_streams_end_the_combined_output_did_not_keep_is_not_vouched_for():
    from harness.evidence.outputcut import NOT_VOUCHED, stream_tails, tail_text

    # stderr wrote first; then stdout wrote more than the combined output keeps of its end.
    red = compile_patterns(detector=True)
    out, err, combined = _captures([(1, b"early warning\n"), (0, b"x" * 500 + b"\n")], head_cap=4, tail_cap=100)
    assert combined.truncated
    stdout_tail, stderr_tail = stream_tails(out, err, combined, 64, red)
    assert stderr_tail == NOT_VOUCHED.decode()
    assert stdout_tail == tail_text(out, 64, red)


def test_a_stream_that_ended_in_the_combined_outputs_head_is_read_there():
    from harness.evidence.outputcut import stream_tails

    red = compile_patterns(detector=True)
    out, err, combined = _captures([(1, b"early warning\n"), (0, b"x" * 500 + b"\n")], head_cap=64, tail_cap=100)
    assert combined.truncated
    assert stream_tails(out, err, combined, 64, red)[1] == "early warning\n"


@pytest.mark.parametrize("cut", [5, 12, 20, 30, 38])
def test_a_split_anywhere_in_the_token_leaves_no_piece_of_it(cut):
    from harness.evidence.outputcut import stream_tails

    red = compile_patterns(detector=True)
    out, err, combined = _captures([(0, b"token: " + TOKEN[:cut].encode()), (1, TOKEN[cut:].encode() + b"\n")])
    for tail in stream_tails(out, err, combined, 64, red):
        assert TOKEN[:cut][-4:] not in tail or cut <= 4
        assert TOKEN[cut:] not in tail


# -- after a read of that fix (F-0158) ----------------------------------------------------------------

@pytest.mark.parametrize("key,value", [("password=", "hunter2hunter2xyzQ"), ("corp_key=", "abcdefabcdef")])
def test_a_secret_known_by_its_key_on_the_other_stream_is_in_neither_tail(key, value):
    from harness.evidence.outputcut import stream_tails

    red = compile_patterns(["corp_key=(?P<secret>[a-z0-9]{12})"], detector=True)
    out, err, combined = _captures([(0, b"login " + key.encode()), (1, value.encode() + b"\n")])
    tails = stream_tails(out, err, combined, 64, red)
    assert value not in "".join(tails), tails
    assert "login" in tails[0]


@pytest.mark.parametrize("before", [b"", b"ok\n", b"x" * 2000])
def test_a_token_split_over_the_streams_and_read_the_other_way_round_is_redacted_in_both(before):
    """F-0086: the command wrote the token's first half to stdout, then its second half to stderr; a capture
    not scheduled meanwhile read stderr first, so the combined capture holds the halves swapped. Both tails still
    lose their half."""
    from harness.evidence.outputcut import stream_tails

    red = compile_patterns(detector=True)
    parts = [(0, before)] * bool(before) + [(1, TOKEN[20:].encode() + b"\n"), (0, TOKEN[:20].encode())]
    out, err, combined = _captures(parts)
    stdout_tail, stderr_tail = stream_tails(out, err, combined, 4096, red)
    assert TOKEN[4:20] not in stdout_tail and TOKEN[20:] not in stderr_tail, (stdout_tail, stderr_tail)
    assert "[REDACTED:" in stdout_tail and "[REDACTED:" in stderr_tail
