#!/usr/bin/env bash
# Defect: `harness audit --aggregate` identifies "the range" of a plan and of a verdict by its tip alone
#   (harness/history/audit_fanout.py, aggregate(): `(doc.get("range") or {}).get("tip") != tip`). A verdict
#   whose job audited another range ending at the same tip (other --from/--before/--base: another `excluded`,
#   `mode`, `everything_reachable`) is taken as the plan's. docs/ci.md promises exit 2 when "a verdict is
#   ... for another range". Concretely: a plan over D1..TIP (lists only D2) aggregated with the verdict of a
#   job over BASE..TIP — whose own range holds D1, a commit marking a task DONE that no job re-ran — exits 0,
#   and a verdict from a job over the whole history (another range, another PASS_TO_PASS base derivation:
#   `excluded` is what the re-run's base is derived from) is accepted for a plan over BASE..TIP.
# Correct: the aggregate compares the whole range (mode, tip, excluded, everything_reachable, before, base) of
#   every verdict with the plan's and says "no verdict" (exit 2) for a verdict of another range.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
# --- scratch setup ---
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
setup_repo() {
  ( git init -q -b main && printf '__pycache__/\n' > .gitignore && echo 'def add(a, b):\n    return a + b' > calc.py \
    && mkdir .harness && cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-c", "pass"]
  unit_test:
    command: ["python3", "-c", "pass"]
YAML
    harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
}
# honest_done TITLE: a task walked to DONE with evidence, committed
honest_done() {
  ( harness task new "$1" >/dev/null && harness requirement add "It works" --priority must \
    && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s; done \
    && harness evidence build && harness evidence unit_test \
    && harness requirement set REQ-001 --status verified --evidence unit_test \
    && harness transition REVIEWING && harness transition GATING && harness gate --advance \
    && harness transition DONE && git add -A && git commit -qm "done: $1" ) >/dev/null 2>&1 || exit 2
}
setup_repo
base=$(git rev-parse HEAD)
honest_done First; d1=$(git rev-parse HEAD)
echo 'x = 1' >> calc.py; git commit -qam code || exit 2
honest_done Second; d2=$(git rev-parse HEAD)

# Control: the honest fan-out over BASE..TIP passes.
harness audit --from "$base" --to HEAD --plan --json > "$T/plan.json" 2>/dev/null || exit 2
for c in "$d1" "$d2"; do
  harness audit --from "$base" --to HEAD --rerun --only "$c" --json > "$T/v-$c.json" 2>/dev/null || exit 2
done
harness audit --aggregate "$T/plan.json" "$T/v-$d1.json" "$T/v-$d2.json" 2>/dev/null || { echo "setup: honest fan-out does not pass"; exit 2; }

fail=0
# 1. A plan over D1..TIP (same tip, another range) with the BASE..TIP job's verdict for D2.
harness audit --from "$d1" --to HEAD --plan --json > "$T/plan-narrow.json" 2>/dev/null || exit 2
rc=0; harness audit --aggregate "$T/plan-narrow.json" "$T/v-$d2.json" 2>"$T/err1" || rc=$?
if [ "$rc" -eq 0 ]; then
  echo "DEFECT: plan over ${d1:0:12}..TIP + a verdict from a job over ${base:0:12}..TIP: aggregate exit 0;"
  echo "        that verdict's range holds ${d1:0:12} (marks a task DONE), which no job re-ran"
  python3 - "$T/v-$d2.json" "$d1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); row = next(r for r in doc["results"] if r["commit"] == sys.argv[2])
print("        the verdict itself says of it:", row.get("rerun"), "; gated:", row.get("gated"))
PY
  fail=1
fi
# 2. The plan over BASE..TIP with a verdict for D2 from a job over everything reachable (no --from).
harness audit --to HEAD --rerun --only "$d2" --json > "$T/v-all-$d2.json" 2>/dev/null || exit 2
rc=0; harness audit --aggregate "$T/plan.json" "$T/v-$d1.json" "$T/v-all-$d2.json" 2>"$T/err2" || rc=$?
if [ "$rc" -eq 0 ]; then
  echo "DEFECT: a verdict from a job over every commit reachable (excluded: []) accepted for a plan over"
  echo "        ${base:0:12}..TIP (excluded: [${base:0:12}]): aggregate exit 0, docs/ci.md says exit 2 (another range)"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "OK: verdicts of another range are not taken as the plan's"
exit "$fail"
