#!/usr/bin/env bash
# The repository's object store is not fingerprinted (only config, hooks, info/, alternates, shallow, replace refs
# are): a re-run can overwrite the object file of a blob a later commit holds (git does not check an object's
# content against its name on checkout), so the later commit's re-run tree holds other code than the commit. Here
# an earlier check rewrites the later commit's failing check.py as a passing one; the forged DONE reproduces.
# Exit 1 while that is so.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import hashlib, os, subprocess, zlib
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from test_rerun_isolation import FAILS, done, rerun, reruns, venv

LATER = FAILS  # the later commit's check.py, known to its author in advance
OID = hashlib.sha1(b"blob %d\0" % len(LATER.encode()) + LATER.encode()).hexdigest()
PLANT = f'''import os, subprocess, zlib
common = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], capture_output=True,
                        text=True).stdout.strip()
path = os.path.join(common, "objects", "{OID[:2]}", "{OID[2:]}")
os.makedirs(os.path.dirname(path), exist_ok=True)
if os.path.exists(path):
    os.chmod(path, 0o644)
body = b"import sys\\nsys.exit(0)\\n"
open(path, "wb").write(zlib.compress(b"blob %d\\0" % len(body) + body))
'''

def test_a_rerun_rewriting_a_later_commits_object_is_poisoning(h, repo, tmp_path):
    python, _ = venv(tmp_path / "ci-venv")
    configure(repo, PASS_CMD, [str(python), "check.py"])
    (repo / "check.py").write_text(PLANT)
    base = commit_all_ok(repo, "a check that passes")
    planted = repo / ".git" / "objects" / OID[:2] / OID[2:]
    first = done(h, repo, "First", after_unit_test=lambda: planted.unlink(missing_ok=True))  # the laptop is clean again
    (repo / "check.py").write_text(LATER)
    second = done(h, repo, "Second", forge=True)
    assert subprocess.run(["git", "rev-parse", "HEAD:check.py"], cwd=repo, capture_output=True,
                          text=True).stdout.strip() == OID

    code, doc, err = rerun(h, base)
    later = reruns(doc, second)["unit_test"]
    print("second commit's unit_test re-run:", later.get("result"), "| exit", code)
    print("first commit:", {k: (v.get("result"), v.get("poisoned")) for k, v in reruns(doc, first).items()})
    assert later["result"] != "reproduces", "DEFECT: the forged DONE reproduced on a rewritten object, no poisoning reported"
    assert code != 0, "DEFECT: audit --rerun exited 0"
PY
