#!/usr/bin/env bash
# Defect: `harness audit --aggregate` indexes the plan and the verdicts without checking their types
#   (harness/history/audit_fanout.py: plan_exit_code() `doc["failed"]`, aggregate() `p["commit"] for p in
#   plan.get("planned")`, `(doc.get("range") or {}).get("tip")`). Valid JSON of another shape — a plan without
#   `failed`, a `planned` entry that is no object, a verdict whose `range` is a string — ends the command with a
#   Python traceback (KeyError / TypeError / AttributeError) and exit 1, the code docs/ci.md gives to "the plan's
#   checks or any job refused", instead of the "no verdict" answer (exit 2, naming the file) the docs promise for
#   a file that is not what the jobs write. (Fail-closed, but misreported: CI shows a crash of the harness and a
#   refusal of the work, not which file is unusable.) docs/threat-model.md: every value read from a payload is
#   checked for type before it is compared.
# Correct: each such file is reported as not a plan / not a verdict (exit 2, naming it), no traceback.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; cd "$T" || exit 2
good_plan='{"kind": "harness-audit-plan", "range": {"tip": "'$(printf 'a%.0s' {1..40})'"}, "checked": [], "commits": 0,
 "failed": 0, "history": [], "results": [], "planned": [], "matrix": []}'
echo "$good_plan" > plan.json
# Control: a well-formed plan with nothing planned passes; a missing plan is exit 2.
harness audit --aggregate plan.json 2>/dev/null || { echo "setup: control plan does not pass"; exit 2; }
rc=0; harness audit --aggregate 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || { echo "setup: no plan gives $rc"; exit 2; }

fail=0
check() {  # name, files...
  local name=$1; shift
  local rc=0; harness audit --aggregate "$@" >"$T/out" 2>"$T/err" || rc=$?
  if [ "$rc" -ne 2 ] || grep -q Traceback "$T/err"; then
    echo "DEFECT: $name: exit $rc, $(grep -E '^[A-Za-z]+Error' "$T/err" | tail -1 || true)"
    fail=1
  fi
}
echo '{"kind": "harness-audit-plan", "planned": []}' > p-nofailed.json
check "a plan without \`failed\`" p-nofailed.json
echo '{"kind": "harness-audit-plan", "failed": 0, "history": [], "planned": ["deadbeef"]}' > p-strings.json
check "a plan whose \`planned\` holds strings" p-strings.json
echo '{"rerun_only": "deadbeef", "results": [], "range": "main"}' > v-range.json
check "a verdict whose \`range\` is a string" plan.json v-range.json
[ "$fail" -eq 0 ] && echo "OK: files of another shape are reported as such (exit 2)"
exit "$fail"
