#!/usr/bin/env bash
# A symlink editable install (`flit install --symlink`, `pip install` of a symlinked tree, a hand-made link: the
# package folder in site-packages is a symlink to the checkout's src/<pkg>) is not detected as pointing into the
# checkout: a broken, forged DONE re-runs on the fixed checkout's code and "reproduces". Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import os
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import CHECK, answer, done, rerun, reruns, venv

def test_a_symlinked_package_into_the_checkout_is_a_leak(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    os.symlink(repo / "src" / "calcpkg", site / "calcpkg")  # flit install --symlink
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 41)
    base = commit_all_ok(repo, "config, package")
    broken = done(h, repo, "Broken", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "fixed later, in the checkout")

    code, doc, err = rerun(h, base)
    run = reruns(doc, broken)["unit_test"]
    print("broken commit's unit_test re-run:", run.get("result"), "| exit", code, "| imports_from", run.get("imports_from"))
    assert run["result"] != "reproduces", "DEFECT: the broken commit was re-run on the checkout's fixed code and reproduced"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
