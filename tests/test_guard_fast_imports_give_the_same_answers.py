"""What the agent's tool guard does instead of the standard library's slower ways gives exactly their answers:
its JSON answers are json.dumps', the config reader's ASCII check is the regex's, a path string is the one
pathlib would open, pathlib's is_dir() is kept, git started without subprocess answers as subprocess.run did,
a deferred module is the module, and the guard's own exit without teardown is the exit it had."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agent import notes_ref_plain
from harness.agent.answer_json import dumps
from harness.gitio import spawned_git
from harness.gitio.environment import is_dir
from harness.store import bounded

TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=20)
ANSWER = st.recursive(TEXT, lambda inner: st.dictionaries(TEXT, inner, max_size=4), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, ANSWER, max_size=4))
def test_an_answer_s_json_text_is_json_dumps(obj):
    assert dumps(obj) == json.dumps(obj, ensure_ascii=False)


@pytest.mark.parametrize("obj", [{}, {"a": 1}, {"a": [1, "x"]}, {"a": None, "b": True}, {1: "x"},
                                 {"reason": "line\nbreak \"quoted\" \\ \x00\x1f\x7f é \U0001d11e \ud800"}])
def test_an_answer_json_text_cannot_write_is_written_by_json(obj):
    assert dumps(obj) == json.dumps(obj, ensure_ascii=False)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=30))
def test_the_config_reader_s_odd_character_check_is_the_regex_s(text):
    assert notes_ref_plain._odd(text) == (re.search(notes_ref_plain._ODD, text) is not None)


def test_every_ascii_character_is_odd_exactly_when_the_regex_says():
    for i in range(128):
        text = f"a{chr(i)}b"
        assert notes_ref_plain._odd(text) == (re.search(notes_ref_plain._ODD, text) is not None), i


@pytest.mark.parametrize("spelled", ["a/b", "/tmp/x", ".", "a", "a//b", "a/./b", "./a", "a/", "a/.", "/", "",
                                     "//a", "a/../b", "a/..", "..", "x.yaml"])
def test_a_path_string_is_the_path_pathlib_would_open(spelled):
    assert os.fspath(bounded._as_path(spelled)) == os.fspath(Path(spelled))


def test_is_dir_is_pathlib_s(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder").mkdir()
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    for path in [tmp_path / "file", tmp_path / "folder", tmp_path / "absent", tmp_path / "file" / "below",
                 tmp_path / "loop", tmp_path / "nul\0byte"]:
        assert is_dir(str(path)) == path.is_dir(), path


def test_git_started_without_subprocess_answers_as_subprocess_run(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "config", "alias.ci", "commit"], check=True)
    for args in (["config", "-z", "--get-regexp", r"^(alias\..*|core\.hookspath)$"], ["show", "HEAD:absent"]):
        ran = subprocess.run(["git", *args], cwd=tmp_path, capture_output=True)
        assert spawned_git.start(str(tmp_path), *args).result() == (ran.returncode, ran.stdout)
    missing = tmp_path / "not-a-folder"
    assert spawned_git.start(str(missing), "config", "-l").result()[0] != 0  # as git run there fails


def test_git_that_outruns_its_time_is_killed_and_answers_nothing(tmp_path, monkeypatch):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\nexec /bin/sleep 30\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", str(fake))
    started = spawned_git.start(str(tmp_path), "config", "-l")
    assert started.result(timeout=0.2) is None
    with pytest.raises(ChildProcessError):
        os.waitpid(started.pid, os.WNOHANG)  # reaped: no process left behind


def test_no_git_at_all_answers_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert spawned_git.start(str(tmp_path), "config", "-l").result() is None


DEFERRED = """
import sys
from harness.agent.deferred_imports import defer
defer()
import inspect
loaded_on_import = "ast" in sys.modules
from harness.agent.judge import guarded_paths
loaded_by_the_rules = "ast" in sys.modules
print(loaded_on_import, loaded_by_the_rules, inspect.signature(lambda a, b=1: 0), inspect is sys.modules["inspect"])
"""


def test_a_deferred_module_loads_when_read_and_is_the_module():
    out = subprocess.run([sys.executable, "-c", DEFERRED], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "(a,", "b=1)", "True"]


def test_the_guard_s_quick_exit_leaves_a_process_that_is_not_the_harness_program_alone():
    """Another program (a test runner, anything embedding the entry point) exits as before."""
    code = "from harness.cli.quick_exit import exit_now\nexit_now(3)\nprint('after')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "after\n")


QUICK_EXIT = """
import atexit, sys
atexit.register(lambda: print("atexit ran", flush=True))
sys.modules["__main__"].__spec__ = type("S", (), {"name": "harness.__main__"})()
from harness.cli.quick_exit import exit_now
print("answer", end="")
exit_now(3)
print("not reached")
"""


def test_the_guard_s_quick_exit_runs_atexit_flushes_and_keeps_the_exit_code():
    proc = subprocess.run([sys.executable, "-c", QUICK_EXIT], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (3, "answeratexit ran\n")
