#!/usr/bin/env bash
# Defect: harness/core/suite.py shadows_what_the_runner_imports() (used by changed_protected()) protects a module the
#   change adds at the tree's root only when its top-level name is a standard-library one (sys.stdlib_module_names),
#   one of RUNNER_MODULES, or an installed distribution's (pass_to_pass.installed_names()). The standard library
#   itself imports a name that is none of these as pytest starts: copy.py and pickle.py (Python 3.11) run
#   `try: from org.python.core import PyStringMap except ImportError: ...`, and `import pytest` imports copy. The
#   tree's root is first on sys.path (`python -m pytest`; PASS_TO_PASS's worktree first on PYTHONPATH), so a root
#   package `org/` the change adds runs its __init__.py before pytest reads its configuration — a start-up hook
#   exactly like the root `pprint.py`/`pluggy.py` the harness removes from PASS_TO_PASS's worktree. Here it names a
#   plugin (PYTEST_PLUGINS, set inside the process, never recorded) turning every failure into a pass: unit_test,
#   pass_to_pass and fail_to_pass "pass", the task reaches DONE and is committed with every base test failing.
# Correct: a root module the change adds under a name the interpreter imports as pytest starts (here `org`, which the
#   standard library's copy/pickle try to import) is protected like `pprint.py`: removed in PASS_TO_PASS's worktree,
#   where the base's tests then fail against the broken code and the gate blocks (a name list derived from what is
#   imported at start-up, or at least `org` added to RUNNER_MODULES).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

project() {  # a Python project with two passing tests, the harness adopted, a task "add sub" open
  R="$T/$1"; mkdir -p "$R" && cd "$R" || exit 2
  mkdir -p .harness tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n' > tests/test_calc.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  ( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
  harness task new "add sub" >/dev/null 2>&1 || exit 2
  harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null || exit 2
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null || exit 2; done
  printf 'from calc import sub\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
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

python - <<'PY' || { echo "setup: this interpreter's copy module does not try to import org.python.core"; exit 2; }
import inspect, copy, sys
sys.exit(0 if "org.python.core" in inspect.getsource(copy) else 1)
PY

# Control: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; grep rc= "$T/honest.log"; exit 2; }

# The agent: sub wrong, add broken, and a root package `org/` (copy.py tries `from org.python.core import ...`).
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
mkdir org
printf 'import os\nos.environ["PYTEST_PLUGINS"] = "org.quiet"\n' > org/__init__.py
cat > org/quiet.py <<'PY'
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
if finish cheat; then
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  git show --stat --format= HEAD | sed 's/^/  committed: /'
  mkdir "$T/aside" && mv org "$T/aside/"
  echo "committed tree without org/, the real pytest: $(python -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)"
  echo "DEFECT: DONE and committed with every base test failing: a root org/ package (imported by the standard"
  echo "        library's copy.py as pytest starts) is not protected, so PASS_TO_PASS's worktree keeps it"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
