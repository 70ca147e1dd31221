#!/usr/bin/env bash
# Defect: the bytecode cache of a protected module is protected nowhere when it lies outside suite.paths: the root
#   `conftest.py` is protected (harness/core/suite.py ALWAYS `**/conftest.py`), but `__pycache__/conftest.*.pyc` beside
#   it matches no pattern, and suite_caches.py (F-0229's fix) clears and checks only *git-ignored* caches. A forged one
#   committed with the change (`git add -f`, or in a project whose .gitignore does not list __pycache__) is part of the
#   source tree: PASS_TO_PASS keeps it (it is no protected file; the reused run did not look at it either, and a run
#   in the worktree would load it just the same, as nothing there sets a fresh PYTHONPYCACHEPREFIX), and pytest loads
#   the conftest's code from it: pytest 9's rewrite cache is hash-based, so its header matches the base's conftest.py
#   in any checkout. The forged code turns failures into passes; the task reaches DONE and is committed with the
#   base's tests failing. (The same holds for a test beside the code, `src/pkg/__pycache__/test_x.*.pyc`, and a
#   root `pprint.py`'s cache: every protected source outside the suite's folders.)
# Correct: a bytecode cache in the tree whose source is protected is itself protected (put back/removed in
#   PASS_TO_PASS's worktree; its presence makes a run not reusable), or PASS_TO_PASS's runs use a bytecode cache folder
#   of their own (PYTHONPYCACHEPREFIX), as CI's re-run does: then the base's test fails there and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
unset PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS

project() {  # base: a root conftest.py with a fixture; add() tested; sub() a stub whose test fails
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    raise NotImplementedError\n' > calc.py
  printf 'import pytest\n\n@pytest.fixture\ndef two():\n    return 2\n' > conftest.py
  printf 'from calc import add\n\ndef test_add(two):\n    assert add(two, 3) == 5\n' > tests/test_calc.py
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

# The agent implements sub() but breaks add(); it adds pytest's cache of the unchanged root conftest.py to the tree.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
python - <<'PY' || exit 2
import importlib.util, marshal
from pathlib import Path
import _pytest.assertion.rewrite as rw
src = Path("conftest.py").resolve()
pyc = src.parent / "__pycache__" / (src.stem + rw.PYC_TAIL)
pyc.parent.mkdir(exist_ok=True)
forged = src.read_text() + '''
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
'''
code = compile(forged, str(src), "exec")
pyc.write_bytes(importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00"
                + importlib.util.source_hash(src.read_bytes())[:8] + marshal.dumps(code))
PY
git add -f __pycache__ || exit 2
# and a new test, a protected change: PASS_TO_PASS then runs in its worktree rather than reusing the checkout's run
printf 'from calc import sub\n\ndef test_sub_zero():\n    assert sub(3, 3) == 0\n' > tests/test_sub_zero.py
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass) evidence|PASS_TO_PASS' "$T/cheat.log" | head -4
  echo "the commit holds: $(git show --stat --format= HEAD -- __pycache__ | head -1)"
  echo "committed tree, run with a cache folder of its own:"
  PYTHONPYCACHEPREFIX="$T/own" python -m pytest -q -p no:cacheprovider 2>&1 | tail -1
  echo "DEFECT: DONE and committed with the base's test_add failing: PASS_TO_PASS loaded the root conftest.py's code"
  echo "        from a forged __pycache__/conftest.*.pyc the change committed (no protected path names a cache)"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost' "$T/cheat.log" | head -12
exit 0
