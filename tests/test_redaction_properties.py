"""Property tests: a secret of any kind, planted in random bytes, next to ANSI codes, glued
to word characters or JSON-escaped, leaves no piece of itself in what the harness keeps."""

from __future__ import annotations

import json
import re
import string
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from harness.core.redact import compile_patterns
from harness.evidence import outputcut
from harness.runner import _Bounded

from support.gitrepo import git

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
B64 = ALNUM + "+/"
ENV_NAME = "MY_SERVICE_TOKEN"
WINDOW = 8  # the shortest piece of a secret counted as a leak


def _s(alphabet: str, n: int, m: int | None = None) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, min_size=n, max_size=m or n)


# Each strategy yields (the text planted, the secret part that must not survive).
KINDS: dict[str, st.SearchStrategy[tuple[str, str]]] = {
    "github_token": _s(ALNUM, 36).map(lambda b: ("ghp_" + b, b)),
    "github_pat": _s(ALNUM + "_", 40, 60).map(lambda b: ("github_pat_" + b, b)),
    "gitlab_token": _s(ALNUM + "_-", 20, 40).map(lambda b: ("glpat-" + b, b)),
    "aws_access_key_id": _s(UPPER_DIGITS, 16).map(lambda b: ("AKIA" + b, b)),
    "google_api_key": _s(ALNUM + "_-", 35).map(lambda b: ("AIza" + b, b)),
    "aws_secret_key": _s(B64, 40).map(lambda b: ("aws_secret_access_key=" + b, b)),
    # The AWS CLI's spaced form, a SAS URL's signature, a Vault token (read 101's F-0356..F-0358).
    "aws_secret_key_spaced": _s(B64, 40).filter(lambda b: any(c in b for c in string.digits + "+/")).map(
        lambda b: ("aws configure set aws_secret_access_key " + b, b)),
    "azure_sas": _s(ALNUM, 43).map(
        lambda b: (f"https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig={b}%3D", b)),
    "vault_token": _s(ALNUM + "_-", 90, 120).map(lambda b: ("hvs." + b, b)),
    "url_password": st.tuples(_s(string.ascii_lowercase, 1, 8), _s(ALNUM, 10, 30)).map(
        lambda t: (f"https://{t[0]}:{t[1]}@git.example.com/r.git", t[1])),
    "private_key": st.lists(_s(B64, 64), min_size=1, max_size=3).map(
        lambda lines: ("-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines)
                       + "\n-----END RSA PRIVATE KEY-----", "\n".join(lines))),
    "env_value": _s(ALNUM + "/+=\"-", 10, 30).filter(lambda v: sum(c in ALNUM for c in v) >= 8).map(
        lambda v: (v, v)),
}

ANSI = st.sampled_from(["\x1b[31m", "\x1b[0m", "\x1b[1;32m", "\x1b[38;5;208m", "\x1b[K", "\x1b]0;t\x07"])
NOISE = st.one_of(
    st.binary(max_size=24),
    ANSI.map(str.encode),
    st.text(max_size=16).map(lambda t: t.encode("utf-8", "surrogatepass")),
    _s(ALNUM, 1, 8).map(str.encode),  # word characters glued to the secret
    st.sampled_from([b"=", b":", b'"', b"'", b"(", b",", b"\\", b"/", b" ", b"\n"]),
)
SURROUND = st.lists(NOISE, max_size=4).map(b"".join)
ESCAPING = st.sampled_from(["raw", "json", "json-slashes"])


def _escape(data: bytes, how: str) -> bytes:
    if how == "raw":
        return data
    text = json.dumps(data.decode("utf-8", "surrogateescape"), ensure_ascii=True)
    return (text.replace("/", "\\/") if how == "json-slashes" else text).encode()


def _spellings(secret: str) -> set[str]:
    escaped = json.dumps(secret)[1:-1]
    return {secret, escaped, escaped.replace("/", "\\/")}


_MARKER = re.compile(r"\[REDACTED:[^\]]*\]|\[harness:[^\]]*\]")


def _leaks(secret: str, kept: str, clean: str) -> list[str]:
    """Pieces of ``secret`` (in any spelling) in ``kept`` that the surroundings alone (``clean``,
    the same input with no secret) do not explain."""
    kept = _MARKER.sub("\0", kept)
    pieces = set()
    for form in _spellings(secret):
        for line in form.split("\n"):
            pieces |= {line[i:i + WINDOW] for i in range(max(0, len(line) - WINDOW + 1)) if len(line) >= WINDOW}
    # A run of one character ("00000000") is in every ledger (the first event's prev hash):
    # finding it there says nothing about the secret.
    return sorted(p for p in pieces if p in kept and p not in clean and len(set(p)) > 1)


def _redactor(secret_kind: str, secret: str):
    return compile_patterns(literals={ENV_NAME: secret} if secret_kind == "env_value" else {})


@st.composite
def planted(draw) -> tuple[str, str, str, bytes, bytes]:
    kind = draw(st.sampled_from(sorted(KINDS)))
    text, secret = draw(KINDS[kind])
    # A real secret is not "00000000…": degenerate values would match the harness's own
    # text (hashes, timestamps) and prove nothing either way.
    assume(len(set(secret)) >= 8)
    before, after, how = draw(SURROUND), draw(SURROUND), draw(ESCAPING)
    data = _escape(before + text.encode() + after, how)
    clean = _escape(before + after, how)
    return kind, secret, text, data, clean


@settings(max_examples=600, deadline=None, database=None)
@given(planted())
def test_no_piece_of_a_planted_secret_survives_redaction(case) -> None:
    kind, secret, _, data, clean = case
    r = _redactor(kind, secret)
    kept = r.redact_bytes(data)
    assert _leaks(secret, kept, clean.decode("utf-8", "backslashreplace")) == [], (kind, data, kept)


@settings(max_examples=400, deadline=None, database=None)
@given(planted(), SURROUND, st.integers(16, 200), st.integers(0, 200), st.integers(64, 400))
def test_no_piece_of_a_planted_secret_survives_the_output_cut(case, filler, head_cap, tail_cap, limit) -> None:
    kind, secret, _, data, clean = case
    r = _redactor(kind, secret)
    data = filler * 3 + data + filler * 3
    clean_text = (filler * 3 + clean + filler * 3).decode("utf-8", "backslashreplace")
    cap = _Bounded(head_cap, tail_cap)
    for i in range(0, len(data), 7):  # arriving in pieces, as a pipe delivers it
        cap.add(data[i:i + 7])
    frozen = cap.freeze()
    log, _ = outputcut.log_text(frozen, r, max(limit, 512))
    tail = outputcut.tail_text(frozen, limit, r)
    assert _leaks(secret, log, clean_text) == [], (kind, data, log)
    assert _leaks(secret, tail, clean_text) == [], (kind, data, tail)


# -- end to end: nothing under .harness/, in notes or in any git object ------------------

def _all_git_bytes(repo: Path) -> bytes:
    objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo,
                             capture_output=True, check=True).stdout
    return objects


@pytest.fixture
def planted_repo(h, repo, task, tmp_path):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "harness")
    return repo


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=planted())
def test_no_planted_secret_reaches_harness_files_notes_or_git_objects(h, planted_repo, tmp_path, monkeypatch,
                                                                      case) -> None:
    kind, secret, text, data, clean = case
    repo = planted_repo
    if kind == "env_value":
        monkeypatch.setenv(ENV_NAME, secret)
    payload = tmp_path / "payload.bin"
    payload.write_bytes(data)
    script = 'cat "$1"; cat "$1" >&2; exit 1'  # the payload on stdout and stderr (a shell starts in ms)
    # The secret also on the command line, where recorded argv and `command` keep it.
    h("evidence", "unit_test", "--", "/bin/sh", "-c", script, "sh", str(payload),
      text if kind != "private_key" else "x")
    h("status")
    h("gate")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "evidence", "--allow-empty")
    h("stamp")
    clean_text = clean.decode("utf-8", "backslashreplace")
    harness_bytes = b"".join(p.read_bytes() for p in (repo / ".harness").rglob("*") if p.is_file())
    leaked = _leaks(secret, harness_bytes.decode("utf-8", "backslashreplace"), clean_text)
    assert leaked == [], (kind, data, "under .harness/")
    leaked = _leaks(secret, _all_git_bytes(repo).decode("utf-8", "backslashreplace"), clean_text)
    assert leaked == [], (kind, data, "in git objects")
