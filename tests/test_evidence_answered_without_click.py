"""`harness evidence TYPE [--task ID] -- COMMAND ...` is answered before click loads, and prints,
records and exits exactly as the click command does: each case runs once through the entry point's
fast path and once through main() (click), and what each wrote is compared byte for byte (but for
the run's id, clock and the digests and hashes that bind them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import evidence_fast
from harness.cli.launch import fast_answer
from harness.cli.main import main

PY = sys.executable
TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"
SENDGRID = "SG." + "a1B2c3D4e5F6g7H8i9J0kL" + "." + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9876543"
CLOCK = {"run_id", "timestamp", "started_at", "finished_at", "duration_s"}
BOUND = {"digest", "prev", "ts", "seq"}  # what the clock and the run id feed into


def _run(repo: Path, capfd, args: list[str], *, fast: bool) -> tuple[int, str, str]:
    import os

    capfd.readouterr()
    old = os.getcwd()
    os.chdir(repo)
    try:
        if fast:
            code = fast_answer(args)
            assert code is not None, "the fast path left this form to click"
        else:
            code = main(args)
    finally:
        os.chdir(old)
    out, err = capfd.readouterr()
    return code, out, err


def _written(repo: Path, task: str, etype: str) -> dict:
    """The record (its clock fields dropped), the log and the last two ledger events (their clock,
    run id and chain dropped), as the run left them."""
    folder = repo / ".harness" / "tasks" / task
    record = folder / "evidence" / f"{etype}.json"
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()[-2:]]
    for event in events:
        for key in BOUND:
            event.pop(key, None)
        for key in CLOCK | BOUND:
            event["data"].pop(key, None)
    return {"record": {k: v for k, v in json.loads(record.read_text()).items() if k not in CLOCK}
            if record.exists() else None,
            "log": (folder / "evidence" / f"{etype}.log").read_bytes() if record.exists() else None,
            "events": events}


def _both(repo: Path, task: str, capfd, args: list[str], etype: str = "custom") -> None:
    _run(repo, capfd, args, fast=False)  # a first run: the two compared then see the same task (its evidence there)
    fast = _run(repo, capfd, args, fast=True), _written(repo, task, etype)
    slow = _run(repo, capfd, args, fast=False), _written(repo, task, etype)
    assert fast == slow


CASES = {
    "passes": ["evidence", "custom", "--", PY, "-c", "print('ok')"],
    "fails": ["evidence", "custom", "--", PY, "-c", "import sys; print('bad', file=sys.stderr); sys.exit(3)"],
    "not found": ["evidence", "custom", "--", "no-such-program-here"],
    "secrets in command and output": ["evidence", "unit_test", "--", PY, "-c",
                                      f"print('{TOKEN} {SENDGRID}')", "--password", "hunter2hunter2", SENDGRID],
    "named custom type": ["evidence", "custom.perf", "--", PY, "-c", "pass"],
}


@pytest.mark.parametrize("args", CASES.values(), ids=list(CASES))
def test_the_fast_path_records_and_prints_what_click_does(h, repo, task, capfd, args):
    _both(repo, task, capfd, args, etype=args[1])


def test_an_explicit_task_is_taken_alike(h, repo, task, capfd):
    for args in (["evidence", "build", "--task", task, "--", PY, "-c", "pass"],
                 ["evidence", "build", f"--task={task}", "--", PY, "-c", "pass"]):
        _both(repo, task, capfd, args, etype="build")


def test_the_secret_environment_is_redacted_alike(h, repo, task, capfd, monkeypatch):
    monkeypatch.setenv("MY_SERVICE_CRED", "s3cr3t-value-of-a-service")
    monkeypatch.setenv("PYTEST_ADDOPTS", f"-k {SENDGRID}")
    args = ["evidence", "custom", "--", PY, "-c", "import os; print(os.environ['MY_SERVICE_CRED'])"]
    _both(repo, task, capfd, args)
    record = _written(repo, task, "custom")["record"]
    assert "[REDACTED:env:MY_SERVICE_CRED]" in record["stdout_tail"]
    assert record["env"]["PYTEST_ADDOPTS"] == "-k [REDACTED:ds_sendgrid_api_key]"


def test_a_refusal_is_reported_alike(h, repo, task, capfd, tmp_path):
    unknown = ["evidence", "custom", "--task", "TASK-nope", "--", "true"]
    assert _run(repo, capfd, unknown, fast=True) == _run(repo, capfd, unknown, fast=False)
    code, _, err = _run(repo, capfd, unknown, fast=True)
    assert code == 2 and "no task TASK-nope" in err
    # A shadowing runner is refused before anything is recorded, with the next step named.
    (repo / "unittest").mkdir()
    (repo / "unittest" / "__init__.py").write_text("")
    shadowed = ["evidence", "unit_test", "--", PY, "-m", "unittest"]
    fast, slow = _run(repo, capfd, shadowed, fast=True), _run(repo, capfd, shadowed, fast=False)
    assert fast == slow and fast[0] == 1 and "  next: " in fast[2], fast
    # Outside a harness project.
    (tmp_path / "plain").mkdir()
    subprocess.run(["git", "init", "-q"], cwd=tmp_path / "plain", check=True)
    args = ["evidence", "custom", "--", "true"]
    assert _run(tmp_path / "plain", capfd, args, fast=True) == _run(tmp_path / "plain", capfd, args, fast=False)


@pytest.mark.parametrize("args", [
    [], ["--help"], ["custom"], ["custom", "true"], ["custom", "--"], ["custom", "--help", "--", "true"],
    ["custom", "--junit", "r.xml", "--", "true"], ["custom", "--timeout", "5", "--", "true"],
    ["custom", "--shell", "--", "true"], ["--task", "T", "custom", "--", "true"], ["pass_to_pass"],
    ["pass_to_pass", "--", "true"], ["fail_to_pass", "--", "true"], ["not a type", "--", "true"],
    ["custom", "--task", "--", "true"], ["custom", "--task=", "--", "true"], ["custom", "--task", "-x", "--", "true"],
    ["custom", "--", "\udcff"], ["custom", "--task", "T", "--json", "--", "true"],
], ids=repr)
def test_every_other_form_is_left_to_click(args):
    assert evidence_fast.parse(args) is None


def test_the_forms_answered_here(tmp_path):
    assert evidence_fast.parse(["custom", "--", "true", "--help"]) == ("custom", None, ("true", "--help"))
    assert evidence_fast.parse(["custom.perf", "--task", "T-1", "--", "a", "--", "b"]) == ("custom.perf", "T-1",
                                                                                          ("a", "--", "b"))
    assert evidence_fast.parse(["unit_test", "--task=T-1", "--", "x"]) == ("unit_test", "T-1", ("x",))


def test_recording_evidence_loads_neither_click_nor_detect_secrets(h, repo, task):
    script = ("import sys, runpy\nsys.argv = ['harness', *sys.argv[1:]]\n"
              "try:\n    runpy.run_module('harness', run_name='__main__')\nexcept SystemExit as e:\n    code = e.code\n"
              "print(repr(code), sorted({m.split('.')[0] for m in sys.modules} & {'click', 'detect_secrets', 'requests'}),"
              " file=sys.stderr)\n")
    proc = subprocess.run([PY, "-c", script, "evidence", "custom", "--", PY, "-c", "pass"], cwd=repo,
                          capture_output=True, text=True, timeout=300)
    assert proc.stderr.splitlines()[-1] == "0 []", proc.stderr
    assert json.loads((repo / ".harness/tasks" / task / "evidence/custom.json").read_text())["outcome"] == "passed"
