#!/usr/bin/env bash
# Defect: F-0294's stop at a worktree's root (harness/gitio/worktree.py _end_pytest_search, rule in
#   harness/core/pytest_search.py takes()) decides whether the root's tox.ini/setup.cfg ends pytest's search with
#   Python's configparser, but pytest reads them with iniconfig. A line `[pytest] x` is a [pytest] section to
#   configparser (SECTCRE.match ignores what follows `]`) and a continuation line to iniconfig (it ends not in `]`);
#   a tox.ini configparser cannot parse at all (`[x` on a line) is "taken" too, while iniconfig reads it fine. Either
#   way no stop file is written, pytest finds no [pytest] section in tox.ini, searches the folders above the worktree,
#   and loads the pytest.ini + conftest.py an earlier re-run dropped into the job's temporary folder (F-0295): a DONE
#   claim whose test fails on its own tree "reproduces" in `harness audit --rerun`.
# Correct: the stop rule agrees with pytest's own reader (iniconfig), or the stop is written whenever pytest would not
#   take the root file; the forged DONE's unit_test re-run is "does not reproduce" and the audit exits 1.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import sys
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import PY, done, rerun, reruns

PASSES_EVERY_FAILURE = '''import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if report.failed:
        report.outcome, report.longrepr = "passed", None
'''
WRITES_A_CONFIGURATION_ABOVE = f'''import os, tempfile
from pathlib import Path


def test_ok():
    if "harness-rerun-" in os.getcwd():  # only in CI's re-run
        folder = Path(tempfile.gettempdir())
        (folder / "pytest.ini").write_text("[pytest]\\n")
        (folder / "conftest.py").write_text({PASSES_EVERY_FAILURE!r})
'''


def _case(h, repo, tmp_path, monkeypatch, tox_text, late=None):
    import tempfile
    scratch = tmp_path / "ci-tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    configure(repo, PASS_CMD, [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
    if tox_text is not None:
        (repo / "tox.ini").write_text(tox_text)
    (repo / "tests").mkdir()
    (repo / "tests" / "test_it.py").write_text(WRITES_A_CONFIGURATION_ABOVE)
    base = commit_all_ok(repo, "a test that writes a pytest configuration into the temporary folder in CI")
    done(h, repo, "First")
    (repo / "tests" / "test_it.py").write_text("def test_ok():\n    assert False\n")
    if late is not None:  # the tox.ini comes with the forged DONE commit itself
        (repo / "tox.ini").write_text(late)
    second = done(h, repo, "Second", forge=True)
    # Also there before the job (the temporary folder is anyone's, F-0294): once each re-run's command writes into a
    # temporary folder of its own and a write above the worktrees is poisoning (F-0298), only the stop is left to
    # keep them out.
    (scratch / "pytest.ini").write_text("[pytest]\n")
    (scratch / "conftest.py").write_text(PASSES_EVERY_FAILURE)
    code, doc, err = rerun(h, base)
    assert (scratch / "conftest.py").exists(), err
    return code, reruns(doc, second)["unit_test"]["result"], err


def test_control_a_plain_tox_ini(h, repo, tmp_path, monkeypatch):
    # control: a tox.ini with no [pytest] section: the stop is written, the forged DONE is found out
    code, result, err = _case(h, repo, tmp_path, monkeypatch, "[tox]\nenvlist = py\n")
    print("control (plain tox.ini): forged DONE's unit_test re-run:", result, "| exit", code)
    assert code == 1 and result == "does not reproduce", f"setup: control did not behave: {result} {code} {err}"


def test_a_tox_ini_section_line_with_trailing_text(h, repo, tmp_path, monkeypatch):
    code, result, err = _case(h, repo, tmp_path, monkeypatch, "[tox]\nenvlist = py\n[pytest] x\n")
    print("tox.ini with `[pytest] x`: forged DONE's unit_test re-run:", result, "| exit", code)
    assert result == "does not reproduce", \
        f"DEFECT: pytest read the configuration above the worktree: the forged DONE re-ran {result!r} (exit {code})"


def test_a_tox_ini_configparser_cannot_parse(h, repo, tmp_path, monkeypatch):
    code, result, err = _case(h, repo, tmp_path, monkeypatch, "[tox]\nenvlist = py\n[x\n")
    print("tox.ini with a `[x` line: forged DONE's unit_test re-run:", result, "| exit", code)
    assert result == "does not reproduce", \
        f"DEFECT: pytest read the configuration above the worktree: the forged DONE re-ran {result!r} (exit {code})"


def test_the_forged_commit_brings_the_tox_ini_itself(h, repo, tmp_path, monkeypatch):
    code, result, err = _case(h, repo, tmp_path, monkeypatch, None, late="[tox]\nenvlist = py\n[pytest] x\n")
    print("tox.ini added by the forged DONE commit: its unit_test re-run:", result, "| exit", code)
    assert result == "does not reproduce", \
        f"DEFECT: pytest read the configuration above the worktree: the forged DONE re-ran {result!r} (exit {code})"
PY
