#!/usr/bin/env bash
# Defect: F-0339 (harness/evidence/without_change.py conftest_cases + why_not, harness/evidence/pass_to_pass.py
#   _Unproven) lets a FAIL_TO_PASS run in which pytest stopped loading the change's conftest.py count, with EVERY
#   test module under that conftest's folder recorded as failing on the base. One line in a new tests/conftest.py
#   importing anything the change adds (`from calc import sub`) therefore makes every pre-existing, untouched test
#   "fail without the change": a `must` requirement about sub() is verified by naming tests/test_calc.py::test_add,
#   an old test of add() that passed on the base (the harness even runs the base's own suite to accept the run, and
#   that run shows test_add passing) and asserts nothing about sub(). docs/suite.md: "a test that passed before the
#   change proves nothing about it"; the gate's own message: "test … passes without the change (fail_to_pass): it
#   does not prove …".
# Correct: a case that the base's own run (the one _Unproven already measures or keeps) shows passing, in a file the
#   change left unchanged, is not proved FAIL_TO_PASS by a conftest's import failure: the gate keeps the blocker
#   "test tests/test_calc.py::test_add passes without the change", as it does without the conftest (control).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
PY="$here"/.venv/bin/python
( git init -q -b main && harness init ) >/dev/null 2>&1 || exit 2
printf 'def add(a, b):\n    return a + b\n' > calc.py
mkdir tests && printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
"$PY" - <<PY || exit 2
import yaml
c = yaml.safe_load(open(".harness/config.yaml"))
c["evidence"] = {"unit_test": {"command": ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}}
yaml.safe_dump(c, open(".harness/config.yaml", "w"), sort_keys=False)
g = yaml.safe_load(open(".harness/gate.yaml"))
g["gate"]["verification"]["pass_to_pass"] = "required"
g["gate"]["suite"] = {"paths": ["tests/**", "**/conftest.py"]}
yaml.safe_dump(g, open(".harness/gate.yaml", "w"), sort_keys=False)
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
( harness install && git add -A && git commit -qm base && harness task new "add sub" ) >/dev/null 2>&1 || exit 2

# The change: a (wrong!) sub(), no test of it; the requirement names the old test_add.
printf '\n\ndef sub(a, b):\n    return a + b\n' >> calc.py
harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null 2>&1 || exit 2

f2p_blockers() {
  harness evidence unit_test >/dev/null 2>&1 || { echo "setup: unit_test failed"; exit 2; }
  harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_calc.py::test_add >/dev/null 2>&1 \
    || { echo "setup: requirement set failed"; exit 2; }
  harness evidence fail_to_pass >"$T/f2p.out" 2>&1; echo "  fail_to_pass exit $?: $(grep -i 'recorded' "$T/f2p.out" | head -1)"
  harness gate >"$T/gate.out" 2>&1
  grep -iE 'REQ-001.*(fail_to_pass|without the change)' "$T/gate.out"
}

echo "control (no conftest):"
c=$(f2p_blockers); echo "$c"
echo "$c" | grep -q 'passes without the change' || { echo "setup: control does not block test_add"; cat "$T/gate.out"; exit 2; }

echo "with tests/conftest.py importing sub at its top:"
printf 'from calc import sub  # noqa: F401\n' > tests/conftest.py
d=$(f2p_blockers); echo "$d"
grep -E '^Requirements ' "$T/gate.out"
if ! echo "$d" | grep -q 'REQ-001'; then
  echo "DEFECT: REQ-001 (sub returns a - b; sub is wrong) is proved FAIL_TO_PASS by test_add, an untouched test that passed on the base"
  exit 1
fi
echo "OK: test_add still does not prove REQ-001"; exit 0
