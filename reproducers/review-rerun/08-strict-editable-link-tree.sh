#!/usr/bin/env bash
# setuptools' strict editable mode (`pip install -e . --config-settings editable_mode=strict`) points the
# interpreter at a link tree under the checkout's ignored build/ folder whose files are links to the checkout's
# src/ files. A pointer into an ignored folder is taken for "the environment", so nothing is redirected or
# checked: a broken, forged DONE re-runs on the fixed checkout's code and "reproduces". Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import os
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import CHECK, answer, done, rerun, reruns, venv

def test_a_strict_editable_link_tree_into_the_checkout_is_a_leak(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / ".gitignore").write_text("build/\n")
    answer(repo, 41)
    base = commit_all_ok(repo, "config, package")
    broken = done(h, repo, "Broken", forge=True)
    answer(repo, 42)
    commit_all_ok(repo, "fixed later, in the checkout")
    # CI: pip install -e . --config-settings editable_mode=strict
    tree = repo / "build" / "__editable__.calcpkg-0.1-py3-none-any"
    (tree / "calcpkg").mkdir(parents=True)
    os.symlink(repo / "src" / "calcpkg" / "__init__.py", tree / "calcpkg" / "__init__.py")
    (site / "__editable__.calcpkg-0.1.pth").write_text(f"{tree}\n")

    code, doc, err = rerun(h, base)
    run = reruns(doc, broken)["unit_test"]
    print("broken commit's unit_test re-run:", run.get("result"), "| exit", code, "| imports_from", run.get("imports_from"))
    assert run["result"] != "reproduces", "DEFECT: the broken commit was re-run on the checkout's fixed code and reproduced"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
