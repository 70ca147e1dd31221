"""What a CI re-run writes into the folders above the later re-runs' worktrees decides no later verdict (read 86's
F-0298).

Every re-run's worktree is made in a fresh folder of the job's temporary folder. Node resolves a bare require()
through the node_modules of every folder above a worktree, and other tools look upward for their configuration as
pytest does (F-0294 ended pytest's search at the worktree's root, nobody else's): a module an earlier commit's test
wrote into the job's temporary folder replaced CI's assertion helper in every later re-run. So each command a re-run
starts gets a temporary folder of its own (TMPDIR, TEMP, TMP), removed after, where honest tools write; and the names
tools resolve upward are fingerprinted in the job's temporary folder and every folder above it: one written there
is poisoning (exit 2), as a write into the interpreter is.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from harness.history.rerun import fingerprint

from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import PY, done, rerun, reruns

NODE = shutil.which("node")
HONEST_CHECK = "module.exports = (ok) => { if (!ok) { throw new Error('check failed'); } };\n"
# The job's temporary folder, as a re-run's test finds it: its worktree is `<job's folder>/harness-rerun-…/tree`.
PLANTS_ABOVE = r'''const fs = require('fs'), path = require('path');
const check = require('check');
if (process.cwd().includes('harness-rerun-')) {  // only in CI's re-run
  const dir = path.join(path.dirname(path.dirname(process.cwd())), 'node_modules', 'check');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = () => {};\n');
}
check(1 + 1 === 2);
'''
BROKEN = "const check = require('check');\ncheck(1 + 1 === 3);\n"


@pytest.fixture
def job_tmp(tmp_path, monkeypatch) -> Path:
    """CI's temporary folder for the audit job (TMPDIR), in which the re-runs' worktrees are made."""
    scratch = tmp_path / "ci-tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # tempfile's memo of the folder, read once per process
    return scratch


def _range(h, repo: Path, first_check: list[str], files: dict[str, str], broken: dict[str, str]) -> tuple[str, str]:
    """A DONE commit whose unit_test is ``first_check`` over ``files``, then a forged DONE commit whose ``broken``
    files fail it: (the base, the forged commit)."""
    configure(repo, PASS_CMD, first_check)
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    base = commit_all_ok(repo, "a check")
    done(h, repo, "First")
    for rel, text in broken.items():
        (repo / rel).write_text(text)
    return base, done(h, repo, "Second", forge=True)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_node_modules_an_earlier_rerun_writes_above_the_later_worktrees_is_poisoning(h, repo, tmp_path, job_tmp,
                                                                                     monkeypatch):
    home = tmp_path / "home"
    (home / ".node_modules" / "check").mkdir(parents=True)  # CI's assertion helper, installed for the user
    (home / ".node_modules" / "check" / "index.js").write_text(HONEST_CHECK)
    monkeypatch.setenv("HOME", str(home))
    assert NODE is not None
    base, second = _range(h, repo, [NODE, "test.js"], {"test.js": PLANTS_ABOVE}, {"test.js": BROKEN})

    code, doc, err = rerun(h, base)
    assert (job_tmp / "node_modules" / "check" / "index.js").exists(), err  # written above the later worktrees
    poisoned = [p for row in doc["results"] for run in row.get("reruns", []) for p in run.get("poisoned", [])]
    assert code == 2 and f"added {job_tmp / 'node_modules'}" in poisoned, err
    assert reruns(doc, second)["unit_test"]["result"] == "could not run", err


# What a Python test writes into the job's temporary folder (the folder above its worktree's own folder).
WRITES_ABOVE = '''import os
from pathlib import Path


def test_ok():
    if "harness-rerun-" in os.getcwd():  # only in CI's re-run
        above = Path.cwd().parent.parent
        target = above / {rel!r}
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("planted\\n")
'''


@pytest.mark.parametrize("rel", ["node_modules/check/index.js", "package.json", "conftest.py", ".cargo/config.toml"])
def test_a_name_tools_resolve_upward_an_earlier_rerun_writes_above_the_worktrees_is_poisoning(h, repo, job_tmp, rel):
    test = ["tests/test_it.py"]
    base, second = _range(h, repo, [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", *test],
                          {test[0]: WRITES_ABOVE.format(rel=rel)}, {test[0]: "def test_ok():\n    assert False\n"})
    code, doc, err = rerun(h, base)
    assert (job_tmp / rel).exists(), err
    assert code == 2 and reruns(doc, second)["unit_test"]["result"] == "could not run", err
    poisoned = [p for row in doc["results"] for run in row.get("reruns", []) for p in run.get("poisoned", [])]
    assert f"added {job_tmp / rel.split('/')[0]}" in poisoned, err


# What an honest tool does: write into its temporary folder (pytest's tmp_path, a cache) — here the very files a
# poisoner would have written above the worktrees, which in a folder of the run's own decide nothing later.
WRITES_ITS_TMPDIR = '''import os, tempfile
from pathlib import Path

PASSES_EVERY_FAILURE = """import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if report.failed:
        report.outcome, report.longrepr = "passed", None
"""


def test_ok():
    if "harness-rerun-" in os.getcwd():  # only in CI's re-run
        folder = Path(tempfile.gettempdir())
        (folder / "pytest.ini").write_text("[pytest]\\n")
        (folder / "conftest.py").write_text(PASSES_EVERY_FAILURE)
        (folder / "node_modules").mkdir(exist_ok=True)
        assert os.environ["TEMP"] == os.environ["TMP"] == str(folder)
'''


def test_what_a_rerun_writes_into_its_tmpdir_reaches_no_later_run_and_is_not_poisoning(h, repo, job_tmp):
    test = ["tests/test_it.py"]
    base, second = _range(h, repo, [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", *test],
                          {test[0]: WRITES_ITS_TMPDIR}, {test[0]: "def test_ok():\n    assert False\n"})
    code, doc, err = rerun(h, base)
    assert code == 1 and reruns(doc, second)["unit_test"]["result"] == "does not reproduce", err
    runs = [run for row in doc["results"] for run in row.get("reruns", [])]
    assert not any("poisoned" in run for run in runs), err
    assert [run["result"] for run in runs if run["commit"] != second] == ["reproduces"] * 2, err  # build, unit_test
    assert not {"pytest.ini", "conftest.py", "node_modules"} & set(os.listdir(job_tmp)), err


def test_each_command_gets_a_temporary_folder_of_its_own_removed_after(tmp_path):
    from harness.history.rerun.execute import own_folders

    env = {"TMPDIR": str(tmp_path), "TEMP": str(tmp_path), "TMP": str(tmp_path), "HOME": "/home/ci"}
    with own_folders(env) as one, own_folders(env) as two:
        folder = Path(one["TMPDIR"])
        assert one["TEMP"] == one["TMP"] == str(folder) != str(tmp_path) and one["HOME"] == "/home/ci"
        assert folder.is_dir() and not any(folder.iterdir()) and two["TMPDIR"] != str(folder)
        (folder / "node_modules").mkdir()
    assert not folder.exists()


def test_the_fingerprint_sees_a_name_tools_resolve_upward_above_the_job_s_temporary_folder(tmp_path):
    temp_root = tmp_path / "runner" / "tmp"
    temp_root.mkdir(parents=True)
    (tmp_path / "package.json").write_text('{"name": "ci"}\n')
    (tmp_path / "node_modules" / "left").mkdir(parents=True)  # already there: read in full
    spots = fingerprint.upward_spots(str(temp_root))
    before = fingerprint.take(spots)

    # What honest runs and the harness leave in the temporary folder: folders and files of other names.
    (temp_root / "harness-rerun-abc" / "tree").mkdir(parents=True)
    (temp_root / "pytest-of-ci").mkdir()
    (temp_root / "notes.txt").write_text("x")
    (tmp_path / "runner" / "diag.log").write_text("x")
    assert fingerprint.changes(before, fingerprint.take(spots)) == []

    (temp_root / "node_modules" / "check").mkdir(parents=True)
    (tmp_path / "runner" / "conftest.py").write_text("x")
    (tmp_path / "package.json").write_text('{"name": "cj"}\n')  # the same size
    (tmp_path / "node_modules" / "left" / "index.js").write_text("x")
    assert fingerprint.changes(before, fingerprint.take(spots)) == sorted([
        f"added {temp_root / 'node_modules'}", f"added {tmp_path / 'runner' / 'conftest.py'}",
        f"changed {tmp_path / 'package.json'}", f"added {tmp_path / 'node_modules' / 'left' / 'index.js'}"])


def test_the_folders_above_are_named_as_written_and_as_linked(tmp_path):
    (tmp_path / "real" / "tmp").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    found = fingerprint.ancestors(str(tmp_path / "link" / "tmp"))
    assert found[:3] == [str(tmp_path / "link" / "tmp"), str(tmp_path / "link"), str(tmp_path)]
    assert str(tmp_path / "real" / "tmp") in found and str(tmp_path / "real") in found and found.count("/") == 1
