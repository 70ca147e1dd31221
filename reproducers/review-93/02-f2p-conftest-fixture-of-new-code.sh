#!/usr/bin/env bash
# Defect: an honest change that adds a class and a fixture for it in tests/conftest.py
#   (`from calc import Acc` at the conftest's top, the usual way to write a fixture) can never prove its
#   must requirement by FAIL_TO_PASS, whatever the size of the project. run_fail_to_pass
#   (harness/evidence/pass_to_pass.py) runs the change's protected files over the base's source; there
#   pytest stops while loading the conftest (ImportError, exit 4) before writing its JUnit report, and the
#   run is recorded FAILED ("JUnit report … was not written by the run"). The gate blocks with
#   "REQ-001 names test cases, but fail_to_pass evidence is failing: harness evidence fail_to_pass", and
#   following that Next only repeats the failure; no blocker or doc names the way out (the named case does
#   fail without the change: it cannot even be set up there).
# Correct: a fail_to_pass run that the change's own conftest stops by failing to import the change's new
#   code shows every case under that conftest failing without the change (as a test module that fails to
#   import already does: core/cases.py _module_failed); the requirement is proved and the task reaches DONE.
#   (At the least, the blocker should name the real cause and a way out that works.)
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

setup() {  # $1: repo dir, $2: "lazy" imports Acc inside the fixture (the control)
  mkdir -p "$1" && cd "$1" || exit 2
  git init -q --bare "$1.remote" && git init -q -b main && git remote add origin "$1.remote" || exit 2
  mkdir tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf 'def test_other():\n    assert True\n' > tests/test_other.py
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
    && harness task new "accumulator" && harness requirement add "Acc().push(x) accumulates" --priority must \
    && harness transition SPECIFYING && harness transition PLANNED && harness transition IMPLEMENTING ) >/dev/null 2>&1 || exit 2
  grep -q 'pass_to_pass: required' .harness/gate.yaml || exit 2
  # the honest change: a class, a fixture for it, a test using the fixture
  printf '\n\nclass Acc:\n    def __init__(self):\n        self.v = 0\n\n    def push(self, x):\n        self.v += x\n        return self\n' >> calc.py
  if [ "$2" = lazy ]; then
    printf 'import pytest\n\n\n@pytest.fixture\ndef acc():\n    from calc import Acc\n    return Acc()\n' > tests/conftest.py
  else
    printf 'import pytest\nfrom calc import Acc\n\n\n@pytest.fixture\ndef acc():\n    return Acc()\n' > tests/conftest.py
  fi
  printf 'def test_acc(acc):\n    assert acc.push(2).push(3).v == 5\n' > tests/test_acc.py
}

walk() {  # the demo's flow; returns 0 when the task is DONE and committed
  harness transition VERIFYING >/dev/null 2>&1 || return 3
  harness evidence unit_test >/dev/null 2>&1 || return 3
  harness evidence pass_to_pass >/dev/null 2>&1 || return 3
  harness evidence fail_to_pass > "$T/f2p.out" 2>&1
  harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_acc.py::test_acc >/dev/null 2>&1 || return 3
  harness transition REVIEWING >/dev/null 2>&1 && harness transition GATING >/dev/null 2>&1 || return 3
  harness gate > "$T/gate.out" 2>&1 || { grep -hE 'ImportError|recorded|JUnit|names test cases' "$T/f2p.out" "$T/gate.out" | grep -v Next | sed 's/^/    /'; return 1; }
  harness converge --apply >/dev/null 2>&1 && harness transition DONE >/dev/null 2>&1 || return 1
  git add -A && git commit -qm "acc" >/dev/null 2>&1 || return 1
}

( setup "$T/control" lazy; walk ); c=$?
if [ $c -ne 0 ]; then echo "setup: the control (the import inside the fixture) did not reach DONE ($c)"; exit 2; fi
echo "control: the same change with the import moved inside the fixture reaches DONE"

( setup "$T/repo"; walk ); r=$?
[ $r -ge 2 ] && { echo "setup failure ($r)"; exit 2; }
if [ $r -ne 0 ]; then
  echo "DEFECT: the honest change (Acc + a conftest fixture importing it + tests/test_acc.py::test_acc) is"
  echo "        blocked: fail_to_pass is recorded failed because the change's conftest cannot load on the base"
  exit 1
fi
echo "OK: the task reached DONE"; exit 0
