"""`harness replay --write` keeps the free-form text of files it rewrites and says what it could not fix."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from support.records import tdir


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1))


def test_replay_write_keeps_freeform_text_of_files_that_still_parse(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    h.ok("invariant", "add", "Never lose data", "--category", "recovery", "--severity", "major")
    folder = tdir(repo, task)
    edit(folder / "task.yaml", "    design: null\n", "    design: docs/d.md\n")
    edit(folder / "task.yaml", "  state: CREATED\n", "  state: DONE\n")              # a hand edit to undo
    edit(folder / "requirements.yaml", "statement: Resume", "statement: Resume after SIGKILL")
    edit(folder / "invariants.yaml", "severity: major", "severity: [major")           # a syntax slip
    r = h("replay", "--write")
    assert r.code == 0, r.text
    assert f".harness/tasks/{task}/invariants.yaml" in r.err and "replaced by the ledger" in r.err
    assert "requirements.yaml: " not in r.err and "task.yaml: " not in r.err  # only the broken file is named
    assert "files agree" in r.out
    doc = yaml.safe_load((folder / "task.yaml").read_text())["task"]
    assert doc["spec"] == {"design": "docs/d.md", "plan": None} and doc["state"] == "CREATED"
    reqs = yaml.safe_load((folder / "requirements.yaml").read_text())["requirements"]
    assert reqs[0]["statement"] == "Resume after SIGKILL"
    assert yaml.safe_load((folder / "invariants.yaml").read_text())["invariants"][0]["severity"] == "major"
    h.ok("replay")


def test_replay_write_salvages_the_text_of_a_file_that_fails_its_schema(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    path = tdir(repo, task) / "requirements.yaml"
    edit(path, "statement: Resume", "statement: Resume from the last checkpoint")
    edit(path, "priority: must", "priority: urgent")  # parses, but the schema refuses it
    edit(tdir(repo, task) / "task.yaml", "  title: Add resumable execution\n", "  title: Resumable runs\n  colour: red\n")
    assert h("replay").code == 2
    r = h("replay", "--write")
    assert r.code == 0, r.text
    assert "replaced by the ledger" not in r.text
    req = yaml.safe_load(path.read_text())["requirements"][0]
    assert req["statement"] == "Resume from the last checkpoint" and req["priority"] == "must"
    task_doc = yaml.safe_load((tdir(repo, task) / "task.yaml").read_text())["task"]
    assert task_doc["title"] == "Resumable runs" and "colour" not in task_doc
    h.ok("replay")


def test_replay_write_reports_a_tampered_evidence_file_it_cannot_fix(h, repo, task):
    h.ok("evidence", "build", "--", sys.executable, "-c", "pass")
    record = tdir(repo, task) / "evidence" / "build.json"
    record.write_text(record.read_text().replace('"exit_code": 0', '"exit_code": 0 '))
    edit(tdir(repo, task) / "task.yaml", "  iteration: 0\n", "  iteration: 3\n")
    r = h("replay", "--write")
    assert r.code == 2, r.text
    assert "1 problem(s) remain" in r.out and "build.json" in r.err and "digest differs" in r.err
    assert "task.iteration" not in r.err  # the hand edit was undone
    r = h("replay")
    assert r.code == 2 and "build.json" in r.err
