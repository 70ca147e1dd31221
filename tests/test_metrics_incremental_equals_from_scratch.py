"""`harness metrics` over real histories of many shapes gives exactly what it gave when every
ledger was validated whole and every event decoded: the incremental path (ledgers validated once
per run, appended suffixes checked against the validated prefix, blobs read once, only the events
the facts need decoded) changes the cost, never an answer. Rewritten, force-pushed, truncated,
deleted and corrupt ledgers included."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from harness.cli.metrics_report import report
from harness.gitio import blob_memo
from harness.gitio.git import Git
from harness.history.metrics import measure
from harness.store import ledger_memo

from support import metrics_from_scratch
from support.cli import TO_VERIFYING, walk_to
from support.flows import finding, gated_done, hand_done_no_verify, new_task
from support.gitrepo import commit_all_ok, commit_ok, git
from support.paths import PY
from support.records import append_event, ledger_path, rechain, task_dir
from support.templates import Template, template


def _reviewed(h, repo, tmp) -> None:
    """The current task reviewed: one finding confirmed (with a regression test), one rejected."""
    walk_to(h, *TO_VERIFYING, "REVIEWING")
    proposal = tmp / "findings.yaml"
    proposal.write_text(yaml.safe_dump({"findings": [
        finding("answer is 42", "answer() must not be 42", "import app, sys; sys.exit(app.answer() == 42)"),
        finding("answer is negative", "answer() < 0", "import app, sys; sys.exit(app.answer() < 0)")]}))
    h.ok("finding", "propose", "--file", str(proposal))
    walk_to(h, "REPRODUCING")
    h.ok("finding", "reproduce", "F-0001")
    h.ok("finding", "reproduce", "F-0002")
    h.ok("finding", "reject", "F-0002", "--reason", "it is positive")
    walk_to(h, "FIXING")
    (repo / "test_answer.py").write_text("import app, sys\nsys.exit(app.answer() == 42)\n")
    h.ok("finding", "regression", "F-0001", "test_answer.py", "--", PY, "test_answer.py")


def _by_hand(repo, msg: str) -> str:
    git(repo, "add", "-A")
    return commit_ok(repo, msg, "--no-verify")


def build_shapes(h, repo) -> dict[str, dict[str, str]]:
    """main: a gated DONE, a ledger growing over commits (reviewed, then rewritten so it no longer
    extends what came before), a task reopening the first, a DONE by hand, a deleted task, a ledger corrupted then repaired.
    side: forked from the middle, a truncated ledger then different appends (a force push)."""
    c: dict[str, str] = {"init": commit_all_ok(repo, "harness init")}
    first = gated_done(h, "Finished early")
    c["done"] = commit_all_ok(repo, "first task DONE")
    grows = new_task(h, "Grows over many commits")
    c["grows"] = commit_all_ok(repo, "second task")
    for n in range(3):
        h.ok("requirement", "add", f"It works {n}", "--priority", "should")
        (repo / "app.py").write_text(f"def answer():\n    return 42  # {n}\n")
        c[f"append{n}"] = commit_all_ok(repo, f"append {n}")
    _reviewed(h, repo, repo.parent)
    c["reviewed"] = commit_all_ok(repo, "review")
    new_task(h, f"Finished early was not: {first} still fails")
    c["reopened"] = commit_all_ok(repo, "a task naming the first one, made after its DONE")
    _, c["forged"] = hand_done_no_verify(repo, h, "Shortcut")
    gone = new_task(h, "Deleted later")
    c["gone"] = commit_all_ok(repo, "a task that is deleted later")
    shutil.rmtree(task_dir(repo, gone))
    c["deleted"] = _by_hand(repo, "delete a task")
    rechain(ledger_path(repo, grows), lambda evs: evs[1]["data"].update(statement="rewritten"))
    c["rewritten"] = _by_hand(repo, "rewrite an early ledger line")
    bad = new_task(h, "Corrupted")
    c["bad"] = commit_all_ok(repo, "a task whose ledger breaks")
    good = ledger_path(repo, bad).read_bytes()
    ledger_path(repo, bad).write_bytes(good + b"{not json\n")
    c["corrupt"] = _by_hand(repo, "corrupt a ledger")
    ledger_path(repo, bad).write_bytes(good)
    append_event(repo, bad, "requirement.added", {"id": "REQ-002", "priority": "must", "source": "user",
                                                  "statement": "it is repaired"})
    c["repaired"] = _by_hand(repo, "repair it")
    git(repo, "checkout", "-q", "-b", "side", c["append1"])
    path = ledger_path(repo, grows)
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-1]))
    c["truncated"] = _by_hand(repo, "drop the last ledger line")
    for n in range(2):
        append_event(repo, grows, "requirement.added", {"id": f"REQ-10{n}", "priority": "must", "source": "user",
                                                        "statement": f"another reading {n}"})
        c[f"side{n}"] = _by_hand(repo, f"side append {n}")
    git(repo, "checkout", "-q", "main")
    return {"shape_commits": c}


@pytest.fixture(scope="session")
def shapes_template(tmp_path_factory, h_template) -> Template:
    return template(tmp_path_factory, "metrics-shapes", lambda repo, h: build_shapes(h, repo), on=h_template)


@pytest.fixture
def shapes(shapes_template, h, repo) -> dict[str, str]:
    """name -> commit, oldest first (the template's other data left out)."""
    return dict(shapes_template.data["shape_commits"])


def _remembered_nothing() -> None:
    ledger_memo.forget()
    blob_memo.forget()


@pytest.mark.parametrize("to", ["repaired", "side1", "corrupt", "rewritten"])
def test_every_range_gives_what_validating_everything_whole_gives(h, repo, shapes, to):
    g = Git(repo)
    _remembered_nothing()  # the first range starts cold; the later ones find the earlier ones' work
    for start in [None, *shapes]:
        from_rev = shapes[start] if start else None
        expected = metrics_from_scratch.measure(g, from_rev, shapes[to])
        got = measure(g, from_rev, shapes[to])
        assert got.as_dict() == expected.as_dict(), (start, to)
        assert got == expected


def test_the_histories_exercise_every_kind_of_fact(h, repo, shapes):
    """The shapes above are not vacuous: DONE claims with and without a PASS, a confirmed finding
    with its regression test, a DONE reopened later, an unreadable ledger, a force-pushed side."""
    doc = measure(Git(repo), shapes["init"], shapes["corrupt"]).as_dict()
    assert doc["gate_bypass"]["numerator"] == 1 and doc["gate_bypass"]["denominator"] == 2
    assert doc["finding_confirmation"]["numerator"] == 1 and doc["regression_capture"]["numerator"] == 1
    assert doc["unreadable_tasks"] and doc["tasks"] >= 3
    assert doc["false_done"]["numerator"] == 1
    side = measure(Git(repo), shapes["repaired"], shapes["side1"]).as_dict()
    assert side["range"]["commits"] == 3 and side["unreadable_tasks"] == []


@pytest.mark.parametrize("as_json", [False, True])
def test_the_printed_report_is_the_same(h, repo, shapes, capfd, as_json):
    g = Git(repo)
    for start, to in [(None, "repaired"), ("append0", "side1"), ("grows", "corrupt"), ("side0", "repaired")]:
        args = ["metrics", "--to", shapes[to], *(["--from", shapes[start]] if start else []),
                *(["--json"] if as_json else [])]
        printed = h.ok(*args).out
        report(metrics_from_scratch.measure(g, shapes[start] if start else None, shapes[to]), as_json)
        assert printed == capfd.readouterr().out
        if as_json:
            assert json.loads(printed)["range"]["to"] == shapes[to]
