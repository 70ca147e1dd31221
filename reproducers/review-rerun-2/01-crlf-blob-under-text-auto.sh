#!/usr/bin/env bash
# The checkout check hashes each worktree file with `git hash-object --stdin-paths`, which converts end-of-line
# through the attributes WITHOUT the index's "this blob already holds CRLF, leave it" rule that checkout, add
# and status follow. A blob committed with CRLF (a Windows-made file, a .bat) in a repository that later adds
# the common `* text=auto` is checked out byte for byte as committed, but hashed as LF: the honest commit's
# re-run is refused as "not the commit" (could not run, exit 2). Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../review-rerun/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok, git
from support.records import PASS_CMD, configure
from support.rerun_range import done, rerun, reruns, venv

def test_a_crlf_blob_under_text_auto_is_the_commits_tree(h, repo, tmp_path):
    python, _ = venv(tmp_path / "ci-venv")
    (repo / "run.bat").write_bytes(b"@echo off\r\necho hi\r\n")  # committed with CRLF, no attributes yet
    commit_all_ok(repo, "a Windows script")
    (repo / ".gitattributes").write_text("* text=auto\n")  # GitHub's usual template, added later
    configure(repo, PASS_CMD, [str(python), "-c", "pass"])
    base = commit_all_ok(repo, "config; .gitattributes")
    assert git(repo, "status", "--porcelain").stdout.strip() == "", "setup: git itself sees no change"
    sha = done(h, repo, "Honest")

    code, doc, err = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    print("honest commit's unit_test re-run:", run.get("result"), "| exit", code, "|", run.get("error"))
    assert run["result"] == "reproduces", "DEFECT: an honest commit's re-run refused: " + str(run.get("error"))
    assert code == 0, "DEFECT: audit --rerun did not exit 0 on an honest range"
PY
