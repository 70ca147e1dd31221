"""Read 95 (evidence forgery): a record names the bytes its command ran on, and the configured command runs as
config.yaml says. F-0333: an index entry carrying a file's stat data but another blob (or git told to compare less
of the stat) put that blob in the recorded tree; F-0334: a file swapped during the run and put back before the
tree was measured again went unseen (F-0347: a folder of it renamed away and back, read 99); F-0335: `--shell` ran a configured list command through a shell, past the
check that refuses a runner the tree supplies, and the record still claimed config.yaml's digest."""

from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys
import time

import pytest

from harness.core.gate import evidence_status
from harness.gitio.process_git import ProcessGit
from harness.store.settings import Command

from support.gitrepo import commit_all_ok, git
from support.records import record, set_config, tdir

PY = sys.executable
SHADOW = {"unittest/__init__.py": "", "unittest/__main__.py": "raise SystemExit(0)\n"}


def write(repo, files):
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)


def blob_in(repo, tree: str, path: str) -> str:
    return git(repo, "rev-parse", f"{tree}:{path}").stdout.strip()


def hashed(repo, path: str) -> str:
    return git(repo, "hash-object", path).stdout.strip()


# -- F-0335: --shell and a configured command ---------------------------------------------------------------

def test_shell_flag_with_a_configured_list_command_is_refused_and_nothing_recorded(h, repo, task):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: [{PY!r}, "-m", "unittest", "-q"]
    """)
    write(repo, SHADOW)
    r = h("evidence", "unit_test", "--shell")
    assert r.code == 2 and "--shell does not apply to unit_test" in r.err, r.text
    assert not (tdir(repo, task) / "evidence/unit_test.json").exists()


def test_a_configured_list_typed_out_with_shell_is_not_the_configured_command(h, repo, task):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: [{PY!r}, "-c", "pass"]
    """)
    r = h("evidence", "unit_test", "--shell", "--", PY, "-c", "pass")
    assert r.code == 0, r.text
    rec = record(repo, task, "unit_test")
    assert rec["shell"] is True and rec["command_digest"] is None


def test_a_list_command_through_a_shell_has_another_identity():
    argv = [PY, "-m", "unittest"]
    assert Command(argv, shell=True).identity() != Command(argv).identity()


def test_a_module_the_tree_shadows_is_refused_in_a_configured_shell_string(h, repo, task):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: "{PY} -m unittest -q && echo ran"
            shell: true
    """)
    write(repo, SHADOW)
    r = h("evidence", "unit_test")
    assert r.code == 1 and "`-m unittest` would import unittest/__init__.py" in r.err, r.text
    assert not (tdir(repo, task) / "evidence/unit_test.json").exists()


def test_a_program_on_a_path_entry_inside_the_tree_is_refused_through_a_shell(h, repo, task, monkeypatch):
    write(repo, {"bin/pytest": "#!/bin/sh\nexit 0\n"})
    os.chmod(repo / "bin/pytest", 0o755)
    monkeypatch.setenv("PATH", f"{repo / 'bin'}{os.pathsep}{os.environ['PATH']}")
    r = h("evidence", "unit_test", "--shell", "--", "pytest -q | cat")
    assert r.code == 1 and "`pytest` is found on PATH at bin/pytest, a file of the source tree" in r.err, r.text


def test_still_allowed_shell_flag_where_config_runs_the_string_in_a_shell(h, repo, task):
    set_config(repo, f"""
        evidence:
          unit_test:
            command: "{PY} -c 'pass' && echo shell-ran"
            shell: true
    """)
    write(repo, SHADOW)  # no `-m unittest` here: the tree's package is no runner of this command
    r = h("evidence", "unit_test", "--shell")
    assert r.code == 0 and "shell-ran" in r.out, r.text
    rec = record(repo, task, "unit_test")
    assert rec["shell"] is True and rec["command_digest"] is not None


def test_still_allowed_a_pipeline_given_after_the_separator(h, repo, task):
    r = h("evidence", "lint", "--shell", "--", f"{PY} -c 'print(1)' | cat")
    assert r.code == 0 and record(repo, task, "lint")["outcome"] == "passed", r.text


# -- F-0348: a shell line whose first command follows a redirection or opens a group -------------------------

LEADING = ["</dev/null {py} -m unittest -q", "({py} -m unittest -q)", "{{ {py} -m unittest -q; }}",
           "2>/dev/null {py} -m unittest -q", "2>&1 {py} -m unittest -q", ">out.txt {py} -m unittest -q",
           "<<<'' {py} -m unittest -q", "! {py} -m unittest -q", "\n{py} -m unittest -q",
           "# a comment\n{py} -m unittest -q", "{py} </dev/null -m unittest -q"]
LEADING_IDS = ["stdin", "subshell", "group", "stderr", "dup", "stdout", "here-string", "bang", "blank-line",
               "comment", "redirect-between-words"]


@pytest.mark.parametrize("line", LEADING, ids=LEADING_IDS)
def test_a_module_the_tree_shadows_is_refused_after_a_leading_redirection_or_group(h, repo, task, line):
    write(repo, SHADOW)
    r = h("evidence", "unit_test", "--shell", "--", line.format(py=PY))
    assert r.code == 1 and "`-m unittest` would import unittest/__init__.py" in r.err, r.text
    assert not (tdir(repo, task) / "evidence/unit_test.json").exists()


@pytest.mark.parametrize("line", ["</dev/null pytest -q", "(pytest -q)", "{ pytest -q; }", "2>/dev/null pytest -q"],
                         ids=["stdin", "subshell", "group", "stderr"])
def test_a_program_on_a_path_entry_inside_the_tree_is_refused_after_a_redirection_or_group(h, repo, task,
                                                                                             monkeypatch, line):
    write(repo, {"bin/pytest": "#!/bin/sh\nexit 0\n"})
    os.chmod(repo / "bin/pytest", 0o755)
    monkeypatch.setenv("PATH", f"{repo / 'bin'}{os.pathsep}{os.environ['PATH']}")
    r = h("evidence", "unit_test", "--shell", "--", line)
    assert r.code == 1 and "`pytest` is found on PATH at bin/pytest, a file of the source tree" in r.err, r.text


@pytest.mark.parametrize("line", ["; {py} -m unittest -q", "&& {py} -m unittest -q", ") {py} -m unittest -q",
                                  "<$(echo x) {py} -m unittest -q", "f() {{ {py} -m unittest -q; }}; f"],
                         ids=["semicolon", "and", "close", "substituted-target", "function"])
def test_a_shell_line_whose_first_command_cannot_be_read_is_refused(h, repo, task, line):
    r = h("evidence", "unit_test", "--shell", "--", line.format(py=PY))
    assert r.code == 1 and "cannot tell which program the shell line runs first" in r.err, r.text
    assert not (tdir(repo, task) / "evidence/unit_test.json").exists()


@pytest.mark.parametrize("line", LEADING[:6], ids=LEADING_IDS[:6])
def test_still_allowed_a_leading_redirection_or_group_where_the_tree_supplies_no_runner(h, repo, task, line):
    r = h("evidence", "unit_test", "--shell", "--", line.format(py=PY))
    assert r.code in (0, 1) and "not running" not in r.err, r.text
    assert record(repo, task, "unit_test")["shell"] is True


def test_still_allowed_an_honest_pytest_after_a_redirection_when_nothing_shadows_it(h, repo, task):
    write(repo, {"test_ok.py": "def test_ok():\n    assert True\n"})
    r = h("evidence", "unit_test", "--shell", "--", f"</dev/null {PY} -m pytest -q -p no:cacheprovider test_ok.py")
    assert r.code == 0 and record(repo, task, "unit_test")["outcome"] == "passed", r.text


# -- F-0334: a file written during the run, then put back -------------------------------------------------

PUT_BACK = """
import sys
path = sys.argv[1]
kept = open(path, 'rb').read()
open(path, 'wb').write(kept.replace(b'42', b'41'))
open(path, 'wb').write(kept)
"""

SWAPPED = """
import os, shutil, sys
path = sys.argv[1]
shutil.copyfile(path, path + '.good')
open(path + '.good', 'a').write('# another file\\n')
os.replace(path, path + '.kept')
os.replace(path + '.good', path)
os.replace(path + '.kept', path)
"""


@pytest.mark.parametrize("how", [PUT_BACK, SWAPPED], ids=["rewritten", "replaced"])
def test_a_source_file_written_and_put_back_during_the_run_makes_it_changed(h, repo, task, how):
    before = ProcessGit(repo).worktree_source_tree()
    r = h("evidence", "custom", "--", PY, "-c", how, "app.py")
    assert r.code == 0, r.text
    rec = record(repo, task, "custom")
    assert ProcessGit(repo).worktree_source_tree() == before == rec["tree"]
    assert rec["tree_after"] == rec["tree"]
    status, why = evidence_status(rec, before, [])
    assert status == "CHANGED" and "written while it ran" in why, why


def test_still_allowed_a_run_that_reads_the_source_and_writes_ignored_files(h, repo, task):
    (repo / ".gitignore").write_text("out/\n")
    commit_all_ok(repo, "ignore out/")
    reads = "import os; [open(f, 'rb').read() for f in os.listdir('.') if os.path.isfile(f)]; " \
            "os.makedirs('out', exist_ok=True); open('out/report.txt', 'w').write('ok')"
    r = h("evidence", "custom", "--", PY, "-c", reads)
    assert r.code == 0, r.text
    rec = record(repo, task, "custom")
    assert rec["tree_after"] is None
    assert evidence_status(rec, rec["tree"], [])[0] == "PASS"


# -- F-0347: a folder of the source renamed away, another put in its place, both renamed back ---------------

FOLDER_SWAP = """
import os, shutil, sys
folder, parked, other = sys.argv[1], sys.argv[1] + '.parked', sys.argv[1] + '.other'
os.makedirs(other)
open(os.path.join(other, 'mod.py'), 'w').write('ANSWER = 41\\n')
os.rename(folder, parked); os.rename(other, folder)   # the run's code is the other folder's
os.rename(folder, other); os.rename(parked, folder)   # no file of the source was touched
shutil.rmtree(other)
"""

MASKED = """
import os, sys
folder = sys.argv[1]
os.rename(folder, folder + '.parked'); os.rename(folder + '.parked', folder)
open(os.path.join(folder, 'made-after.tmp'), 'w').close(); os.remove(os.path.join(folder, 'made-after.tmp'))
"""


def _package(repo) -> None:
    write(repo, {"pkg/__init__.py": "", "pkg/mod.py": "ANSWER = 42\n", "pkg/sub/__init__.py": "",
                 "pkg/sub/deep.py": "DEEP = 1\n", ".gitignore": "__pycache__/\n*.tmp\n"})
    commit_all_ok(repo, "a package")


@pytest.mark.parametrize("folder", ["pkg", "pkg/sub"])
def test_a_source_folder_swapped_during_the_run_and_put_back_makes_it_changed(h, repo, task, folder):
    _package(repo)
    r = h("evidence", "custom", "--", PY, "-c", FOLDER_SWAP, folder)
    assert r.code == 0, r.text
    rec = record(repo, task, "custom")
    assert rec["tree_after"] == rec["tree"]
    status, why = evidence_status(rec, rec["tree"], [])
    assert status == "CHANGED" and "renamed" in why, why


def test_still_allowed_a_run_that_writes_caches_and_temporary_files_in_source_folders(h, repo, task):
    _package(repo)
    writes = ("import os, sys; sys.dont_write_bytecode = False; sys.path.insert(0, '.'); import pkg.mod, pkg.sub.deep; "  # __pycache__/ in each
              "[(open(d + '/scratch.tmp', 'w').write('x'), os.replace(d + '/scratch.tmp', d + '/kept.tmp'), "
              "os.remove(d + '/kept.tmp')) for d in ('.', 'pkg', 'pkg/sub')]; "
              "open('pkg/left.tmp', 'w').write('a report')")
    r = h("evidence", "custom", "--", PY, "-c", writes)
    assert r.code == 0, r.text
    assert (repo / "pkg/__pycache__").is_dir() and (repo / "pkg/sub/__pycache__").is_dir()
    rec = record(repo, task, "custom")
    assert rec["tree_after"] is None
    assert evidence_status(rec, rec["tree"], [])[0] == "PASS"


def test_a_folder_renamed_and_back_with_an_entry_made_after_is_a_known_gap(h, repo, task):
    """docs/threat-model.md names it: an entry made inside the folder after it is renamed back hides the rename
    (its ctime is its mtime again), as an honest write of an ignored file in it looks."""
    _package(repo)
    r = h("evidence", "custom", "--", PY, "-c", MASKED, "pkg")
    assert r.code == 0, r.text
    assert record(repo, task, "custom")["tree_after"] is None


# -- F-0333: the index's stat cache is no proof of a blob -------------------------------------------------

def _forge(repo, path: str, blob: str) -> None:
    """Rewrite .git/index so that ``path``'s entry names ``blob``, its stat data left as it is (index version 2,
    its extensions dropped)."""
    index = repo / ".git/index"
    data = index.read_bytes()
    sig, version, count = struct.unpack(">4sII", data[:12])
    assert sig == b"DIRC" and version == 2
    off = 12
    for _ in range(count):
        size = struct.unpack(">H", data[off + 60:off + 62])[0] & 0xFFF
        if data[off + 62:off + 62 + size] == path.encode():
            data = data[:off + 40] + bytes.fromhex(blob) + data[off + 60:]
        off += (62 + size + 8) & ~7
    body = data[:off]
    index.write_bytes(body + hashlib.sha1(body).digest())


def _old(repo, path: str) -> None:
    os.utime(repo / path, (1_600_000_000, 1_600_000_000))  # older than the index: no racy entry to rehash


def test_an_index_entry_forged_with_the_files_stat_is_not_the_tree_recorded(h, repo, task):
    _old(repo, "app.py")
    git(repo, "add", "app.py")
    broken = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=b"def answer():\n    return 41\n",
                            capture_output=True, check=True).stdout.decode().strip()
    _forge(repo, "app.py", broken)
    assert not git(repo, "diff", "--name-only", "--", "app.py").stdout.strip()  # git itself sees nothing unstaged
    r = h("evidence", "custom", "--", "true")
    assert r.code == 0, r.text
    rec = record(repo, task, "custom")
    assert blob_in(repo, rec["tree"], "app.py") == hashed(repo, "app.py") != broken


def test_check_stat_minimal_in_the_config_does_not_hide_a_same_size_edit(h, repo, task):
    git(repo, "config", "core.checkStat", "minimal")
    git(repo, "config", "core.trustctime", "false")
    _old(repo, "app.py")
    git(repo, "add", "app.py")
    (repo / "app.py").write_text("def answer():\n    return 41\n")  # same size, same inode
    _old(repo, "app.py")
    r = h("evidence", "custom", "--", "true")
    assert r.code == 0, r.text
    assert blob_in(repo, record(repo, task, "custom")["tree"], "app.py") == hashed(repo, "app.py")


def test_the_gates_measurement_compares_the_whole_stat_whatever_the_config_says(repo):
    """The gate and status trust git's stat cache (hashing a large tree each time would cost too much): the
    comparison is pinned to git's default, so a config file cannot narrow it to what an edit keeps. (git compares
    whole seconds of ctime: the edit comes a second after the entry, as an edit worth hiding does.)"""
    git(repo, "config", "core.checkStat", "minimal")
    git(repo, "config", "core.trustctime", "false")
    _old(repo, "app.py")
    git(repo, "add", "app.py")
    time.sleep(1.1)
    (repo / "app.py").write_text("def answer():\n    return 41\n")
    _old(repo, "app.py")
    tree = ProcessGit(repo).worktree_source_tree()
    assert blob_in(repo, tree, "app.py") == hashed(repo, "app.py")


def test_still_allowed_an_edit_a_sparse_entry_and_the_gate_see_the_same_tree(h, repo, task):
    (repo / "kept.txt").write_text("staged, absent from the disk\n")
    git(repo, "add", "kept.txt")
    git(repo, "update-index", "--skip-worktree", "kept.txt")
    (repo / "kept.txt").unlink()
    (repo / "app.py").write_text("def answer():\n    return 43  # an ordinary edit\n")
    r = h("evidence", "custom", "--", "true")
    assert r.code == 0, r.text
    rec = record(repo, task, "custom")
    assert rec["tree"] == ProcessGit(repo).worktree_source_tree() and rec["tree_after"] is None
    assert blob_in(repo, rec["tree"], "kept.txt")
    assert json.loads(h.ok("status", "--json").out)["evidence"]["custom"]["freshness"] == "FRESH"
