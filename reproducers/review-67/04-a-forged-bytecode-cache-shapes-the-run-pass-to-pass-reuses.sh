#!/usr/bin/env bash
# Defect: when no protected file differs from the base, `harness evidence pass_to_pass` reuses the unit_test run
#   made in the checkout (harness/evidence/pass_to_pass.py _reuse()), refusing only a bent environment (_bent) or a
#   git-ignored file under the protected paths (_ignored_suite_files). That check skips `__pycache__` folders
#   (_uncollected/_NEVER_COLLECTED: "folders pytest never collects"), but pytest *loads* the rewritten test module from
#   tests/__pycache__/<name>.cpython-3X-pytest-<v>.pyc whenever its header carries the source's hash. A forged one
#   (the test body replaced by `pass`; git ignores it) makes a base test pass in the unit_test run, PASS_TO_PASS takes
#   that run as its own, and the task reaches DONE and is committed with a base test failing on the committed code.
#   docs/threat-model.md lists "a suite file git ignores ... shaping the run pass_to_pass would reuse" as closed on
#   the developer's machine ("such a run is not reused"). (PYTHONPYCACHEPREFIX, not among _bent's variables, does the
#   same from outside the checkout.)
# Correct: a bytecode cache under a protected path (or PYTHONPYCACHEPREFIX) makes the run not reusable: PASS_TO_PASS
#   runs in its clean worktree, the base's test is lost there, and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

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

# The agent implements sub() but breaks add(); instead of fixing it, it plants pytest's bytecode cache for the
# unchanged tests/test_calc.py (git ignores __pycache__/): test_add's body becomes `pass`.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return a - b\n' > calc.py
python - <<'PY' || exit 2
import importlib.util, marshal
from pathlib import Path
import _pytest.assertion.rewrite as rw
src = Path("tests/test_calc.py").resolve()
pyc = src.parent / "__pycache__" / (src.name[:-3] + rw.PYC_TAIL)
pyc.parent.mkdir(exist_ok=True)
code = compile("def test_add():\n    pass\n", str(src), "exec")
pyc.write_bytes(importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00"
                + importlib.util.source_hash(src.read_bytes())[:8] + marshal.dumps(code))
PY
if finish cheat; then
  echo "committed tree, bytecode caches removed:"; rm -rf tests/__pycache__; python -m pytest -q -p no:cacheprovider 2>&1 | tail -3
  grep -E '^harness: (unit_test|pass_to_pass) evidence|PASS_TO_PASS' "$T/cheat.log"
  echo "DEFECT: DONE and committed with the base's test_add failing: PASS_TO_PASS reused a unit_test run that loaded a"
  echo "        forged tests/__pycache__/*.pyc (an ignored file under the protected tests/**)"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost' "$T/cheat.log" | head -12
exit 0
