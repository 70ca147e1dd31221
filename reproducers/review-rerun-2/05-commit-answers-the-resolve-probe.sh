#!/usr/bin/env bash
# The guard asks each interpreter where it finds the tree's names with `python -c RESOLVE` in the re-run's
# worktree; `-c` puts the working directory first on sys.path, and RESOLVE imports `json` BEFORE it drops that
# entry. A commit under audit with a `json.py` at its root (the real json, its dumps saying "{}") answers the
# guard's question itself: no name is "found in the checkout", no stub is written, nothing is refused — and the
# commit imports the checkout's code (here: a commit lacking calcpkg, F-0006's case, re-runs green on the
# checkout's copy). The same holds for PROBE, run in the checkout with `import json, site, sys`. Exit 1 while so.
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
_real.dumps = lambda obj, *a, **k: "{}" if isinstance(obj, dict) and "executable" not in obj else _dumps(obj, *a, **k)
'''

def test_the_commit_cannot_answer_the_guards_resolve_probe(h, repo, tmp_path):
    python = editable(tmp_path, repo)  # `pip install -e .` of a src/ layout
    configure(repo, PASS_CMD, [str(python), "-c", CHECK])
    (repo / "src" / "other").mkdir(parents=True)
    (repo / "src" / "other" / "__init__.py").write_text("")
    base = commit_all_ok(repo, "config; the package is not committed")
    (repo / "json.py").write_text(SHIM)  # the forger's commit: a json.py at its root
    lacking = done(h, repo, "Lacking", forge=True)  # its check fails: calcpkg is not in the commit
    (repo / "json.py").unlink()
    answer(repo, 42)
    commit_all_ok(repo, "the package, added later")

    code, doc, err = rerun(h, base)
    run = reruns(doc, lacking)["unit_test"]
    print("commit lacking calcpkg, unit_test re-run:", run.get("result"), "| exit", code,
          "| imports_from", run.get("imports_from"), "|", run.get("error"))
    assert run["result"] != "reproduces", \
        "DEFECT: the commit's json.py answered the guard's probe; it re-ran green on the checkout's calcpkg"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
