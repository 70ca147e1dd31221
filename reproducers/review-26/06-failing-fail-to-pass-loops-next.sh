#!/bin/bash
# In GATING, a must requirement names a test case and fail_to_pass evidence is FAILING (the run on the
# base found no case that passes there: here the suite's only test is the change's new one). The
# blocker's kind is fail_to_pass_unusable whatever the status, and Next: treats it as cleared in
# place: `harness evidence fail_to_pass`, then `harness gate` (no --advance). Re-running fails the
# same way, the gate is BLOCKED the same way, and Next: says the same again: a loop that never reaches
# `harness converge --apply` (before the change this blocker was not "cleared in place"; a failing
# citation — cites_evidence_fail — is excluded from in-place clearing for this very reason).
source "$(dirname "$0")/lib.sh"
D=$(mktemp -d); cd "$D" || exit 99
git init -q . && git config user.email a@b && git config user.name n
echo 'x = 1' > app.py; mkdir tests; : > tests/conftest.py; printf '[pytest]\npythonpath = .\n' > pytest.ini
mkdir -p .harness; cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-c", "pass"]
  unit_test:
    command: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
git add -A; git commit -qm init
$H init >/dev/null 2>&1 || exit 90
sed -i 's/^    pass_to_pass: required/    pass_to_pass: optional/' .harness/gate.yaml
git add -A; git commit -qm harness -q
$H task new T >/dev/null 2>&1 || exit 91
$H requirement add "x is 2" --priority must >/dev/null 2>&1
for s in SPECIFYING PLANNED IMPLEMENTING; do $H transition $s >/dev/null 2>&1 || exit 92; done
printf 'import app\n\ndef test_x():\n    assert app.x == 2\n' > tests/test_x.py; echo 'x = 2' > app.py
$H transition VERIFYING >/dev/null 2>&1 || exit 93
$H evidence build >/dev/null 2>&1 || exit 94
$H evidence unit_test >/dev/null 2>&1 || exit 94
$H requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_x.py::test_x >/dev/null 2>&1 || exit 95
$H evidence fail_to_pass >/dev/null 2>&1
$H transition REVIEWING >/dev/null 2>&1 || exit 96
$H transition GATING >/dev/null 2>&1 || exit 96
for round in 1 2 3; do
  g=$($H gate 2>&1)
  nxt=$(echo "$g" | grep -A3 '^Next:')
  echo "--- round $round"; echo "$g" | grep -A4 '^Blocking:'; echo "$nxt"
  first=$(echo "$nxt" | head -1 | sed 's/^Next: *//; s/  —.*//')
  case "$first" in
    "harness evidence fail_to_pass") $H evidence fail_to_pass >/dev/null 2>&1 ;;
    *) exit 0 ;;  # Next: leads somewhere else: no loop
  esac
done
echo "DEFECT: Next: sent the task round the same in-place step three times with the gate still BLOCKED on it"
exit 1
