#!/usr/bin/env bash
# Defect: PASS_TO_PASS puts back only the base's *protected* files (harness/core/suite.py: suite.paths + ALWAYS:
#   sitecustomize/usercustomize/*.pth/conftest.py/pytest.ini...). A `*.dist-info/` folder at the repository root is
#   not protected, yet the run has the tree on sys.path (`python -m pytest` puts the cwd first; pass_to_pass.inside()
#   puts the worktree first on PYTHONPATH), so importlib.metadata finds its entry_points.txt and pytest auto-loads
#   the `pytest11` plugin it names. A plugin that turns every failed report into a pass then runs in the unit_test
#   run, in `harness evidence pass_to_pass` (harness/evidence/pass_to_pass.py run()) and in CI's `audit --rerun`,
#   but not in fail_to_pass (the base's source has no such folder). An agent reaches DONE, and the commit hooks
#   accept it, with the base's tests failing on the committed code and the requirement's test failing too.
# Correct: a file that makes the test runner load code at start-up (a plugin's entry-point metadata, like
#   sitecustomize.py or a .pth) is protected: PASS_TO_PASS runs without the added dist-info/egg-info folder, the
#   base's tests are lost there, and the gate blocks.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
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

# Control: the honest change reaches DONE (the setup works).
project honest
printf '\ndef sub(a, b):\n    return a - b\n' >> calc.py
finish honest || { echo "setup: the honest change did not reach DONE"; cat "$T/honest.log" > /tmp/r67work/lasthonest.log; exit 2; }

# The agent: no real work (sub wrong, add broken), plus a plugin registered by a dist-info folder.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
mkdir evil-0.dist-info
printf 'Metadata-Version: 2.1\nName: evil\nVersion: 0\n' > evil-0.dist-info/METADATA
printf '[pytest11]\nevil = evil_plugin\n' > evil-0.dist-info/entry_points.txt
cat > evil_plugin.py <<'PY'
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome, rep.longrepr = "passed", None
PY
if finish cheat; then
  echo "committed tree, plugin disabled:"; python -m pytest -q -p no:cacheprovider -p no:evil 2>&1 | tail -4
  grep -E '^harness: (unit_test|pass_to_pass|fail_to_pass) evidence' "$T/cheat.log"
  if harness audit --from HEAD~1 --to HEAD --rerun >"$T/audit.log" 2>&1; then echo "CI's audit --rerun: passes too"; fi
  echo "DEFECT: DONE and committed with the base's tests (and the requirement's test) failing: a pytest11 entry point"
  echo "        in an unprotected evil-0.dist-info/ loaded a plugin in unit_test and pass_to_pass"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
