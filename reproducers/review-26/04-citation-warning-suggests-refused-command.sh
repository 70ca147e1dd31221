#!/bin/bash
# `requirement set` warns when a citation does not cover the contract's plan, and names the command
# that fixes it. When a planned type has not run yet, that command is refused ("none was collected"):
# the warning should name `harness evidence TYPE` first (as the Next: block does), or only a command
# that is accepted now.
source "$(dirname "$0")/lib.sh"
setup_repo
cat > .harness/local/contract.yaml <<'YAML'
contract:
  acceptance_criteria: [It works]
  requirements:
    - statement: "It works"
      priority: must
      verified_by: [unit_test, integration_test]
  invariants: []
YAML
$H contract apply >/dev/null 2>&1 || exit 90
for s in IMPLEMENTING VERIFYING; do $H transition $s >/dev/null 2>&1 || exit 91; done
$H evidence build -- python3 -c pass >/dev/null 2>&1 || exit 92
$H evidence unit_test -- python3 -c pass >/dev/null 2>&1 || exit 92
err=$($H requirement set REQ-001 --status verified --evidence unit_test 2>&1 >/dev/null)
echo "$err"
echo "$err" | grep -q 'warning' || { echo "no warning at all"; exit 93; }
# Fixed when the warning names collecting the planned type first, or suggests only a command accepted now.
if echo "$err" | grep -q 'harness evidence integration_test'; then exit 0; fi
fix=$(echo "$err" | grep -o 'harness requirement set [^`]*' | head -1)
[ -n "$fix" ] || { echo "the warning names no command"; exit 1; }
echo "running the warning's suggestion: $fix"
eval "$(dirname "$H")/$fix" || { echo "DEFECT: the command the warning suggests is refused"; exit 1; }
exit 0
