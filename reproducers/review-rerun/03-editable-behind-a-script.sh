#!/usr/bin/env bash
# An editable install (a .pth naming the checkout's src/) in the interpreter a command starts through a script
# (`sh run_tests.sh` -> a virtualenv's python) is never looked for: the re-run of a broken, forged DONE imports the
# fixed checkout's code and "reproduces". Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import subprocess
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import CHECK, answer, done, editable, rerun, reruns

def test_a_broken_commit_re_runs_green_through_a_script(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # CI: `pip install -e .` of a src/ layout, in the test venv
    (repo / "run_tests.sh").write_text(f"exec {python} -c '{CHECK}'\n")
    configure(repo, PASS_CMD, ["sh", "run_tests.sh"])
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
