#!/usr/bin/env bash
# With the project installed editable (a .pth naming the checkout's src/), the re-run puts the tree's src/ first
# but leaves the checkout's src/ on the import path, and asks only about names the tree provides: a module the
# commit does not hold (never added, added later) is imported from the checkout. A commit that lacks its module
# (its forged DONE) re-runs green on the checkout's copy. Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import CHECK, answer, done, editable, rerun, reruns

def test_a_module_the_commit_lacks_is_not_imported_from_the_checkout(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # `pip install -e .` of a src/ layout
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / "src" / "other").mkdir(parents=True)
    (repo / "src" / "other" / "__init__.py").write_text("")
    base = commit_all_ok(repo, "config; the package is not committed")
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: calcpkg is not in the commit
    answer(repo, 42)
    commit_all_ok(repo, "the package, added later")

    code, doc, err = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    print("commit lacking calcpkg, unit_test re-run:", run.get("result"), "| exit", code,
          "| imports_from", run.get("imports_from"))
    assert run["result"] != "reproduces", "DEFECT: a commit without the module re-ran green on the checkout's copy"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
