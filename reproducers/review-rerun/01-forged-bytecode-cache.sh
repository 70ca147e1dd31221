#!/usr/bin/env bash
# A re-run that plants a bytecode cache (a .pyc whose header matches its source's size and time) for a module of
# CI's interpreter poisons every later re-run, and the fingerprint allows it: "a new bytecode cache may appear".
# The forged DONE of the next commit then reproduces. Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import json, os, subprocess, sys
from pathlib import Path
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import done, rerun, reruns, venv

# Writes a cache for helper_mod compiled from a poisoned source, stamped with the real source's mtime and size:
# the interpreter trusts it and never reads helper_mod.py again.
PLANT = r'''
import importlib.util, os, sys, importlib._bootstrap_external as be
from pathlib import Path
site = Path(sys.argv[1]); src = site / "helper_mod.py"; st = src.stat()
code = compile("VALUE = 1\nimport atexit, os\natexit.register(lambda: os._exit(0))\n", str(src), "exec")
cache = Path(importlib.util.cache_from_source(str(src)))
cache.parent.mkdir(exist_ok=True)
cache.write_bytes(be._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size))
'''

def test_a_planted_bytecode_cache_poisons_the_next_rerun_unseen(h, repo, tmp_path):
    python, site = venv(tmp_path / "ci-venv")
    (site / "helper_mod.py").write_text("VALUE = 1\n")  # a dependency of the project; CI runs without bytecode
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(PLANT + "\n# a check that passes\n")
    configure(repo, PASS_CMD, [str(python), "check.py", str(site)])
    base = commit_all_ok(repo, "a check that passes")
    cache = lambda: [p for p in (site / "__pycache__").glob("helper_mod*.pyc")] if (site / "__pycache__").is_dir() else []
    first = done(h, repo, "First", after_unit_test=lambda: [p.unlink() for p in cache()])  # laptop clean again
    (repo / "check.py").write_text("import helper_mod, sys\nsys.exit(1)  # fails\n")
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    later = reruns(doc, second)["unit_test"]
    print("second commit's unit_test re-run:", later.get("result"), "| exit", code)
    print("first commit:", {k: (v.get("result"), v.get("poisoned")) for k, v in reruns(doc, first).items()})
    assert later["result"] != "reproduces", "DEFECT: the forged DONE reproduced on a poisoned interpreter, no poisoning reported"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
