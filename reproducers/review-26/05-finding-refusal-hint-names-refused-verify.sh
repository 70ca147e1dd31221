#!/bin/bash
# A refused finding command on a FIXED finding (here `finding close`) still gives, as its hint, the old
# per-status table's `harness finding verify F-0001` (core/findings.py NEXT_STEP) — the command
# issue #26 friction 4 says is always refused next — beside a `next:` line from the new table that
# says to collect evidence first. Running the hint's command is refused.
source "$(dirname "$0")/lib.sh"
setup_repo; to_gating
$H gate >/dev/null 2>&1; $H transition BLOCKED >/dev/null 2>&1 || exit 90
$H transition REPRODUCING >/dev/null 2>&1 || exit 90
cat > f.yaml <<'YAML'
findings:
- type: suspected_defect
  severity: major
  category: correctness
  title: x is wrong
  claim: x is 1
  location: {file: app.py, line: 1}
  failure_scenario: [import app]
  expected_behavior: x is 2
  recommended_reproducer: {type: custom, description: d, command: "python3 -c 'import app,sys; sys.exit(app.x != 2)'"}
YAML
$H finding propose --file f.yaml >/dev/null 2>&1 || exit 91
$H finding reproduce F-0001 >/dev/null 2>&1
mkdir -p tests; printf 'import app\ndef test_x():\n    assert app.x == 2\n' > tests/test_x.py
$H finding regression F-0001 tests/test_x.py -- python3 -m pytest -q -p no:cacheprovider tests/test_x.py >/dev/null 2>&1 || exit 92
$H transition FIXING >/dev/null 2>&1 || exit 93
echo 'x = 2' > app.py
$H finding fixed F-0001 >/dev/null 2>&1 || exit 94
err=$($H finding close F-0001 2>&1); echo "$err"
hint=$(echo "$err" | sed -n 's/^  hint: \(harness finding verify F-0001\).*/\1/p')
[ -n "$hint" ] || { echo "the refusal's hint no longer names finding verify"; exit 0; }
echo "running the refusal's hint: $hint"
if eval "$(dirname "$H")/$hint" >/dev/null 2>&1; then exit 0; fi
echo "DEFECT: the refusal's hint names a command that is refused now"; exit 1
