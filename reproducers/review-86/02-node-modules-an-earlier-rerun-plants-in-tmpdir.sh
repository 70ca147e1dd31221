#!/usr/bin/env bash
# Defect: F-0295's root cause is left in place for every tool but pytest. Each re-run's worktree is still made under
#   the job's TMPDIR (harness/gitio/worktree.py temp_worktree), which every re-run's command may write (TMPDIR is
#   passed on; harness/history/rerun/fingerprint.py does not cover it); the fix (F-0294's stop file,
#   harness/core/pytest_search.py) only ends *pytest's* upward configuration search. Node resolves a bare
#   require() through node_modules in every folder above the worktree before the user's ~/.node_modules: an earlier
#   DONE commit's test that writes $TMPDIR/node_modules/check/index.js (a no-op) replaces the assertion helper of
#   every later re-run, and a DONE claim whose test fails on its own tree "reproduces"; the audit exits 0.
# Correct: a later re-run sees nothing an earlier run wrote above its worktree (e.g. each worktree's ancestors are a
#   folder no run can write, or the temporary folder is fingerprinted / a fresh TMPDIR given to each run), or the
#   change is poisoning: the forged DONE's unit_test re-run is "does not reproduce" (or the job exits 2).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
command -v node >/dev/null || { echo "setup: no node"; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
run_case <<'PY'
import shutil
from support.gitrepo import commit_all_ok
from support.records import PASS_CMD, configure
from support.rerun_range import done, rerun, reruns

NODE = shutil.which("node")
HONEST_CHECK = "module.exports = (ok) => { if (!ok) { throw new Error('check failed'); } };\n"
PLANTS = r'''const fs = require('fs'), os = require('os'), path = require('path');
const check = require('check');
if (process.cwd().includes('harness-rerun-')) {  // only in CI's re-run: the laptop's run leaves nothing
  // the job's TMPDIR, above the worktree's own folder (os.tmpdir() once named it; since F-0298 a folder of the run's)
  const dir = path.join(path.dirname(path.dirname(process.cwd())), 'node_modules', 'check');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = () => {};\n');
}
check(1 + 1 === 2);
'''
BROKEN = "const check = require('check');\ncheck(1 + 1 === 3);\n"


def _case(h, repo, tmp_path, monkeypatch, plant):
    import tempfile
    home = tmp_path / "home"
    (home / ".node_modules" / "check").mkdir(parents=True)  # CI's assertion helper, installed for the user
    (home / ".node_modules" / "check" / "index.js").write_text(HONEST_CHECK)
    monkeypatch.setenv("HOME", str(home))
    scratch = tmp_path / "ci-tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    configure(repo, PASS_CMD, [NODE, "test.js"])
    (repo / "test.js").write_text(PLANTS if plant else "const check = require('check');\ncheck(true);\n")
    base = commit_all_ok(repo, "a node test")
    done(h, repo, "First")
    (repo / "test.js").write_text(BROKEN)
    second = done(h, repo, "Second", forge=True)  # its test fails: the record is forged as passed
    code, doc, err = rerun(h, base)
    return code, reruns(doc, second)["unit_test"]["result"], err, scratch


def test_control_nothing_planted(h, repo, tmp_path, monkeypatch):
    code, result, err, _ = _case(h, repo, tmp_path, monkeypatch, plant=False)
    print("control: forged DONE's unit_test re-run:", result, "| exit", code)
    assert code == 1 and result == "does not reproduce", f"setup: control did not behave: {result} {code} {err}"


def test_an_earlier_rerun_plants_node_modules_above_the_later_worktrees(h, repo, tmp_path, monkeypatch):
    code, result, err, scratch = _case(h, repo, tmp_path, monkeypatch, plant=True)
    print("planted: forged DONE's unit_test re-run:", result, "| exit", code)
    assert (scratch / "node_modules" / "check" / "index.js").exists(), f"setup: nothing was planted {err}"
    assert result != "reproduces" or code == 2, \
        f"DEFECT: node loaded the module an earlier re-run left in TMPDIR: the forged DONE re-ran {result!r} (exit {code})"
PY
