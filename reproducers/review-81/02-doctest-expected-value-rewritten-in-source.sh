#!/usr/bin/env bash
# Defect: PASS_TO_PASS (harness/evidence/pass_to_pass.py run/protected_changes, harness/core/suite.py protected)
#   puts back only the protected files; a base configured with `--doctest-modules` (or `--doctest-glob`) has test
#   cases whose assertions live in source modules (or README/docs files) that nothing protects. The change breaks
#   mul() and rewrites its doctest's expected output to the buggy value: the base case `calc.py::calc.mul` still
#   "passes" in PASS_TO_PASS's worktree (it runs the change's docstring), so the task reaches DONE and is committed
#   with a base test weakened - the "given the buggy value as expected" row the threat model calls closed - and no
#   `harness approve suite-change`.
# Correct: a base case whose test text is in an unprotected file (a doctest of a source module, a --doctest-glob
#   file) is judged by the base's text: changing the examples of a doctest that passed at the base (or the file a
#   --doctest-glob names) is a protected change (run with the base's examples, or require a suite-change approval).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
# Setup: a Python project with two passing tests, the harness adopted,
# a task "add sub" open in IMPLEMENTING with a test of sub() written.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
PYPROJECT=""   # set before `project` for a pyproject.toml at the base
SRC="."       # where calc.py stands
GITIGNORE='__pycache__/\n.pytest_cache/\n'

project() {
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  mkdir -p "$SRC"; printf 'def add(a, b):\n    return a + b\n' > "$SRC/calc.py"
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf "$GITIGNORE" > .gitignore
  [ -n "$PYPROJECT" ] && printf '%s\n' "$PYPROJECT" > pyproject.toml
  ${BASE_EXTRA:-true}   # more files of the base
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority "${PRIO:-must}" >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
}
finish() {  # drive the task to DONE and commit; 0 when both happened. $2: a command run before the evidence
  {
    harness transition VERIFYING
    ${2:-true}
    harness evidence unit_test; echo "unit_test rc=$?"
    ${3:-true}
    harness evidence pass_to_pass; echo "pass_to_pass rc=$?"
    harness evidence fail_to_pass; echo "fail_to_pass rc=$?"
    harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_sub.py::test_sub
    harness transition REVIEWING; harness transition GATING
    harness gate; echo "gate rc=$?"
    harness converge --apply && harness transition DONE; echo "done rc=$?"
    git add -A && git commit -qm "sub"; echo "commit rc=$?"
  } >"$T/$1.log" 2>&1
  grep -q '^done rc=0' "$T/$1.log" && grep -q '^commit rc=0' "$T/$1.log"
}
# The base: doctests are part of the suite (pyproject.toml, protected, says --doctest-modules); mul() is tested by
# its doctest.
PYPROJECT='[tool.pytest.ini_options]
addopts = "--doctest-modules"'
base_mul() {
  printf '\ndef mul(a, b):\n    """Multiply.\n\n    >>> mul(2, 3)\n    6\n    """\n    return a * b\n' >> calc.py
}
BASE_EXTRA=base_mul
# Control: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }
grep -q 'calc.py::calc.mul\|calc.mul' "$T/honest/.harness/tasks"/*/evidence/pass_to_pass.cases 2>/dev/null \
  || grep -rq 'calc.mul' "$T/honest/.harness/tasks" || { echo "setup: the doctest is not a case of the suite"; exit 2; }

# Control 2: breaking mul() alone (doctest untouched) is caught by PASS_TO_PASS.
project control
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
sed -i 's/return a \* b/return a + b/' calc.py
if finish control; then echo "setup: breaking mul() was not caught (unexpected)"; exit 2; fi
grep -q 'calc.mul' "$T/control.log" || { echo "setup: control blocked for another reason"; grep rc= "$T/control.log"; exit 2; }

# The agent: mul() broken, and its doctest's expected value rewritten to the broken one.
project cheat
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
sed -i 's/return a \* b/return a + b/; s/^    6$/    5/' calc.py
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  echo "mul(2, 3) in the committed code: $(cd "$T/cheat" && python -c 'import calc; print(calc.mul(2, 3))') (the base's doctest expects 6)"
  echo "DEFECT: DONE and committed with the base's doctest calc.py::calc.mul weakened to the buggy value, no suite-change approval"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
