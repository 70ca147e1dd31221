"""#25 item 2: every read bounded, every value typed. A value of the wrong type in a note, a log,
an approval or a ledger, a NaN or an infinity where a number is configured, a CR in a ledger line,
and a FIFO where the harness keeps its own state or finds the user's settings: each is refused in
one line naming the file (or, for a record that decides nothing, reported), never a traceback or
a hang. And beside each, the legitimate value that must still be accepted.

A FIFO test runs the harness as a process of its own, with a timeout only as a safety net: what it
asserts is the refusal, which comes at once because the reader never opens a FIFO to wait on it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from support.cli import TO_VERIFYING, cli, status_json, validate_staged, walk_to
from support.flows import collect_passing_evidence, new_task
from support.gitrepo import NOTES, commit_all_ok, git
from support.paths import PY
from support.records import rechain
from support.ssh_keys import approval_line, make_key, signers_line

SAFETY_NET = 120  # seconds: a hang fails the test instead of the run; no assertion is about time


def no_traceback(text: str) -> None:
    assert "Traceback" not in text, text


def run(repo: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """`harness ARGS` as a process of its own (a FIFO must never hang the test runner itself)."""
    proc = subprocess.run([PY, "-m", "harness", *args], cwd=repo, input=stdin, capture_output=True, text=True,
                          timeout=SAFETY_NET)
    no_traceback(proc.stdout + proc.stderr)
    return proc


def fifo_at(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    os.mkfifo(path)
    return path


# -- git notes: a stamp is a record anyone can write; the audit recomputes and reports it -----------

def test_a_note_with_an_unhashable_state_is_reported_as_unreadable_and_the_audit_decides(h, repo):
    base = commit_all_ok(repo, "harness init")
    tid = new_task(h)
    sha = commit_all_ok(repo, "a task")
    for state in (["DONE"], {"x": 1}):
        note = {"commit": sha, "tasks": {tid: {"state": state, "gate": "PASS"}}}
        git(repo, "notes", "--ref", NOTES, "add", "-f", "-m", json.dumps(note), sha)
        r = cli(repo, "audit", "--from", base, "--to", "HEAD")
        no_traceback(r.stderr)
        assert r.returncode == 0, r.stderr
        assert f"note on {sha[:12]} says UNREADABLE (tasks.{tid}: field state is " in r.stderr, r.stderr
    git(repo, "notes", "--ref", NOTES, "add", "-f", "-m", json.dumps({"verdict": ["PASS"]}), sha)
    r = cli(repo, "audit", "--from", base, "--to", "HEAD", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["results"][-1]["note"] == {
        "verdict": "UNREADABLE", "agrees": False, "problem": "field verdict is a list"}, r.stdout
    # A note as the harness writes it is read and compared as before.
    git(repo, "notes", "--ref", NOTES, "add", "-f", "-m",
        json.dumps({"commit": sha, "tasks": {tid: {"state": "IMPLEMENTING", "gate": "BLOCKED"}}}), sha)
    r = cli(repo, "audit", "--from", base, "--to", "HEAD", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["results"][-1]["note"] == {"verdict": "PASS", "agrees": True}


@pytest.mark.e2e  # a real push through the installed pre-receive hook
def test_a_pushed_note_with_an_unhashable_state_does_not_make_the_pre_receive_hook_crash(h, repo, tmp_path):
    commit_all_ok(repo, "harness init")
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert h("install", "--server", cwd=bare).code == 0
    git(repo, "remote", "add", "origin", str(bare))
    tid = new_task(h)
    sha = commit_all_ok(repo, "a task")
    git(repo, "notes", "--ref", NOTES, "add", "-f", "-m",
        json.dumps({"tasks": {tid: {"state": ["DONE"]}}}), sha)
    p = git(repo, "push", "origin", "main", NOTES, check=False)
    no_traceback(p.stderr)
    assert p.returncode == 0, p.stderr
    assert "says UNREADABLE" in p.stderr and "recomputation decides" in p.stderr, p.stderr


# -- the agent hooks' log --------------------------------------------------------------------------

def test_a_non_object_line_in_the_agent_hook_log_is_refused_naming_file_and_line(h, repo):
    log = repo / ".harness/local/agent-hooks.jsonl"
    good = json.dumps({"at": "2026-01-01T00:00:00Z", "event": "stop.released", "host": "claude"})
    for bad in ("[1, 2]", '"text"', "42", json.dumps({"event": ["stop.released"], "host": "claude"}),
                json.dumps({"event": "stop.released", "host": {"h": 1}})):
        log.write_text(f"{good}\n{bad}\n", "utf-8")
        for args in (("agent", "stats"), ("metrics",)):
            r = h(*args)
            no_traceback(r.text)
            assert r.code == 2, r.text
            assert ".harness/local/agent-hooks.jsonl:2: not a record the agent hooks wrote" in r.err, r.err
    # Records the hook wrote are counted, and a torn line (a hook killed mid-append) is skipped.
    log.write_text(f"{good}\n{good}\n" + '{"at": "2026-01-01T00:00:00Z", "ev' + "\n", "utf-8")
    r = h("agent", "stats", "--json")
    assert r.code == 0 and json.loads(r.out) == {"stop.released": {"total": 2, "by_host": {"claude": 2}}}, r.text
    assert h.ok("metrics", "--json").code == 0


# -- approvals -------------------------------------------------------------------------------------

LOOSER = ("major_allowed: 0", "major_allowed: 1")


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("keys")
    return {"human": make_key(folder, "human")}


@pytest.fixture
def adopted(h, repo, keys) -> Path:
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", keys["human"][1]))
    commit_all_ok(repo, "adopt the harness")
    return repo


def loosen(repo: Path) -> bytes:
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace(*LOOSER))
    return gate.read_bytes()


def test_an_unhashable_signature_in_the_committed_approvals_counts_as_no_approval(adopted, keys, h):
    # The trusted (committed) side holds a record whose signature is a list: it is no approval, and
    # the set of approvals already spent is built from approvals only.
    junk = {"kind": "gate-change", "digest": "0" * 64, "signature": ["not", "text"], "signer": "x"}
    (adopted / ".harness/approvals.jsonl").write_text(json.dumps(junk) + "\n")
    commit_all_ok(adopted, "a junk approval")
    gate = loosen(adopted)
    path = adopted / ".harness/approvals.jsonl"
    # A claim of the same shape for this very change: refused in one line, naming the file and line.
    path.write_text(path.read_text() + json.dumps({**junk, "digest": approval_digest(gate)}) + "\n")
    r = validate_staged(adopted)
    no_traceback(r.stderr)
    assert r.returncode == 1, r.stderr
    assert ".harness/approvals.jsonl (line 2: field signature is a list)" in r.stderr, r.stderr
    task = h.ok("task", "new", "Anything").out.strip()
    r = h("gate", "--json")
    no_traceback(r.text)
    assert r.code == 2 and "field signature is a list" in json.loads(r.out)["error"], r.text
    # The legitimate approval beside them lets the loosening through (the hook and the gate).
    path.write_text(path.read_text() + approval_line("gate-change", gate, keys["human"][0]))
    r = validate_staged(adopted)
    assert r.returncode == 0, r.stderr
    r = h("gate", "--json", "--task", task)
    assert "error" not in json.loads(r.out), r.text


def approval_digest(raw: bytes) -> str:
    import hashlib

    return hashlib.sha256(raw).hexdigest()


@pytest.mark.parametrize("field", ["signer", "approved_by", "signature", "at"])
def test_a_lone_surrogate_in_an_approval_counts_as_none_and_never_crashes_the_check(adopted, keys, field):
    gate = loosen(adopted)
    signed = json.loads(approval_line("gate-change", gate, keys["human"][0]))
    # "\udc80" through JSON's escape: a str Python decodes, which no UTF-8 can hold.
    line = json.dumps({**signed, field: signed[field][:5] + "\udc80"}) + "\n"
    assert "\\udc80" in line
    path = adopted / ".harness/approvals.jsonl"
    path.write_text(line)
    r = validate_staged(adopted)
    no_traceback(r.stderr)
    assert r.returncode == 1 and "gate-only-tightens" in r.stderr and ".harness/gate.yaml" in r.stderr, r.stderr
    path.write_text(json.dumps(signed) + "\n")
    assert validate_staged(adopted).returncode == 0


# -- the ledger ------------------------------------------------------------------------------------

def verifying_with_evidence(h) -> str:
    tid = new_task(h)
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    return tid


def test_a_schema_valid_ledger_without_an_optional_field_is_shown_not_crashed(h, repo):
    tid = verifying_with_evidence(h)
    assert status_json(h)["evidence"]["unit_test"]["exit_code"] == 0  # recorded: shown as recorded
    ledger = repo / ".harness/tasks" / tid / "events.jsonl"

    def drop(events: list[dict]) -> None:
        for e in events:
            if e["type"] == "evidence.collected":
                e["data"].pop("exit_code", None)
                e["data"].pop("head", None)

    rechain(ledger, drop)
    for args in (("status",), ("status", "--json"), ("gate",), ("replay",)):
        r = h(*args)
        no_traceback(r.text)
        assert r.code in (0, 1), r.text
    assert status_json(h)["evidence"]["unit_test"]["exit_code"] is None


def test_a_ledger_line_with_a_carriage_return_is_refused_with_its_line_number(h, repo):
    tid = verifying_with_evidence(h)
    ledger = repo / ".harness/tasks" / tid / "events.jsonl"
    raw = ledger.read_bytes()
    assert h("status").code == 0  # LF only: accepted
    for crlf in (raw.replace(b"\n", b"\r\n"), raw.replace(b"\n", b"\r\n", 3)):
        ledger.write_bytes(crlf)
        r = h("status")
        no_traceback(r.text)
        assert r.code == 2, r.text
        assert f".harness/tasks/{tid}/events.jsonl:1: a carriage return" in r.err, r.err
        assert ".gitattributes" in r.err
    # A CR alone (an old Mac line ending) is a CR in the line too, never a line break.
    ledger.write_bytes(raw.replace(b"\n", b"\r", 1))
    r = h("status")
    assert r.code == 2 and f"{tid}/events.jsonl:1: a carriage return" in r.err, r.err
    # And the commit hook refuses to take it in.
    ledger.write_bytes(raw.replace(b"\n", b"\r\n"))
    r = validate_staged(repo)
    no_traceback(r.stderr)
    assert r.returncode != 0 and "events.jsonl:1: a carriage return" in r.stderr, r.stderr
    ledger.write_bytes(raw)
    assert h("status").code == 0


# -- numbers ---------------------------------------------------------------------------------------

def config_with_timeout(repo: Path, value: str) -> None:
    config = repo / ".harness/config.yaml"
    text = config.read_text("utf-8")
    start = text.index("evidence:")
    end = text.index("\n", start)
    config.write_text(text[:start] + f"evidence:\n  build:\n    command: [{PY!r}, -c, pass]\n"
                      f"    timeout: {value}" + text[end:], "utf-8")


@pytest.mark.parametrize("value", [".nan", ".NaN", ".inf", "+.inf", "1.0e+999"])
def test_a_nan_or_infinite_timeout_in_config_is_refused_naming_file_and_key(h, repo, value):
    new_task(h)
    config_with_timeout(repo, value)
    for args in (("evidence", "build"), ("status",)):
        r = h(*args)
        no_traceback(r.text)
        assert r.code == 2, r.text
        assert ".harness/config.yaml: field evidence.build.timeout:" in r.err and "not a finite number" in r.err, r.err
    r = validate_staged(repo)  # nor does the commit hook take it in
    assert r.returncode != 0 and "evidence.build.timeout" in r.stderr and "not a finite number" in r.stderr, r.stderr


def test_a_finite_timeout_is_accepted_and_the_command_line_refuses_nan_and_inf(h, repo):
    new_task(h)
    config_with_timeout(repo, "900.5")
    h.ok("evidence", "build")
    for bad in ("nan", "inf", "-inf", "0"):
        r = h("evidence", "build", "--timeout", bad)
        assert r.code == 2 and "--timeout" in r.err, r.text
    h.ok("evidence", "build", "--timeout", "30")


# -- FIFOs where the harness keeps its state or finds the user's settings ---------------------------

def test_a_fifo_as_the_stamp_cache_is_refused_and_the_commit_stamp_skipped_not_hung(h, repo):
    commit_all_ok(repo, "harness init")
    cache = repo / ".git/harness/stamp-cache.json"
    fifo_at(cache)
    (repo / "app.py").write_text("def answer():\n    return 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")  # no hooks installed here: the test runs the stamp itself
    r = run(repo, "hook", "stamp")  # what the post-commit hook runs: it never fails the commit
    assert r.returncode == 0
    assert "stamp skipped" in r.stderr and "stamp-cache.json: cannot read a FIFO" in r.stderr, r.stderr
    r = run(repo, "stamp")
    assert r.returncode == 2 and "stamp-cache.json: cannot read a FIFO" in r.stderr, r.stderr
    cache.unlink()
    assert run(repo, "stamp").returncode == 0 and cache.is_file()
    assert run(repo, "stamp").returncode == 0  # and read back


def stop_payload(repo: Path) -> str:
    return json.dumps({"session_id": "s-1", "cwd": str(repo), "hook_event_name": "Stop",
                       "transcript_path": "", "stop_hook_active": False})


def test_a_fifo_as_the_agents_stop_state_blocks_once_with_the_reason_never_hangs(h, repo):
    new_task(h)
    fifo_at(repo / ".harness/local/agent-stop.json")
    r = run(repo, "hook", "agent", "claude", "stop", stdin=stop_payload(repo))
    answer = json.loads(r.stdout)
    assert r.returncode == 0 and answer["decision"] == "block", r.stdout
    assert ".harness/local/agent-stop.json: cannot read a FIFO" in answer["reason"], answer
    assert answer["reason"].count("cannot read a FIFO") == 1, answer  # said once
    r = run(repo, "hook", "agent", "claude", "stop", stdin=stop_payload(repo))
    assert "decision" not in json.loads(r.stdout), r.stdout  # blocked once only: the agent may stop
    state = repo / ".harness/local/agent-stop.json"
    state.unlink()
    r = run(repo, "hook", "agent", "claude", "stop", stdin=stop_payload(repo))
    assert r.returncode == 0 and "failed" not in r.stdout, r.stdout  # a regular file (or none) again: judged
    # A count whose values have not their types is no count (not a crash): the hook judges afresh.
    for junk in ({"session": "s-1", "tree": "t", "blocks": "3"}, {"session": ["s-1"], "tree": "t", "blocks": 1},
                 {"session": "s-1", "tree": "t", "blocks": None}, [1, 2], "s-1"):
        state.write_text(json.dumps({"s-1": junk}))
        r = run(repo, "hook", "agent", "claude", "stop", stdin=stop_payload(repo))
        assert r.returncode == 0 and "failed" not in r.stdout, r.stdout


def test_a_fifo_as_the_agent_hook_log_is_refused_by_stats_and_metrics_and_the_hook(h, repo):
    log = fifo_at(repo / ".harness/local/agent-hooks.jsonl")
    for args in (("agent", "stats"), ("metrics",)):
        r = run(repo, *args)
        assert r.returncode == 2, r.stderr
        assert ".harness/local/agent-hooks.jsonl: cannot read a FIFO" in r.stderr, r.stderr
    from harness.agent import stopstate
    from harness.errors import HarnessError

    with pytest.raises(HarnessError, match=r"agent-hooks\.jsonl: cannot write to a FIFO"):
        stopstate.record(repo, "stop.error", host="claude")  # opening it to append would block
    log.unlink()
    stopstate.record(repo, "stop.error", host="claude")
    assert json.loads(run(repo, "agent", "stats", "--json").stdout) == {"stop.error": {"total": 1,
                                                                                         "by_host": {"claude": 1}}}


def test_the_installers_refuse_a_fifo_as_their_record_or_the_users_settings(h, repo):
    settings = fifo_at(repo / ".claude/settings.json")
    r = run(repo, "agent", "install", "--host", "claude")
    assert r.returncode == 2 and ".claude/settings.json: cannot read a FIFO" in r.stderr, r.stderr
    settings.unlink()
    settings.write_text(json.dumps({"theme": "dark", "hooks": {}}))
    assert run(repo, "agent", "install", "--host", "claude").returncode == 0
    assert json.loads(settings.read_text())["theme"] == "dark"
    # The user's settings are strict JSON: what is read is written back.
    settings.write_text('{"theme": "\\udc80"}')
    r = run(repo, "agent", "install", "--host", "claude")
    assert r.returncode == 2 and "settings.json: not valid JSON (a lone surrogate" in r.stderr, r.stderr
    settings.write_text('{"limit": NaN}')
    r = run(repo, "agent", "install", "--host", "claude")
    assert r.returncode == 2 and "settings.json: not valid JSON (NaN is not a JSON number)" in r.stderr, r.stderr

    manifest = fifo_at(repo / ".agents/skills/.engineering-harness.json")
    r = run(repo, "skills", "install")
    assert r.returncode == 2 and ".engineering-harness.json: cannot read a FIFO" in r.stderr, r.stderr
    manifest.unlink()
    assert run(repo, "skills", "install").returncode == 0

    record = fifo_at(repo / ".git" / "harness-install.json")
    for args in (("install",), ("uninstall",)):
        r = run(repo, *args)
        assert r.returncode == 2 and "harness-install.json: cannot read a FIFO" in r.stderr, r.stderr
    record.unlink()
    record.write_text(json.dumps({"added_rewrite_ref": ["refs/notes/harness"]}))
    r = run(repo, "uninstall")
    assert r.returncode == 2 and "harness-install.json: not a record `harness install` wrote (field " \
        "added_rewrite_ref is a list)" in r.stderr, r.stderr
    record.unlink()
    assert run(repo, "install").returncode == 0 and json.loads(record.read_text())
    assert run(repo, "uninstall").returncode == 0 and not record.exists()


def test_a_fifo_where_a_hook_or_the_frameworks_config_is_expected_is_refused_by_install(h, repo):
    hooks = repo / ".git/hooks"
    fifo_at(hooks / "pre-push")
    r = run(repo, "install")
    assert r.returncode == 2 and "hooks/pre-push: cannot read a FIFO" in r.stderr, r.stderr
    (hooks / "pre-push").unlink()
    fifo_at(repo / ".pre-commit-config.yaml")
    r = run(repo, "install")
    assert r.returncode == 2 and ".pre-commit-config.yaml: cannot read a FIFO" in r.stderr, r.stderr
    (repo / ".pre-commit-config.yaml").unlink()
    assert run(repo, "install").returncode == 0
