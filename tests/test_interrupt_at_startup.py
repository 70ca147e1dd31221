"""Ctrl-C at any moment ends `harness` with "interrupted" and 130, never a traceback: also while a
lazily loaded module (pygit2) is half made and the `except` that reads it raises over the interrupt."""

from __future__ import annotations

import pytest

from harness.cli import launch, main


def _run(monkeypatch, capsys, raised: BaseException) -> tuple[int, str]:
    def boom(argv=None):
        raise raised

    monkeypatch.setattr(main, "main", boom)
    monkeypatch.setattr("sys.argv", ["harness", "task", "list"])  # not one the launcher answers itself
    with pytest.raises(SystemExit) as stop:
        launch.entry()
    return stop.value.code, capsys.readouterr().err


def _raised_while_handling_an_interrupt() -> BaseException:
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise AttributeError("module 'pygit2' has no attribute 'GitError'")  # noqa: B904 - as it happens
    except AttributeError as exc:
        return exc


def test_an_error_raised_over_an_interrupt_ends_as_interrupted(monkeypatch, capsys):
    assert _run(monkeypatch, capsys, _raised_while_handling_an_interrupt()) == (130, "harness: interrupted\n")


def test_a_plain_interrupt_ends_as_interrupted(monkeypatch, capsys):
    assert _run(monkeypatch, capsys, KeyboardInterrupt()) == (130, "harness: interrupted\n")


def test_any_other_error_still_shows_its_traceback(monkeypatch, capsys):
    with pytest.raises(AttributeError):
        _run(monkeypatch, capsys, AttributeError("a bug"))


def test_the_exit_code_of_the_command_is_kept(monkeypatch):
    monkeypatch.setattr(main, "main", lambda argv=None: 1)
    monkeypatch.setattr("sys.argv", ["harness", "task", "list"])  # not one the launcher answers itself
    with pytest.raises(SystemExit) as stop:
        launch.entry()
    assert stop.value.code == 1
