#!/usr/bin/env bash
# Below the top level of site-packages a file is signed by size, mtime and mode only: a re-run that rewrites a
# dependency's module with the same size and puts its mtime back poisons every later re-run unseen. Here an
# earlier check turns `helperpkg/core.py` into "every exit passes"; the forged DONE of the next commit reproduces.
# Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import os
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import FAILS, done, rerun, reruns, venv

ORIGINAL = "VALUE = 1\n" + "#" * 80 + "\n"
POISON = "import atexit, os\natexit.register(lambda: os._exit(0))\nVALUE = 1\n"
POISON += "#" * (len(ORIGINAL) - len(POISON) - 1) + "\n"
REWRITE = f'''import os, sys
path = os.path.join(sys.argv[1], "helperpkg", "core.py")
st = os.stat(path)
open(path, "w").write({POISON!r})
os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
'''

def test_a_same_size_same_mtime_rewrite_in_site_packages_is_poisoning(h, repo, tmp_path):
    assert len(POISON) == len(ORIGINAL)
    python, site = venv(tmp_path / "ci-venv")
    (site / "helperpkg").mkdir()
    (site / "helperpkg" / "__init__.py").write_text("from .core import VALUE\n")
    (site / "helperpkg" / "core.py").write_text(ORIGINAL)  # a dependency; CI runs without bytecode caches
    configure(repo, PASS_CMD, [str(python), "-B", "check.py", str(site)])
    (repo / "check.py").write_text(REWRITE)
    base = commit_all_ok(repo, "a check that passes")
    restore = lambda: (site / "helperpkg" / "core.py").write_text(ORIGINAL)
    first = done(h, repo, "First", after_unit_test=restore)  # the laptop is clean again
    (repo / "check.py").write_text("import helperpkg\n" + FAILS)
    second = done(h, repo, "Second", forge=True)

    code, doc, err = rerun(h, base)
    later = reruns(doc, second)["unit_test"]
    print("second commit's unit_test re-run:", later.get("result"), "| exit", code)
    print("first commit:", {k: (v.get("result"), v.get("poisoned")) for k, v in reruns(doc, first).items()})
    assert later["result"] != "reproduces", "DEFECT: the forged DONE reproduced on a poisoned interpreter, no poisoning reported"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
