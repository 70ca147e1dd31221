#!/usr/bin/env bash
# Defect: an honest FAIL_TO_PASS change cannot reach DONE when the project's test module imports the
#   new function at its top (`from calc import add, sub`), the most ordinary pytest idiom, and that module
#   holds all of the base's tests. On the base's source the module fails to import, so no case passes, and
#   run_fail_to_pass's assess() (harness/evidence/pass_to_pass.py: `return passed > 0, …`) records the run as
#   FAILED ("no case passed on the base's source: the tests could not run there (a file they need that git
#   ignores?)"). The gate then blocks "REQ-001 names test cases, but fail_to_pass evidence is failing:
#   harness evidence fail_to_pass" -- following that Next only repeats the same failure. Nothing is
#   ignored by git here, and the same change passes once any other test module exists (its module-import
#   failure is accepted then: core/cases.py _module_failed), so the rule refuses by project size, not honesty.
# Correct: the base's own tests ran fine in a clean checkout (PASS_TO_PASS's base run: 2 cases passed there),
#   so a fail_to_pass run whose only failure is the change's test module failing to import the new name
#   proves the requirement as it does beside another module; the task reaches GATING -> CONVERGED -> DONE.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

setup() {  # $1: repo dir, $2: "extra" to add a second test module at the base (the control)
  mkdir -p "$1" && cd "$1" || exit 2
  git init -q --bare "$1.remote" && git init -q -b main && git remote add origin "$1.remote" || exit 2
  mkdir tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_neg():\n    assert add(-2, 3) == 1\n' > tests/test_calc.py
  [ "$2" = extra ] && printf 'def test_other():\n    assert True\n' > tests/test_other.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  mkdir .harness
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( harness init && harness install && git add -A && git commit -qm base && git push -q origin main \
    && harness task new "sub" && harness requirement add "sub(a, b) returns a - b" --priority must \
    && harness transition SPECIFYING && harness transition PLANNED && harness transition IMPLEMENTING ) >/dev/null 2>&1 || exit 2
  grep -q 'pass_to_pass: required' .harness/gate.yaml || exit 2
  # the honest change: sub() and its test, imported the usual way
  printf '\n\ndef sub(a, b):\n    return a - b\n' >> calc.py
  sed -i 's/^from calc import add$/from calc import add, sub/' tests/test_calc.py
  printf '\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' >> tests/test_calc.py
}

walk() {  # the demo's flow; prints the gate's blockers; returns 0 when the task is DONE and committed
  harness transition VERIFYING >/dev/null 2>&1 || return 3
  harness evidence unit_test >/dev/null 2>&1 || return 3
  harness evidence pass_to_pass >/dev/null 2>&1 || return 3
  harness evidence fail_to_pass > "$T/f2p.out" 2>&1
  harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_calc.py::test_sub >/dev/null 2>&1 || return 3
  harness transition REVIEWING >/dev/null 2>&1 && harness transition GATING >/dev/null 2>&1 || return 3
  harness gate > "$T/gate.out" 2>&1 || { grep -hE 'no case passed|names test cases' "$T/f2p.out" "$T/gate.out" | sed 's/^/    /'; return 1; }
  harness converge --apply >/dev/null 2>&1 && harness transition DONE >/dev/null 2>&1 || return 1
  git add -A && git commit -qm "sub" >/dev/null 2>&1 || return 1
}

( setup "$T/control" extra; walk ); c=$?
if [ $c -ne 0 ]; then echo "setup: the control (same change beside a second test module) did not reach DONE ($c)"; exit 2; fi
echo "control: the same change in a project with a second test module reaches DONE"

( setup "$T/repo"; walk ); r=$?
[ $r -ge 2 ] && { echo "setup failure ($r)"; exit 2; }
if [ $r -ne 0 ]; then
  echo "DEFECT: the honest change (sub() + tests/test_calc.py::test_sub, which fails on the base because"
  echo "        'from calc import add, sub' cannot import there) is blocked: fail_to_pass recorded failed"
  exit 1
fi
echo "OK: the task reached DONE"; exit 0
