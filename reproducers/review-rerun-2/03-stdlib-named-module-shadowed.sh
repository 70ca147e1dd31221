#!/usr/bin/env bash
# The editable install's .pth appends the checkout's src/ AFTER the standard library, so a project module named
# like a stdlib one (src/calendar.py here; `types`, `token`, `secrets`, `code`, `test`, … in the wild) never
# shadows it where the evidence was taken. The re-run puts the tree's src/ FIRST on PYTHONPATH, ahead of the
# standard library: the project's module replaces the stdlib's for everything the run imports, and an honest
# commit's evidence no longer reproduces. Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../review-rerun/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import answer, done, editable, rerun, reruns

CHECK = "import calendar, calcpkg, sys; sys.exit(not hasattr(calendar, 'monthrange') or calcpkg.answer() != 42)"

def test_a_src_module_named_like_the_stdlib_does_not_shadow_it_in_the_rerun(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # `pip install -e .` of a src/ layout: a .pth naming the checkout's src/
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 42)
    (repo / "src" / "calendar.py").write_text("EVENTS = []\n")  # the project's own module, shadowed by the stdlib's
    base = commit_all_ok(repo, "config; calcpkg and a calendar module")
    sha = done(h, repo, "Honest")  # passes on the laptop: `calendar` is the stdlib's

    code, doc, err = rerun(h, base)
    run = reruns(doc, sha)["unit_test"]
    print("honest commit's unit_test re-run:", run.get("result"), "| exit", code, "| imports_from",
          run.get("imports_from"), "|", run.get("error"))
    assert run["result"] == "reproduces", "DEFECT: an honest commit's evidence did not reproduce in the re-run"
    assert code == 0, "DEFECT: audit --rerun did not exit 0 on an honest range"
PY
