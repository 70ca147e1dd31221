#!/usr/bin/env bash
# Read 47 (of the package move, 0969e5b): two findings' confirming reproducers still import harness.usecases.*,
# which the move removed, so they exit 2 (ModuleNotFoundError) and `harness finding verify` refuses F-0051 of
# #27's task and F-0006 of #28's. Exit 1 while either does not exit 0, 0 once both pass again, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
out=$(mktemp) || exit 2; trap 'rm -f "$out"' EXIT
fail=0
for r in reproducers/review-44/04-commit-fast-path-with-HARNESS-beside-harness.sh \
         reproducers/review-perf/04-evidence-fast-interrupt-output-differs.sh; do
  bash "$r" >"$out" 2>&1; rc=$?
  echo "$r: exit $rc (0 expected: its finding is fixed)"; grep -m1 ModuleNotFoundError "$out"
  [ "$rc" -eq 0 ] || fail=1
done
exit $fail
