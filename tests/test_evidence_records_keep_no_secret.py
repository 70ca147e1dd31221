"""`harness evidence` and reproducer runs keep no secret: not in a flag, a URL, an error, the environment, nor a fragment of a token cut by a tail or a log head."""

from __future__ import annotations

from pathlib import Path

from harness.findings.reproduce import run_fact
from harness.store.layout import open_layout
from harness.store.tasks import TaskStore

from support.paths import PY
from support.processes import py
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
