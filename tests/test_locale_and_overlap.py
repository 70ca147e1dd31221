"""#25 items 4 and 5: overlapping evidence runs keep every result; any locale, any ref name, any
clock, any object format. Each defect reproduced with the real CLI in a real repository, beside the
legitimate case a careless fix could break."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from harness.core.chain import LedgerProblem
from harness.core.replay import Projection, apply

from support.cli import TO_VERIFYING, start_harness, status_json, walk_to
from support.flows import collect_passing_evidence, gate_to_converged, gated_done, new_task
from support.gitrepo import commit_all_ok, git
from support.paths import PY, outside_env
from support.processes import py, wait_for
from support.records import events, ledger_path, rechain, record

# -- overlapping evidence runs --------------------------------------------------------------------


def test_overlapping_runs_keep_both_results_and_the_failure_that_finished_last_counts(h, task, repo, tmp_path):
    """Run A (fails) is prepared first and finishes last; run B (passes) starts after A and finishes
    first. A FIFO holds A until B has been recorded: the order is forced, not timed."""
    fifo = tmp_path / "go"
    os.mkfifo(fifo)
    slow = start_harness(repo, "evidence", "unit_test", "--",
                         *py(f"import sys; open({str(fifo)!r}).read(); print('slow run fails'); sys.exit(1)"))
    try:
        wait_for(lambda: any(e["type"] == "evidence.prepared" for e in events(repo, task)), what="A prepared")
        fast = h("evidence", "unit_test", "--", PY, "-c", "print('quick run passes')")
        assert fast.code == 0, fast.text
        with open(fifo, "w") as f:  # blocks until A's command opens it: A runs only now
            f.write("go")
        out, err = slow.communicate(timeout=120)
    finally:
        if slow.poll() is None:
            slow.kill()
            slow.wait()
    assert slow.returncode == 1, (out + err).decode()
    assert b"never prepared" not in err
    collected = [e["data"] for e in events(repo, task) if e["type"] == "evidence.collected"]
    assert [d["outcome"] for d in collected] == ["passed", "failed"]  # both, in the order they finished
    prepared = [e["data"]["run_id"] for e in events(repo, task) if e["type"] == "evidence.prepared"]
    assert [d["run_id"] for d in collected] == prepared[::-1]
    # The file on disk and the gate: the run that finished last, a failure not hidden by the earlier pass.
    assert record(repo, task, "unit_test")["outcome"] == "failed"
    assert record(repo, task, "unit_test")["run_id"] == collected[-1]["run_id"]
    r = h("gate", "--json")
    assert r.code == 1 and "unit_test evidence failed" in r.out, r.text
    assert status_json(h)["evidence"]["unit_test"]["outcome"] == "failed"


def _run(proj: Projection, seq: int, etype: str, **data) -> None:
    apply(proj, {"seq": seq, "ts": "2026-01-01T00:00:00Z", "type": etype, "data": data})


def _fresh() -> Projection:
    proj = Projection()
    _run(proj, 1, "task.created", id="TASK-20260101-000000", title="t", description="", max_iterations=5,
         base_commit=None)
    return proj


def _collected(run_id: str, outcome: str) -> dict:
    return {"run_id": run_id, "type": "unit_test", "digest": "sha256:" + "0" * 64, "outcome": outcome,
            "exit_code": 0 if outcome == "passed" else 1, "tree": "a" * 40, "head": None}


def test_overlap_rules_still_refuse_a_replay_and_keep_a_later_run_unknown():
    """What the fix must not loosen: a run recorded twice is refused; a run prepared after the one
    recorded stays "outcome unknown"; one prepared before it and never heard of is not UNKNOWN; a
    pass that finishes last is what counts (the latest finished run, whatever its outcome)."""
    proj = _fresh()
    for seq, rid in ((2, "a" * 16), (3, "b" * 16), (4, "c" * 16)):
        _run(proj, seq, "evidence.prepared", run_id=rid, type="unit_test", command="x", tree="a" * 40, head=None)
    _run(proj, 5, "evidence.collected", **_collected("b" * 16, "failed"))
    assert set(proj.pending_runs) == {"c" * 16}          # c started later: still the latest attempt
    assert set(proj.superseded_runs) == {"a" * 16}       # a started earlier: superseded, not UNKNOWN
    with pytest.raises(LedgerProblem, match=r"never prepared \(or was already recorded\)"):
        _run(proj, 6, "evidence.collected", **_collected("b" * 16, "failed"))
    _run(proj, 6, "evidence.collected", **_collected("a" * 16, "passed"))
    assert proj.evidence["unit_test"]["run_id"] == "a" * 16 and proj.evidence["unit_test"]["outcome"] == "passed"
    assert not proj.superseded_runs and set(proj.pending_runs) == {"c" * 16}
    with pytest.raises(LedgerProblem, match="never prepared"):
        _run(proj, 7, "evidence.collected", **_collected("d" * 16, "passed"))
    with pytest.raises(LedgerProblem, match="prepared as unit_test, recorded as build"):
        _run(proj, 7, "evidence.collected", **{**_collected("c" * 16, "passed"), "type": "build"})


# -- any locale -----------------------------------------------------------------------------------


def _status_bytes(repo: Path, encoding: str) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "harness", "status"], cwd=repo, capture_output=True,
                          env=outside_env(PYTHONIOENCODING=encoding))


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_status_under_a_narrow_locale_degrades_to_ascii(h, task, repo, encoding):
    p = _status_bytes(repo, encoding)
    assert p.returncode == 0, p.stderr.decode("latin-1")
    assert b"Traceback" not in p.stderr and b"UnicodeEncodeError" not in p.stderr
    assert b"Next:" in p.stdout and b"  -- " in p.stdout          # the em dash of `Next:`, as `--`
    text = (p.stdout + p.stderr).decode(encoding)                # all of it in the stream's encoding
    if encoding == "latin-1":
        assert "·" in text                                        # what Latin-1 carries stays (U+00B7)


def test_status_under_utf8_keeps_its_symbols(h, task, repo):
    p = _status_bytes(repo, "utf-8")
    assert p.returncode == 0, p.stderr.decode()
    assert "—".encode() in p.stdout and b"  -- " not in p.stdout


def test_the_fallbacks():
    from harness.cli.streams import ascii_fallback

    assert [ascii_fallback(c) for c in "—→…é中"] == ["--", "->", "...", "e", "?"]


# -- any ref name ---------------------------------------------------------------------------------


@pytest.mark.e2e
def test_a_ref_name_that_is_not_utf8_reaches_the_server_hook_as_bytes(tmp_path):
    server, client = tmp_path / "srv.git", tmp_path / "client"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    subprocess.run([PY, "-m", "harness", "install", "--server"], cwd=server, check=True, capture_output=True,
                   env=outside_env())
    git(tmp_path, "init", "-q", "-b", "main", str(client))
    (client / "app.py").write_text("x = 1\n")
    git(client, "add", "-A")
    git(client, "commit", "-qm", "first")

    def push(name: bytes) -> subprocess.CompletedProcess:
        (client / "app.py").write_text(f"x = {name!r}\n")
        git(client, "commit", "-qam", "more")
        # PYTHONIOENCODING=utf-8: the hook's stdin as a UTF-8 locale gives it (strict, no surrogateescape)
        return subprocess.run(["git", "push", str(server), b"HEAD:refs/heads/" + name], cwd=client,
                              capture_output=True, env=outside_env(PYTHONIOENCODING="utf-8"))

    latin = push(b"r\xe9sum\xe9")
    assert latin.returncode == 0, latin.stderr.decode("latin-1")
    assert b"UnicodeDecodeError" not in latin.stderr and b"internal error" not in latin.stderr
    assert b"pre-receive refs/heads/r\\xe9sum\\xe9: 2 commit(s) checked, no problems" in latin.stderr
    shown = subprocess.run(["git", "for-each-ref", "--format=%(refname)"], cwd=server, capture_output=True).stdout
    assert b"refs/heads/r\xe9sum\xe9\n" in shown                 # the ref is the bytes pushed
    utf8 = push("café".encode())                                    # a UTF-8 name shows as itself
    assert utf8.returncode == 0 and "pre-receive refs/heads/café: 1 commit(s)".encode() in utf8.stderr, utf8.stderr


def test_ref_lines_keep_the_bytes():
    from harness.history.incoming import ref_bytes, ref_lines, shown_ref

    old, new = "a" * 40, "b" * 40
    [[_, _, ref]] = ref_lines([f"{old} {new} ".encode() + b"refs/heads/d\xe9j\xe0"], (0, 1), "<o> <n> <ref>")
    assert ref_bytes(ref) == b"refs/heads/d\xe9j\xe0" and shown_ref(ref) == "refs/heads/d\\xe9j\\xe0"
    [[_, _, ref]] = ref_lines([f"{old} {new} refs/heads/café"], (0, 1), "<o> <n> <ref>")
    assert shown_ref(ref) == "refs/heads/café"


# -- any clock ------------------------------------------------------------------------------------


def _ts_all(tid_repo: tuple[Path, str], ts: str) -> None:
    repo, tid = tid_repo

    def mutate(evs: list[dict]) -> None:
        for e in evs:
            e["ts"] = ts
    rechain(ledger_path(repo, tid), mutate)


def test_a_clock_behind_the_done_does_not_hide_a_false_done(h, repo):
    """T2, created in a commit after T1's DONE and naming T1, carries a timestamp years before it."""
    commit_all_ok(repo, "harness init")
    t1 = gated_done(h, "Change the answer")
    commit_all_ok(repo, "T1 DONE")
    t2 = new_task(h, f"Answer wrong again after {t1}")
    _ts_all((repo, t2), "2000-01-01T00:00:00Z")
    commit_all_ok(repo, "T2, from a machine whose clock is behind")
    doc = json.loads(h.ok("metrics", "--json").out)
    assert doc["false_done"]["numerator"] == 1 and doc["false_done"]["ids"] == [f"{t1} (reopened by {t2})"]


def test_a_clock_ahead_does_not_invent_a_false_done(h, repo):
    """T2 names T1 and is committed before T1's DONE, with a timestamp far in the future: by
    history it came first, so it reopens nothing."""
    commit_all_ok(repo, "harness init")
    t1 = new_task(h, "Change the answer")
    t2 = h.ok("task", "new", f"Follow-up once {t1} is done").out.strip()
    _ts_all((repo, t2), "2999-01-01T00:00:00Z")
    commit_all_ok(repo, "T1 started, T2 planned (clock ahead)")
    h.ok("task", "switch", t1)
    walk_to(h, *TO_VERIFYING)
    collect_passing_evidence(h)
    gate_to_converged(h)
    h.ok("transition", "DONE")
    commit_all_ok(repo, "T1 DONE")
    doc = json.loads(h.ok("metrics", "--json").out)
    assert (doc["false_done"]["numerator"], doc["false_done"]["denominator"]) == (0, 1), doc["false_done"]


# -- any object format ----------------------------------------------------------------------------


def test_a_sha256_repository_is_named_as_such(tmp_path):
    repo = tmp_path / "s256"
    proc = git(tmp_path, "init", "-q", "--object-format=sha256", str(repo), check=False)
    if proc.returncode != 0:
        pytest.skip(f"this git cannot make a sha256 repository: {proc.stderr}")
    from harness.errors import HarnessError
    from harness.gitio.git import Git

    try:
        Git(repo)
    except HarnessError as exc:
        text = exc.message
        assert "sha256" in text and "does not support sha256 repositories" in text, text
        assert "not a git repository" not in text
    else:  # a libgit2 built with sha256 opens it: nothing to refuse
        return
    p = subprocess.run([PY, "-m", "harness", "init"], cwd=repo, capture_output=True, text=True, env=outside_env())
    assert p.returncode == 2 and "does not support sha256 repositories" in p.stderr, p.stderr


def test_a_folder_that_is_no_repository_is_still_called_that(tmp_path):
    from harness.errors import HarnessError
    from harness.gitio.git import Git

    (tmp_path / "plain").mkdir()
    with pytest.raises(HarnessError, match="not a git repository"):
        Git(tmp_path / "plain")
