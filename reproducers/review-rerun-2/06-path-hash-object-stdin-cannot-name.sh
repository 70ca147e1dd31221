#!/usr/bin/env bash
# The checkout check feeds every tracked path to `git hash-object --stdin-paths`, one per line. That reader
# strips a trailing CR and C-unquotes a line that starts with '"': a tracked file whose name ends in CR (macOS's
# folder-icon file "Icon\r", committed by accident in many repositories) or starts with a double quote cannot be
# named to it; hash-object dies and the honest commit's re-run is "could not run" (exit 2). Exit 1 while so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../review-rerun/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import done, rerun, reruns, venv

def test_a_tracked_icon_cr_file_is_the_commits_tree(h, repo, tmp_path):
    python, _ = venv(tmp_path / "ci-venv")
    (repo / "assets").mkdir()
    (repo / "assets" / "Icon\r").write_bytes(b"")  # macOS's custom folder icon file
    configure(repo, PASS_CMD, [str(python), "-c", "pass"])
    base = commit_all_ok(repo, "config; a folder with its Icon\\r")
    sha = done(h, repo, "Honest")

    code, doc, err = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    print("honest commit's unit_test re-run:", run.get("result"), "| exit", code, "|", run.get("error"))
    assert run["result"] == "reproduces", "DEFECT: an honest commit's re-run refused: " + str(run.get("error"))
    assert code == 0, "DEFECT: audit --rerun did not exit 0 on an honest range"
PY
