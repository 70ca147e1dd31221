"""A token a person wraps over lines in a folded block of a task file they edit by hand (task.yaml's description, a
requirement's statement) reaches no commit in clear (read 159's F-0557): the commit check read a YAML file by its
parsed values, where the parse had joined the pieces with a space, and `harness replay --write` re-rendered them so."""

from __future__ import annotations

import random
import string

import yaml

from support.cli import validate_staged
from support.records import tdir

_R = random.Random(557)
GHP = "ghp_" + "".join(_R.choice(string.ascii_letters + string.digits) for _ in range(36))


def _hand_edited(repo, tid, text: str) -> None:
    path = tdir(repo, tid) / "task.yaml"
    doc = path.read_text()
    assert "  description: ''\n" in doc, doc
    path.write_text(doc.replace("  description: ''\n", text))


def _lifecycle_edited(repo, tid) -> None:
    path = tdir(repo, tid) / "task.yaml"
    path.write_text(path.read_text().replace("state: CREATED", "state: PLANNED"))


def test_f0557_the_commit_check_refuses_a_token_folded_in_a_task_file(h, repo, task):
    _hand_edited(repo, task, f"  description: >\n    the CI token is\n    {GHP[:20]}\n    {GHP[20:]}\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "task.yaml" in r.stderr, r.stderr


def test_f0557_replay_write_replaces_a_folded_token(h, repo, task):
    _hand_edited(repo, task, f"  description: >\n    the CI token is\n    {GHP[:20]}\n    {GHP[20:]}\n")
    _lifecycle_edited(repo, task)  # what `replay --write` is for: a file that disagrees with the ledger
    assert h("replay", "--write").code == 0
    text = (tdir(repo, task) / "task.yaml").read_text()
    assert GHP[20:] not in text and GHP[:20] not in text and "[REDACTED:" in text, text
    assert validate_staged(repo).returncode == 0


def test_f0557_folded_prose_in_a_task_file_is_committed_as_written(h, repo, task):
    # the honest case: a description folded over lines, with long identifiers, is no secret
    _hand_edited(repo, task, "  description: >\n    rework harness/evidence/outputcut.py so that\n"
                             "    ReadTheDocumentationFirst2026Edition and\n    SecondHalfOfTheWord2026 stay\n")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    _lifecycle_edited(repo, task)
    assert h("replay", "--write").code == 0
    described = yaml.safe_load((tdir(repo, task) / "task.yaml").read_text())["task"]["description"]
    assert "ReadTheDocumentationFirst2026Edition and SecondHalfOfTheWord2026" in described, described


def test_f0557_a_file_the_harness_rendered_keeps_its_dumpers_folds_as_spaces():
    # the honest case the commit check must not refuse: YAML the harness wrote folds a long value at its spaces, and
    # a value whose words sit either side of such a fold (a reviewer's output tail, held by the ledger) is the
    # harness's own; a person's file read strictly is read over its lines
    from harness.store.secrets_check import flagged_values

    raw = f"claim: 'the log printed {GHP[:20]}\n  {GHP[20:]} and went on'\n".encode()
    assert flagged_values(".harness/tasks/T/findings/F-0001.yaml", raw, own=True) == []
    assert flagged_values(".harness/tasks/T/findings/F-0001.yaml", raw) != []
