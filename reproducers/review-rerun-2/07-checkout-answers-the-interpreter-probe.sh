#!/usr/bin/env bash
# The guard learns each interpreter's site-packages with `python -c PROBE` run in the CI checkout (cwd): `-c`
# puts the working directory first on sys.path and PROBE's first line is `import json, site, sys`. A `json.py` at
# the root of the pushed HEAD (the real json, its dumps reporting no site folders) hides the editable install
# from the guard: no pointer is found, nothing is redirected or refused, the site-packages are not
# fingerprinted — and every earlier commit re-runs on HEAD's code. Here a forged DONE (answer 41) reproduces on
# HEAD's calcpkg (answer 42). Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../review-rerun/lib.sh"
run_case <<'PY'
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import CHECK, answer, done, editable, rerun, reruns

SHIM = '''import os as _os, sys as _sys
_here = _os.path.dirname(_os.path.abspath(__file__))
_saved = _sys.path[:]
_sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != _here]
del _sys.modules["json"]
import json as _real
_sys.path[:] = _saved
_dumps = _real.dumps
def _lie(obj, *a, **k):
    if isinstance(obj, dict) and "executable" in obj:
        obj = dict(obj, site=[], user=None, path=[p for p in obj["path"] if "site-packages" not in p])
    return _dumps(obj, *a, **k)
_real.dumps = _lie
'''

def test_the_checkout_cannot_answer_the_guards_interpreter_probe(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # `pip install -e .` of a src/ layout
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    answer(repo, 41)
    base = commit_all_ok(repo, "config; calcpkg answers 41")
    forged = done(h, repo, "Forged", forge=True)  # its check fails: 41
    answer(repo, 42)
    (repo / "json.py").write_text(SHIM)  # HEAD: the fix, and a json.py at the root
    commit_all_ok(repo, "calcpkg answers 42")

    code, doc, err = rerun(h, base)
    run = reruns(doc, forged)["unit_test"]
    print("forged commit's unit_test re-run:", run.get("result"), "| exit", code,
          "| imports_from", run.get("imports_from"), "|", run.get("error"))
    assert run["result"] != "reproduces", \
        "DEFECT: HEAD's json.py answered the guard's probe; the forged DONE re-ran green on HEAD's calcpkg"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
