"""A critical or major finding is decided by its reviewer's reproducer, run as the reviewer wrote it."""

from __future__ import annotations

from support.flows import ANSWER_REPRODUCER, proposal, propose
from support.paths import PY
from support.records import events


def test_another_command_cannot_confirm_a_major_finding(h, repo, task, tmp_path):
    assert propose(h, tmp_path, proposal()).code == 0
    before = events(repo, task)
    r = h("finding", "reproduce", "F-0001", "--", PY, "-c", "raise SystemExit(1)")
    assert r.code == 1 and "only its reviewer's reproducer, run unchanged, confirms it" in r.err, r.err
    assert events(repo, task) == before  # it ran and failed; nothing is recorded


def test_a_passing_run_of_another_command_is_an_attempt_that_refutes_nothing(h, repo, task, tmp_path):
    assert propose(h, tmp_path, proposal()).code == 0
    assert h("finding", "reproduce", "F-0001", "--", PY, "-c", "pass").code == 0
    r = h("finding", "reject", "F-0001", "--reason", "my command passed")
    assert r.code == 1, r.text  # rejection needs the reviewer's own reproducer to pass


def test_the_reviewers_command_typed_out_is_the_reviewers_command(h, repo, task, tmp_path):
    assert propose(h, tmp_path, proposal()).code == 0
    r = h("finding", "reproduce", "F-0001", "--", *ANSWER_REPRODUCER)
    assert r.code == 0 and "CONFIRMED" in r.text, r.text  # answer() is 42, the reproducer wants 41


def test_a_minor_finding_may_be_tried_with_another_command(h, repo, task, tmp_path):
    assert propose(h, tmp_path, proposal(severity="minor")).code == 0
    r = h("finding", "reproduce", "F-0001", "--", PY, "-c", "raise SystemExit(1)")
    assert r.code == 0 and "CONFIRMED" in r.text, r.text
