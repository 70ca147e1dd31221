"""Read 45 of evidence's speed-up (#28 item 3): the measurements a recording takes of the source leave nothing
of theirs in .git/ when the recorder is killed (F-0056), write nothing before a refusal of the caller's
environment (F-0057), are not awaited under the store's lock (F-0058), and see a skip-worktree file as it is on
disk (F-0059)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from support.gitrepo import git
from support.paths import PY


def _loose_objects(repo: Path) -> set[str]:
    return {f"{d.name}/{f.name}" for d in (repo / ".git" / "objects").iterdir() if len(d.name) == 2 for f in d.iterdir()}


def _record(repo: Path, task: str) -> dict:
    return json.loads((repo / ".harness" / "tasks" / task / "evidence" / "custom.json").read_text())


def test_f0056_a_recorder_killed_during_its_run_leaves_no_index_copy(h, task) -> None:
    proc = h.proc("evidence", "custom", "--", "sh", "-c", "kill -9 $PPID")
    assert proc.code != 0
    assert not [name for name in os.listdir(h.root / ".git") if name.startswith("harness-index")]


def test_f0056_the_tree_after_is_measured_afresh_whatever_the_command_did_in_git(h, task) -> None:
    """A command that replaces whatever index copy it finds in .git/ by a link (or leaves a .lock) is measured."""
    tamper = ("for f in .git/harness-index.*; do [ -e \"$f\" ] && { rm -f \"$f\"; ln -s /dev/null \"$f\"; "
              "touch \"$f.lock\"; }; done; echo changed > app.py")
    h.ok("evidence", "custom", "--", "sh", "-c", tamper)
    record = _record(h.root, task)
    assert record["tree_after"] and record["tree_after"] != record["tree"]


def test_f0057_a_refused_environment_writes_no_object(h, task, tmp_path) -> None:
    (h.root / "untracked.py").write_text("new\n")
    before = _loose_objects(h.root)
    env = {**os.environ, "GIT_DIR": str(tmp_path / "elsewhere")}
    proc = subprocess.run([PY, "-m", "harness", "evidence", "custom", "--", "true"], cwd=h.root, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "not recording: GIT_DIR=" in proc.stderr
    assert _loose_objects(h.root) == before


FILTER = """#!/bin/sh
# A clean filter that, the first time it runs, asks whether a reader gets the store's lock at once.
if [ ! -e "{marker}" ]; then
  : > "{marker}"
  HARNESS_LOCK_TIMEOUT=0 "{py}" -m harness status > /dev/null 2> "{marker}.err"
  echo $? > "{marker}"
fi
cat
"""


def test_f0058_a_reader_gets_the_lock_while_the_source_is_measured(h, task, tmp_path) -> None:
    marker = tmp_path / "reader"
    script = tmp_path / "filter"
    script.write_text(FILTER.format(marker=marker, py=PY))
    script.chmod(0o755)
    (h.root / ".gitattributes").write_text("*.py filter=probe\n")
    git(h.root, "config", "filter.probe.clean", str(script))
    (h.root / "app.py").write_text("changed\n")
    h.ok("evidence", "custom", "--", "true")
    assert marker.read_text().strip() == "0", (marker.with_name("reader.err")).read_text()


def test_f0059_a_skip_worktree_file_is_measured_as_it_is_on_disk(h, task) -> None:
    git(h.root, "update-index", "--skip-worktree", "app.py")
    (h.root / "app.py").write_text("edited\n")
    h.ok("evidence", "custom", "--", "true")
    head_tree = git(h.root, "rev-parse", "HEAD^{tree}").stdout.strip()
    assert _record(h.root, task)["tree"] != head_tree
