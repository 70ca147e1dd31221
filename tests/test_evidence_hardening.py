"""`harness evidence` and reproducer runs against the defects a reviewer reproduced:
secrets that slipped past redaction, cuts that left a fragment of a token, a refused
command that still left a run behind, signals that orphaned the command, a log over its
cap, a log edited after the fact, and JUnit reports that listed no test."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness.reproduce import run_fact
from harness.store.layout import open_layout
from harness.store.tasks import TaskStore

from support.cli import start_harness
from support.paths import PY
from support.processes import children_of, gone, py, wait_for
from support.records import events, harness_files, log_bytes, record, set_config


def leaks(repo: Path, *secrets: str) -> list[tuple[str, str]]:
    return sorted({(str(p.relative_to(repo)), s) for p in harness_files(repo) for s in secrets
                   if s.encode() in p.read_bytes()})


def fragments(token: str, size: int = 12) -> list[str]:
    return [token[i:i + size] for i in range(0, len(token) - size + 1)]


# A JWT-shaped token of ~3 KB. Only its start (eyJ...) marks it as one: a piece cut from
# its middle or its end is opaque text no pattern recognises.
JWT = ("eyJ" + "hbGciOiJSUzI1NiJ9" + "Qk7x" * 370 + "." + "eyJzdWIiOiIx" + "Wm9p" * 180 + "."
       + "Sfl_Kx-w" * 100)


# -- 1. secret-named flags and URL passwords --------------------------------------------

def test_secret_flag_values_given_as_separate_arguments_are_absent_from_every_file(h, repo, task):
    r = h("evidence", "lint", "--", "mysql-client", "--password", "hunter2secret", "--token", "ghx_notreal",
          "--api-key=K3yValue123")
    assert r.code == 127
    rec = record(repo, task, "lint")
    assert rec["argv"][:5] == ["mysql-client", "--password", "[REDACTED:secret_flag]",
                               "--token", "[REDACTED:secret_flag]"]
    assert rec["command"] == ("mysql-client --password '[REDACTED:secret_flag]' --token '[REDACTED:secret_flag]' "
                              "'--api-key=[REDACTED:secret_flag]'")
    prepared = [e for e in events(repo, task) if e["type"] == "evidence.prepared"][-1]
    assert prepared["data"]["command"] == rec["command"]
    assert leaks(repo, "hunter2secret", "ghx_notreal", "K3yValue123") == []


def test_secret_flags_and_url_passwords_in_output_are_redacted(h, repo, task):
    script = """
        print('connecting with --password S3cretPw1 --api-key K3yValue123 --token=T0kenValue9')
        print('cloning https://bob:pa/ss#wo:rd@git.example.com/x.git')
    """
    assert h("evidence", "build", "--", *py(script)).code == 0
    rec = record(repo, task, "build")
    assert "git.example.com/x.git" in rec["stdout_tail"] and "https://bob:" in rec["stdout_tail"]
    assert leaks(repo, "S3cretPw1", "K3yValue123", "T0kenValue9", "pa/ss", "ss#wo", "wo:rd") == []


# -- 2. error text --------------------------------------------------------------------

def test_error_naming_a_secret_is_redacted_in_the_record_and_on_screen(h, repo, task):
    r = h("evidence", "build", "--", "DB_PASSWORD=Hunter2Secret")
    assert r.code == 127
    rec = record(repo, task, "build")
    assert rec["error"] == "command not found: DB_PASSWORD=[REDACTED:secret_assignment]"
    assert "Hunter2Secret" not in r.text
    assert leaks(repo, "Hunter2Secret") == []


def test_junit_error_naming_a_secret_is_redacted(h, repo, task):
    r = h("evidence", "unit_test", "--junit", "reports/token=Zx9SecretValue.xml", "--", *py("pass"))
    assert r.code == 1
    rec = record(repo, task, "unit_test")
    assert "was not written by the run" in rec["error"]
    assert "Zx9SecretValue" not in r.text
    assert leaks(repo, "Zx9SecretValue") == []


# -- 3. cuts through long tokens ---------------------------------------------------------

def test_tail_window_starting_inside_a_long_token_keeps_no_fragment_of_it(h, repo, task):
    # The token is longer than the tail window's old 1 KB search for a separator, so the
    # old cut landed inside it and kept its unlabelled end.
    set_config(repo, """
        output:
          tail_bytes: 2048
    """)
    assert h("evidence", "unit_test", "--", *py(f"print('start'); print({JWT!r})")).code == 0
    rec = record(repo, task, "unit_test")
    assert rec["stdout_tail"] == "[harness: 2048 bytes of output without a line break omitted]"
    assert leaks(repo, *fragments(JWT[3:])) == []


def test_log_head_ending_inside_a_long_token_keeps_no_fragment_of_it(h, repo, task):
    set_config(repo, """
        output:
          log_cap_bytes: 4096
    """)
    script = f"print('start'); print({JWT!r}); print('y' * 50000); print('the end')"
    assert h("evidence", "unit_test", "--", *py(script)).code == 0
    log = log_bytes(repo, task, "unit_test")
    assert log.startswith(b"start\n\n[harness: ") and log.endswith(b"the end\n")
    assert leaks(repo, *fragments(JWT)) == []


def test_reproducer_output_tail_keeps_no_fragment_of_a_long_token(h, repo, task):
    s = TaskStore(open_layout(repo))
    fact = run_fact(s, [PY, "-c", f"print('start'); print({JWT!r})"])
    assert fact["outcome"] == "passed"
    assert fact["output_tail"] == "[harness: 2000 bytes of output without a line break omitted]"
    fact = run_fact(s, [PY, "-c", f"print({JWT!r}); print('the last words')"])
    assert fact["output_tail"] == "the last words\n"


# -- 4. secret values in the environment -------------------------------------------------

def test_secret_named_environment_values_are_redacted(h, repo, task, monkeypatch):
    value = "Zq8" + "wQ7pL1xR4vN2"  # matches no pattern: only its variable's name marks it
    monkeypatch.setenv("MY_SERVICE_CRED", value)
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.com")  # AUTHOR: no secret
    r = h("evidence", "build", "--shell", "--", 'echo "cred is $MY_SERVICE_CRED by $GIT_AUTHOR_EMAIL"')
    assert r.code == 0
    rec = record(repo, task, "build")
    assert rec["stdout_tail"] == "cred is [REDACTED:env:MY_SERVICE_CRED] by author@example.com\n"
    assert leaks(repo, value) == []
    fact = run_fact(TaskStore(open_layout(repo)), ["sh", "-c", "echo $MY_SERVICE_CRED"])
    assert fact["output_tail"] == "[REDACTED:env:MY_SERVICE_CRED]\n"


# -- 5. a malformed command --------------------------------------------------------------

@pytest.mark.parametrize("args", [("--", ""), ("--shell", "--", "  ")])
def test_malformed_command_is_refused_before_a_run_is_prepared(h, repo, task, args):
    before = events(repo, task)
    r = h("evidence", "build", *args)
    assert r.code == 2
    assert "empty or malformed command" in r.err
    assert events(repo, task) == before
    assert "UNKNOWN" not in h.ok("status").out


# -- 6. SIGTERM and SIGHUP ---------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_or_sighup_to_the_harness_kills_the_command_and_records_interrupted(h, repo, task, sig):
    proc = start_harness(repo, "evidence", "unit_test", "--", "sleep", "30")
    sleepers: list[int] = []
    try:
        wait_for(lambda: any(e["type"] == "evidence.prepared" for e in events(repo, task)),
                 what="evidence.prepared")
        sleepers = wait_for(lambda: children_of(proc.pid, "sleep"), what="the command to start")
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        leftover = [p for p in sleepers if not gone(p, within=0)]
        for pid in leftover:
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 130, (out, err)
    assert leftover == [], "the command outlived the harness"
    for pgid in sleepers:  # the command led its own group (own session): all of it is gone
        with pytest.raises(ProcessLookupError):
            os.killpg(pgid, 0)
    rec = record(repo, task, "unit_test")
    assert rec["outcome"] == "interrupted" and rec["error"] == f"interrupted by {sig.name}"
    assert events(repo, task)[-1]["type"] == "evidence.collected"


def test_a_hangup_ignored_as_under_nohup_stays_ignored_and_the_run_completes(h, repo, task):
    proc = subprocess.Popen([PY, "-m", "harness", "evidence", "unit_test", "--", "sleep", "0.6"], cwd=repo,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        wait_for(lambda: children_of(proc.pid, "sleep"), what="the command to start")
        proc.send_signal(signal.SIGHUP)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (out, err)
    assert record(repo, task, "unit_test")["outcome"] == "passed"


# -- 7. the log cap holds for the text written -------------------------------------------

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


# -- 8. the log is bound to its record -----------------------------------------------------

def test_log_edited_after_it_was_recorded_fails_replay_but_a_missing_log_does_not(h, repo, task):
    assert h("evidence", "build", "--", *py("print('built ok')")).code == 0
    rec = record(repo, task, "build")
    path = repo / ".harness/tasks" / task / "evidence/build.log"
    assert rec["log_digest"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert h("replay").code == 0
    path.write_text("built ok, honestly\n")
    r = h("replay")
    assert r.code == 2 and "build.log" in r.err and "edited after it was recorded" in r.err
    path.unlink()
    r = h("replay")
    assert r.code == 0 and "build.log" not in r.text


# -- 9. JUnit reports with no test cases ---------------------------------------------------

@pytest.mark.parametrize(("report", "failed"), [
    ('<testsuite name="s" tests="0"/>', None),
    ('<testsuites><testsuite name="s" tests="0"></testsuite></testsuites>', None),
    ('<testsuite name="s" tests="3" failures="3"></testsuite>', 3),
])
def test_junit_report_listing_no_test_case_does_not_pass(h, repo, task, report, failed):
    (repo / ".gitignore").write_text("reports/\n")
    r = h("evidence", "unit_test", "--junit", "reports/junit.xml", "--", *py(f"""
        import os
        os.makedirs('reports', exist_ok=True)
        open('reports/junit.xml', 'w').write({report!r})
    """))
    assert r.code == 1, r.text
    rec = record(repo, task, "unit_test")
    assert rec["exit_code"] == 0 and rec["outcome"] == "failed"
    assert rec["failed"] == failed
    if failed is None:
        assert rec["error"] == "JUnit report reports/junit.xml has no test cases"


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
