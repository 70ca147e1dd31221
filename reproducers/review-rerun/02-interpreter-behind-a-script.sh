#!/usr/bin/env bash
# The interpreter an evidence command starts through a script (`sh run_tests.sh` -> a virtualenv's python, as
# tox/nox/make/a CI wrapper do) is never probed, so its site-packages are not fingerprinted: an earlier re-run
# writes a sitecustomize.py there and the forged DONE of the next commit reproduces. Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import EVERY_EXIT_PASSES, FAILS, done, rerun, reruns, venv, writes

def test_a_python_started_by_a_script_is_poisoned_unseen(h, repo, tmp_path):
    python, site = venv(tmp_path / "tools-venv")  # the project's test environment, not first on PATH
    poison = site / "sitecustomize.py"
    (repo / "run_tests.sh").write_text(f"exec {python} check.py\n")
    configure(repo, PASS_CMD, ["sh", "run_tests.sh"])
    (repo / "check.py").write_text(writes(poison, EVERY_EXIT_PASSES))
    base = commit_all_ok(repo, "tests run by a script")
    first = done(h, repo, "First", after_unit_test=poison.unlink)  # the laptop is clean again
    (repo / "check.py").write_text(FAILS)
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    later = reruns(doc, second)["unit_test"]
    print("second commit's unit_test re-run:", later.get("result"), "| exit", code, "| poison left:", poison.exists())
    print("first commit:", {k: (v.get("result"), v.get("poisoned")) for k, v in reruns(doc, first).items()})
    assert later["result"] != "reproduces", "DEFECT: the forged DONE reproduced on a poisoned interpreter, no poisoning reported"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
