#!/usr/bin/env bash
# Defect: F-0229's fix clears and checks only the bytecode caches whose *source is protected*
#   (harness/evidence/suite_caches.py clear() and shaped_by(): `suite.protected([source], ...)`). PASS_TO_PASS reuses
#   the unit_test run made in the checkout when no protected file changed (harness/evidence/pass_to_pass.py _reuse()),
#   but that run imports the code under test from its git-ignored cache too: a forged `__pycache__/calc.cpython-3X.pyc`
#   (hash-based, its header carrying the committed calc.py's hash, its code the correct functions) makes the base's
#   tests pass on a calc.py that breaks them. Neither check looks at it (calc.py is not protected), the run is reused,
#   and the task reaches DONE and is committed with a base test failing on the committed code. The reused run is then
#   not "the current source judged by the base's tests" (pass_to_pass's docstring), which a run in PASS_TO_PASS's
#   clean worktree would have been; docs/threat-model.md lists forged caches shaping the reused run as closed.
# Correct: a run is reusable only when no git-ignored bytecode cache it could have imported predates it (any module
#   of the tree, not only protected ones; or: clear them all before the suite's run); otherwise PASS_TO_PASS runs in
#   its clean worktree, where the base's test fails on the committed calc.py, and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
unset PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS

project() {  # base: add() tested and passing; sub() a stub whose test (written by a human first) fails
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    raise NotImplementedError\n' > calc.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "implement sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
}
finish() {  # drive the task to DONE and commit; 0 when both happened
  {
    harness transition VERIFYING
    harness evidence unit_test; echo "unit_test rc=$?"
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

# Control: the honest change reaches DONE (the setup works).
project honest
printf 'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# The agent implements sub() but breaks add(); instead of fixing it, it plants the bytecode cache of calc.py itself
# (git ignores __pycache__/): its header matches the committed source, its code is the correct module.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
python - <<'PY' || exit 2
import importlib.util, marshal
from pathlib import Path
src = Path("calc.py").resolve()
pyc = Path(importlib.util.cache_from_source(str(src)))
pyc.parent.mkdir(exist_ok=True)
code = compile("def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n", str(src), "exec")
pyc.write_bytes(importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00"
                + importlib.util.source_hash(src.read_bytes()) + marshal.dumps(code))
PY
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass) evidence|PASS_TO_PASS|reuse' "$T/cheat.log" | head -4
  echo "committed tree, bytecode caches removed:"; rm -rf __pycache__ tests/__pycache__
  python -m pytest -q -p no:cacheprovider 2>&1 | tail -1
  echo "DEFECT: DONE and committed with the base's test_add failing: PASS_TO_PASS reused a unit_test run that imported"
  echo "        a forged __pycache__/calc.*.pyc (git-ignored; its source is not protected, so neither cleared nor checked)"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost' "$T/cheat.log" | head -12
exit 0
