#!/usr/bin/env bash
# F-0006's fix (a module the commit lacks is made absent) only knows top-level names that are regular packages or
# modules: `importable` skips a folder without __init__.py. A PEP 420 namespace package (src/acme/, no
# __init__.py) spans the tree's src/acme AND the checkout's src/acme (the editable .pth keeps it on sys.path), so
# `import acme.calc` at a commit that lacks acme/calc loads the checkout's copy, and nothing is refused: the
# forged DONE re-runs green. Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../review-rerun/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import done, editable, rerun, reruns

CHECK = "import acme.calc, sys; sys.exit(acme.calc.answer() != 42)"

def test_a_namespace_packages_module_the_commit_lacks_is_not_imported_from_the_checkout(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # `pip install -e .` of a src/ layout: a .pth naming the checkout's src/
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / "src" / "acme" / "other").mkdir(parents=True)  # acme: a namespace package (no __init__.py)
    (repo / "src" / "acme" / "other" / "__init__.py").write_text("")
    base = commit_all_ok(repo, "config; acme.other only")
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: acme.calc is not in the commit
    (repo / "src" / "acme" / "calc").mkdir()
    (repo / "src" / "acme" / "calc" / "__init__.py").write_text("def answer():\n    return 42\n")
    commit_all_ok(repo, "acme.calc, added later")

    code, doc, err = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    print("commit lacking acme.calc, unit_test re-run:", run.get("result"), "| exit", code,
          "| imports_from", run.get("imports_from"))
    assert run["result"] != "reproduces", "DEFECT: a commit without acme.calc re-ran green on the checkout's copy"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
