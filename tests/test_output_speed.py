"""Binary and endless output are recorded with work proportional to the bytes kept, not the
bytes seen: the log is cut by a cheap count and only what is kept is redacted, and rules
that cannot match are skipped by an exact literal pre-check. These tests count that work;
the time it takes is measured side by side in `bash bench/run --only output`."""

from __future__ import annotations

import json
import os
import random
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.core import regex_needs
from harness.core.redact import compile_patterns
from harness.evidence import outputcut
from harness.runner import _Bounded

from support.records import set_config

LIMIT = 8 * 1024 * 1024


def capture(data: bytes, cap: int = LIMIT):
    b = _Bounded(cap // 2, cap // 2)
    for i in range(0, len(data), 65536):
        b.add(data[i:i + 65536])
    return b.freeze()


class CountingRedactor:
    """The real redactor, counting the characters it is handed."""

    def __init__(self) -> None:
        self.real = compile_patterns([])
        self.chars = 0

    def redact(self, text: str) -> str:
        self.chars += len(text)
        return self.real.redact(text)

    def redact_bytes(self, data: bytes) -> str:
        self.chars += len(data)
        return self.real.redact_bytes(data)

    def secret_spans(self, text: str) -> list:
        self.chars += len(text)
        return self.real.secret_spans(text)


@pytest.mark.slow  # megabytes of random bytes through the cut
def test_random_bytes_are_redacted_once_and_only_as_far_as_they_are_kept():
    rng = random.Random(14)
    data = rng.randbytes(5 * 1024 * 1024)
    red = CountingRedactor()
    text, truncated = outputcut.log_text(capture(data), red, LIMIT)
    assert truncated and len(text.encode()) <= LIMIT
    kept = LIMIT // 4 + LIMIT // 8  # an undecodable byte is written as 4 characters
    assert red.chars <= 1.5 * kept, red.chars  # before: the whole 5 MB, then slices of it, again and again


def test_text_that_fits_is_redacted_once():
    data = b"the quick brown fox jumps over the lazy dog 0123456789\n" * 90_000
    red = CountingRedactor()
    text, truncated = outputcut.log_text(capture(data), red, LIMIT)
    assert not truncated and red.chars == len(data)


def test_escaped_size_counts_what_the_redactor_writes():
    for data in (os.urandom(100_000), b"plain text\n" * 1000, "ünïcödé\n".encode() * 1000 + b"\xff\xfe"):
        assert outputcut.escaped_size(data) == len(compile_patterns([]).redact_bytes(data).encode())


@pytest.mark.slow  # megabytes of random bytes through the cut
def test_recording_random_bytes_hands_the_redactor_no_more_than_recording_text_of_the_same_size():
    # The time this takes is a benchmark's figure (`bash bench/run --only output`, ratio target
    # <= 2x); what a test can hold is the work: the redactor sees what is kept, not what was seen.
    # (The old cut handed it the whole 5 MB of random bytes, then slices of it, again and again.)
    rnd, txt = CountingRedactor(), CountingRedactor()
    outputcut.log_text(capture(random.Random(1).randbytes(5 * 1024 * 1024)), rnd, LIMIT)
    outputcut.log_text(capture((b"the quick brown fox jumps over the lazy dog 0123456789\n" * 100_000)[:5 * 1024 * 1024]),
                       txt, LIMIT)
    assert txt.chars == 5 * 1024 * 1024  # text that fits: redacted once, whole
    assert 0 < rnd.chars <= txt.chars, (rnd.chars, txt.chars)


def test_endless_output_is_recorded_as_a_timeout_keeping_at_most_the_cap(h, repo, task):
    import subprocess

    # A real process with its echo thrown away: captured, gigabytes of `y` would cost the test
    # more than the harness. With a 64 KiB cap, however little of the second a loaded machine
    # gives the command, it prints far more than is kept (asserted below). That the work after
    # the timeout is small is a benchmark's figure (`bash bench/run --only output`).
    cap = 64 * 1024
    set_config(repo, f"""
        output:
          log_cap_bytes: {cap}
    """)
    p = subprocess.run([sys.executable, "-m", "harness", "evidence", "build", "--timeout", "1", "--", sys.executable,
                        "-c", "import sys\nwhile True: sys.stdout.write('y\\n' * 4096)"],
                       cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 124, p.stderr
    rec = json.loads((repo / ".harness/tasks" / task / "evidence/build.json").read_text())
    assert rec["outcome"] == "timeout", rec
    assert rec["log_truncated"] and 0 < rec["log_bytes"] <= cap, rec["log_bytes"]
    assert rec["output_bytes"] > 8 * cap, rec["output_bytes"]  # far more was seen than is ever kept


def test_recording_the_kept_part_of_endless_text_scans_no_rule_that_cannot_match(monkeypatch):
    red = CountingRedactor()
    scanned: list[str] = []
    real_of = regex_needs.of

    def spy(regex):
        needs = real_of(regex)
        if needs.may_match(KEPT):
            scanned.append(regex.pattern)
        return needs

    KEPT = "y\n" * (2 * 1024 * 1024)
    monkeypatch.setattr(regex_needs, "of", spy)
    text, truncated = outputcut.log_text(capture(KEPT.encode() * 3), red, LIMIT)
    assert truncated and scanned == []
    # the kept part, redacted once (and the few bytes read across the tail's cut, F-0114): not the 12 MB seen
    assert red.chars <= LIMIT + outputcut.CONTEXT + outputcut.LOOKAHEAD, red.chars


# -- the literal pre-check is exact ----------------------------------------------------------

FRAGMENTS = ["sk-ant-", "sk-", "ghp_", "github_pat_", "glpat-", "xoxb-", "AIza", "sk_live_", "npm_", "AKIA",
             "eyJ", ".", "secret_access_key", "Authorization", "Bearer ", "bearer\t", "https://", "u:p@", "--password ",
             "-token ", "password=", "API_KEY: ", "'", '"', "-----BEGIN RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----",
             "\u0130", "\u0131", "\u017f", "\u212a", "\udcff", "A", "0", "_", "-", " ", "\n", "x" * 30, "Z9" * 20]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25))
def test_the_pre_check_never_skips_a_rule_that_matches(parts):
    text = "".join(parts)
    for rule in compile_patterns(["foo[0-9]+bar", r"(?i)tok[ae]n"]).rules:
        if rule.regex.search(text):
            assert regex_needs.of(rule.regex).may_match(text), (rule.name, text)


def test_the_case_fold_table_covers_every_character_that_matches_an_ascii_letter():
    letters = re.compile("[a-z]", re.IGNORECASE)
    for cp in range(0x80, 0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        char = chr(cp)
        if letters.fullmatch(char):
            folded = regex_needs.folded(char)
            assert len(folded) == 1 and folded.isascii() and re.fullmatch(folded, char, re.IGNORECASE), hex(cp)


def test_a_rule_the_analysis_cannot_read_always_runs():
    assert regex_needs.needs(r"(?P<a>x)(?(a)y|z)", 0).may_match("") in (True, False)
    assert regex_needs.needs("[", 0).all_of == ()  # invalid: no requirement, no crash
