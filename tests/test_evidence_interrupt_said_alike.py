"""An evidence run interrupted before its command starts says so in the same words on both paths: the
click-free answer prints the newline click prints before `harness: interrupted`."""

from __future__ import annotations

import os

import pytest

from harness.cli.launch import fast_answer
from harness.cli.main import main


def _interrupted(repo, capfd, monkeypatch, run) -> tuple[int, str]:
    from harness.evidence import recording as evidence
    def interrupt(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(evidence, "record_evidence", interrupt)
    capfd.readouterr()
    old = os.getcwd()
    os.chdir(repo)
    try:
        code = run(["evidence", "custom", "--", "true"])
    finally:
        os.chdir(old)
    return code, capfd.readouterr().err


def test_an_interrupt_is_said_as_click_says_it(h, repo, task, capfd, monkeypatch):
    slow = _interrupted(repo, capfd, monkeypatch, main)
    fast = _interrupted(repo, capfd, monkeypatch, fast_answer)
    assert slow[0] == 130
    assert fast == slow


@pytest.mark.parametrize("run", [main, fast_answer], ids=["click", "fast"])
def test_the_interrupt_names_itself_on_its_own_line(h, repo, task, capfd, monkeypatch, run):
    code, err = _interrupted(repo, capfd, monkeypatch, run)
    assert code == 130 and err.startswith("\n") and "harness: interrupted" in err
