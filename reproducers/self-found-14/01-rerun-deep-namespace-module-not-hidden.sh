#!/usr/bin/env bash
# Defect: CI's re-run (`harness audit --rerun`) lists the names the repository's checkout provides and the re-run's
#   commit lacks (harness/history/rerun/python_site.py absent_names()/namespaces()) so that each is made absent
#   (stubbed) in the re-run, but that listing stops at 3 levels (and 200 names): a module only the checkout holds
#   5 levels down a namespace package (src/nsa/b/c/d/sub.py, added by a later commit; `nsa` linked into CI's
#   site-packages from the checkout, as `flit install --symlink` does) is neither stubbed nor asked about, so the
#   re-run of the earlier commit imports it from the checkout: that commit is measured on later code. Here the
#   earlier commit's honest check ("nsa.b.c.d.sub does not exist yet") passed on the laptop and is "contradicted"
#   in CI, a false failure (audit exit 1); the same gap lets a forged DONE "reproduce" on later code.
#   (Control: the same module 3 levels down, src/nsa/b/sub.py, is stubbed and the re-run reproduces.)
# Correct: the re-run lists the names a commit lacks at any depth (the same tree_names listing the local worktree
#   runs use, refusing past its limits instead of capping): nsa.b.c.d.sub is absent in the re-run, as on a fresh
#   runner at that commit, and the earlier commit's unit_test re-run "reproduces" (audit exit 0).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

# $1: the namespace package's folder below src/ holding the module (nsa/b: 3 levels; nsa/b/c/d: 5). Prints
# "<audit exit> <the earlier commit's unit_test re-run result>", or "SETUP-FAILED <why>".
attempt() {
  local R="$T/repo-${1//\//-}" V="$T/ci-venv-${1//\//-}" dotted="${1//\//.}" PY SITE base earlier rc=0
  mkdir -p "$R" && cd "$R" || { echo "SETUP-FAILED mkdir"; return; }
  # CI's interpreter: a bare virtualenv, the project's namespace package linked in from the checkout.
  "$here/.venv/bin/python" -m venv --without-pip "$V" || { echo "SETUP-FAILED venv"; return; }
  PY="$V/bin/python"
  SITE=$("$PY" -c 'import site; print(site.getsitepackages()[0])') || { echo "SETUP-FAILED site"; return; }
  mkdir -p "src/$1" && printf 'def mul(a, b):\n    return a * b\n' > "src/$1/mul.py"
  ln -s "$R/src/nsa" "$SITE/nsa" || { echo "SETUP-FAILED link"; return; }
  local check="import $dotted.mul, sys
try:
    import $dotted.sub
except ImportError:
    sys.exit(0)
print('imported $dotted.sub from', $dotted.sub.__file__)
sys.exit(1)"
  ( git init -q -b main && harness init && "$here/.venv/bin/python" - "$PY" "$check" <<'PYEOF'
import sys, yaml
path = ".harness/config.yaml"
doc = yaml.safe_load(open(path, encoding="utf-8"))
doc["evidence"] = {"build": {"command": [sys.argv[1], "-c", "pass"]},
                   "unit_test": {"command": [sys.argv[1], "-c", sys.argv[2]]}}
open(path, "w", encoding="utf-8").write(yaml.safe_dump(doc, sort_keys=False))
PYEOF
  ) >/dev/null 2>&1 || { echo "SETUP-FAILED harness init"; return; }
  ( git add -A && git commit -qm "config; $dotted.mul" ) >/dev/null 2>&1 || { echo "SETUP-FAILED commit"; return; }
  base=$(git rev-parse HEAD)
  # The earlier commit: a task taken to DONE honestly (its check passes: <ns>.sub does not exist yet).
  ( harness task new "Earlier" && harness requirement add "It works" --priority must \
    && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
    && harness evidence build && harness evidence unit_test \
    && harness requirement set REQ-001 --status verified --evidence unit_test \
    && harness transition REVIEWING && harness transition GATING && harness gate --advance \
    && harness transition DONE && git add -A && git commit -qm "Earlier" ) >"$R.setup.log" 2>&1 \
    || { echo "SETUP-FAILED the earlier task did not reach DONE: $(tail -3 "$R.setup.log" | tr '\n' ' ')"; return; }
  earlier=$(git rev-parse HEAD)
  # A later commit adds the module to the namespace package; CI's checkout is at it.
  printf 'def sub(a, b):\n    return a - b\n' > "src/$1/sub.py"
  ( git add -A && git commit -qm "$dotted.sub, added later" ) >/dev/null 2>&1 || { echo "SETUP-FAILED commit"; return; }
  harness audit --json --rerun --from "$base" --to HEAD >"$R.audit.json" 2>"$R.audit.err" || rc=$?
  "$here/.venv/bin/python" - "$R.audit.json" "$earlier" "$rc" <<'PYEOF' || echo "SETUP-FAILED no re-run row (audit exit $rc)"
import json, sys
doc = json.load(open(sys.argv[1]))
(row,) = [r for r in doc["results"] if r["commit"] == sys.argv[2]]
run = {r["what"]: r for r in row["reruns"]}["unit_test"]
print(sys.argv[3], run.get("result"), "|", (run.get("error") or "").replace("\n", " ")[:300])
PYEOF
}

control=$(attempt nsa/b)
echo "control, the module 3 levels down (nsa.b.sub):     audit exit, re-run = $control"
case "$control" in "0 reproduces |"*) ;; *) echo "setup: the control did not reproduce"; exit 2 ;; esac
got=$(attempt nsa/b/c/d)
echo "the module 5 levels down (nsa.b.c.d.sub):          audit exit, re-run = $got"
case "$got" in
  "0 reproduces |"*)
    echo "FIXED: nsa.b.c.d.sub, which the earlier commit lacks, is absent in its re-run"; exit 0 ;;
  "1 does not reproduce |"*)
    echo "DEFECT: the re-run of the earlier commit imported nsa.b.c.d.sub (5 levels down a namespace package) from"
    echo "        the checkout, a later commit's code: its honest verdict is reported contradicted"; exit 1 ;;
esac
echo "setup: unexpected result (neither the defect nor fixed): $got"; exit 2
