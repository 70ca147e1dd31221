#!/bin/bash
# gate.yaml: requirements.must_verified false, must_have_tests true. The gate then never asks a must
# requirement for test cases (requirements_verified skips must requirements when must_verified is
# off), yet `harness contract check` / `contract apply` refuse a must requirement whose plan names no
# test case, saying "the gate would refuse it at the end".
source "$(dirname "$0")/lib.sh"
D=$(mktemp -d); cd "$D" || exit 99
git init -q . && git config user.email a@b && git config user.name n
echo 'x = 1' > app.py; git add -A; git commit -qm init
$H init >/dev/null 2>&1 || exit 90
$PY - <<'PYEOF' || exit 91
import re, pathlib
p = pathlib.Path(".harness/gate.yaml"); t = p.read_text()
t = re.sub(r"(?m)^(    must_verified: )true", r"\1false", t)
t = re.sub(r"(?m)^(  requirements:\n)", r"\1    must_have_tests: true\n", t, count=1)
p.write_text(t)
PYEOF
grep -n 'must_verified\|must_have_tests' .harness/gate.yaml
git add -A; git commit -qm harness -q
$H task new T >/dev/null 2>&1 || exit 92
cat > .harness/local/contract.yaml <<'YAML'
contract:
  acceptance_criteria: [It works]
  requirements:
    - statement: "It works"
      priority: must
      verified_by: [unit_test]
  invariants: []
YAML
out=$($H contract check 2>&1); rc=$?; echo "$out"
[ $rc -eq 0 ] || { echo "DEFECT: contract check refuses a plan the gate (must_verified: false) never asks tests of"; exit 1; }
exit 0
