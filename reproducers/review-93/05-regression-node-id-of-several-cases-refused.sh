#!/usr/bin/env bash
# Defect: a finding's regression test run by a node id that names more than one case -- a parametrized
#   function, or a test class (a unittest.TestCase run as `pytest tests/test_x.py::NegTest`) -- cannot be
#   attached the way the gate asks. Run by its node id (`pytest tests/test_mul_neg.py::test_neg`), the gate later blocks:
#   "test tests.test_mul_neg::test_neg did not pass in the cited run: it ran as parametrized cases (…); cite
#   each one that proves it". But citing each one with --tests is refused by `harness finding regression`:
#   "--tests names tests.test_mul_neg::test_neg[3--2--6], …, which `python -m pytest -q
#   tests/test_mul_neg.py::test_neg` does not run" -- false, that command runs exactly those cases.
#   harness/core/cases.py regression_strays(): `picked and c not in picked` compares the parametrized case ids
#   with the function's id literally, so a case `test_neg[...]` of a picked `test_neg` counts as a stray; so
#   does `tests.test_mul_neg.NegTest::test_a` of a picked class `tests/test_mul_neg.py::NegTest` (case_id
#   makes that `tests.test_mul_neg::NegTest`, no case at all), whose bare use the gate then blocks as
#   "did not pass in the cited run" with no hint.
# Correct: a case `X[params]` is run by a command that picks `X`, and `C::test_a` by one that picks class `C`;
#   the regression test is attached with those cases, and the task walks to DONE (as it does when the command names the whole file).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
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

run() {  # $1 repo dir, $2 kind (param|class), $3...: the regression test's command. Returns 0 at DONE, 1 if refused, 3 on setup failure
  local dir=$1 kind=$2; shift 2
  mkdir -p "$dir" && cd "$dir" || return 3
  git init -q -b main || return 3
  mkdir tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  mkdir .harness
  printf 'version: 1\nevidence:\n  unit_test:\n    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]\n    junit: .harness/local/junit.xml\n' > .harness/config.yaml
  { harness init && harness install && git add -A && git commit -qm base \
    && harness task new "mul" && harness requirement add "mul(a, b) returns a * b" --priority must \
    && harness transition SPECIFYING && harness transition PLANNED && harness transition IMPLEMENTING \
    && printf '\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' >> calc.py \
    && printf '\n\ndef test_mul():\n    from calc import mul\n    assert mul(3, 4) == 12\n' >> tests/test_calc.py \
    && harness transition VERIFYING && harness evidence unit_test && harness transition REVIEWING \
    && harness finding propose --file "$T/f.yaml" && harness finding reproduce F-0001 \
    && if [ "$kind" = param ]; then
      printf 'import pytest\n\n\n@pytest.mark.parametrize("a, b, r", [(3, -2, -6), (-3, -2, 6)])\ndef test_neg(a, b, r):\n    from calc import mul\n    assert mul(a, b) == r\n' > tests/test_mul_neg.py
    else
      printf 'import unittest\n\n\nclass NegTest(unittest.TestCase):\n    def test_a(self):\n        from calc import mul\n        self.assertEqual(mul(3, -2), -6)\n' > tests/test_mul_neg.py
    fi
  } >"$dir.log" 2>&1 || return 3
  if [ "$kind" = param ]; then
    set -- --tests 'tests/test_mul_neg.py::test_neg[3--2--6]' --tests 'tests/test_mul_neg.py::test_neg[-3--2-6]' -- "$@"
  else
    set -- --tests tests/test_mul_neg.py::NegTest::test_a -- "$@"
  fi
  harness finding regression F-0001 tests/test_mul_neg.py "$@" >"$dir.reg" 2>&1 \
    || { sed 's/^/    /' "$dir.reg" | head -3; return 1; }
  { harness transition REPRODUCING && harness transition FIXING \
    && sed -i 's/return sum(a for _ in range(b))/return a * b/' calc.py \
    && harness finding fixed F-0001 && harness evidence unit_test && harness evidence pass_to_pass \
    && harness evidence fail_to_pass && harness finding verify F-0001 && harness finding close F-0001 \
    && harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_calc.py::test_mul \
    && harness transition VERIFYING && harness transition REVIEWING && harness transition GATING \
    && harness gate && harness converge --apply && harness transition DONE && git add -A && git commit -qm mul \
    && git grep -q 'state: DONE' HEAD -- '.harness/tasks/*/task.yaml'
  } >"$dir.rest" 2>&1 || { grep -E '^- |harness:' "$dir.rest" | head -5 | sed 's/^/    /'; return 1; }
}

fail=0
for kind in param class; do
  ( run "$T/control-$kind" $kind python -m pytest -q tests/test_mul_neg.py ); c=$?
  [ $c -ne 0 ] && { echo "setup: the $kind control (the command runs the whole file) did not reach DONE ($c)"; exit 2; }
done
echo "control: the same cases, with a command that runs the whole file, reach DONE"
( run "$T/param" param python -m pytest -q tests/test_mul_neg.py::test_neg ); r=$?
[ $r -ge 2 ] && { echo "setup failure"; exit 2; }
[ $r -ne 0 ] && { echo "DEFECT: test_neg[...] refused as not run by 'pytest tests/test_mul_neg.py::test_neg'"; fail=1; }
( run "$T/class" class python -m pytest -q tests/test_mul_neg.py::NegTest ); r=$?
[ $r -ge 2 ] && { echo "setup failure"; exit 2; }
[ $r -ne 0 ] && { echo "DEFECT: NegTest::test_a refused as not run by 'pytest tests/test_mul_neg.py::NegTest'"; fail=1; }
[ $fail -eq 0 ] && echo "OK: both attached and DONE"
exit $fail
