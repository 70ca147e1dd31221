"""`harness skills install` and `harness agent install`, killed (SIGKILL) at each step in
turn: the next uninstall leaves the folder as it was before (no temporary, no orphan file,
the user's settings byte-for-byte), and the next install finishes the work."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

KILL = "HARNESS_KILL_AT_STEP"


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but the skills an agent install also writes (and its
    uninstall leaves, by design: `harness skills uninstall` removes them)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "skills" not in p.relative_to(folder).parts[:1]}


def _every_kill(h, args: tuple[str, ...], undo: tuple[str, ...], folder: Path) -> int:
    before = _tree(folder)
    assert h.proc(*args).code == 0
    installed = _tree(folder)
    assert h.proc(*undo).code == 0 and _tree(folder) == before
    step = 1
    while _killed(h, step, args):  # the next uninstall undoes it
        assert h.proc(*undo).code == 0 and _tree(folder) == before, f"killed at step {step}"
        assert _killed(h, step, args)  # the next install finishes it
        assert h.proc(*args).code == 0 and _tree(folder) == installed, f"killed at step {step}"
        assert h.proc(*undo).code == 0 and _tree(folder) == before, f"killed at step {step}"
        step += 1
    assert h.proc(*undo).code == 0 and _tree(folder) == before
    return step - 1


def _killed(h, step: int, args: tuple[str, ...]) -> bool:
    r = h.proc(*args, env={KILL: str(step)})
    assert r.code in (0, -signal.SIGKILL), r.text
    return r.code == -signal.SIGKILL


@pytest.mark.slow  # an install run and killed at each of its steps
def test_a_skills_install_killed_at_any_step_is_undone_or_finished(h, repo):
    own = repo / ".claude" / "skills" / "mine" / "SKILL.md"
    own.parent.mkdir(parents=True)
    own.write_text("the user's own skill\n")
    steps = _every_kill(h, ("skills", "install", "--agent", "claude"), ("skills", "uninstall", "--agent", "claude"),
                        repo / ".claude" / "skills")
    assert steps >= 4 and own.read_text() == "the user's own skill\n"


@pytest.mark.slow  # an install run and killed at each of its steps
def test_an_agent_install_killed_at_any_step_is_undone_or_finished(h, repo):
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{\n    "big": 1e400,\n    "name": "Zo\xc3\xab"\n}\n')
    steps = _every_kill(h, ("agent", "install", "--host", "claude"), ("agent", "uninstall", "--host", "claude"),
                        repo / ".claude")
    assert steps >= 1 and settings.read_bytes() == b'{\n    "big": 1e400,\n    "name": "Zo\xc3\xab"\n}\n'
