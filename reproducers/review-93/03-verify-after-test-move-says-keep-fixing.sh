#!/usr/bin/env bash
# Defect: after a finding's regression test file is moved/renamed (`git mv`, the documented case in
#   docs/concepts.md "A test file moved unchanged (git mv …) is the same test"), `harness finding verify`
#   re-runs the recorded command on the OLD path; pytest exits 4 (file not found, no test ran) and the
#   refusal (harness/core/finding_events.py _verified) says "regression test checks/test_mul_neg.py still
#   fails (failed, exit 4): verifying needs it to pass — hint: the fix is not done; keep fixing", with
#   `next: harness finding verify F-0001` (the same command). The fix IS done (the moved test passes); a
#   run that reached no test is reported as a failing test, and the way out that works (re-attach the test
#   at its new path: `harness finding regression F-0001 NEWPATH -- COMMAND`) is never named, so following
#   the hint loops the agent on a correct fix.
# Correct: verify follows the move (the command with the path renamed, as the doc says), or its refusal says
#   the regression test's file is gone / no test ran and names `harness finding regression F-0001 NEWPATH …`.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q -b main || exit 2
mkdir tests
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with *
      command: ["python3", "-c", "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"]
YAML
{ harness init \
  && harness install \
  && git add -A \
  && git commit -qm base \
  && harness task new "mul" \
  && harness requirement add "mul(a, b) returns a * b" --priority must \
  && harness transition SPECIFYING && harness transition PLANNED && harness transition IMPLEMENTING \
  && printf '\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' >> calc.py \
  && printf '\n\ndef test_mul():\n    from calc import mul\n    assert mul(3, 4) == 12\n' >> tests/test_calc.py \
  && harness transition VERIFYING \
  && harness evidence unit_test \
  && harness transition REVIEWING \
  && harness finding propose --file "$T/f.yaml" \
  && harness finding reproduce F-0001 \
  && printf 'def test_neg():\n    from calc import mul\n    assert mul(3, -2) == -6\n' > tests/test_mul_neg.py \
  && harness finding regression F-0001 tests/test_mul_neg.py -- python -m pytest -q tests/test_mul_neg.py::test_neg \
  && harness transition REPRODUCING \
  && harness transition FIXING \
  && sed -i 's/return sum(a for _ in range(b))/return a * b/' calc.py \
  && harness finding fixed F-0001 \
  && git add -A \
  && git commit -qm "wip: mul with its regression test" \
  && git mv tests/test_mul_neg.py tests/test_mul_negative.py \
  && harness evidence unit_test \
  && harness evidence pass_to_pass
} >"$T/setup.log" 2>&1 || { echo "setup failed"; tail -20 "$T/setup.log"; exit 2; }
python -m pytest -q tests/test_mul_negative.py >/dev/null 2>&1 || { echo "setup: the moved test does not pass"; exit 2; }

harness finding verify F-0001 > "$T/verify.out" 2>&1; v=$?
sed 's/^/    /' "$T/verify.out"
if [ $v -eq 0 ]; then echo "OK: verify followed the move"; exit 0; fi
if grep -q 'finding regression F-0001' "$T/verify.out" && ! grep -q 'keep fixing' "$T/verify.out"; then
  echo "OK: the refusal names the way out"; exit 0
fi
# control: the way out the refusal should have named works
harness finding regression F-0001 tests/test_mul_negative.py -- python -m pytest -q tests/test_mul_negative.py::test_neg >/dev/null 2>&1 \
  && harness finding verify F-0001 >/dev/null 2>&1 || { echo "setup: the way out did not work either"; exit 2; }
echo "DEFECT: verify after 'git mv' of the regression test says the fix is not done (pytest exit 4: no such file);"
echo "        'harness finding regression F-0001 tests/test_mul_negative.py -- …' then verifies at once, but is never named"
exit 1
