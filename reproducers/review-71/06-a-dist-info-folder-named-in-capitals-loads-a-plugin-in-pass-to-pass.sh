#!/usr/bin/env bash
# Defect: F-0226's fix protects package metadata by the patterns `**/*.dist-info/**` and `**/*.egg-info/**`
#   (harness/core/suite.py ALWAYS), matched case-sensitively (suite._glob() -> re.fullmatch, no IGNORECASE). The
#   interpreter finds metadata case-insensitively: importlib.metadata's Lookup lowercases every name on the import path
#   (`child.lower().endswith((".dist-info", ".egg-info"))`). So a root `evil-0.DIST-INFO/entry_points.txt` declaring
#   `[pytest11] evil = evil_plugin` is not protected, stays in PASS_TO_PASS's worktree (the tree is first on the import
#   path there), and pytest auto-loads a plugin that turns every failure into a pass. The task reaches DONE and is
#   committed with the base's tests and the requirement's test failing; CI's `harness audit --rerun` passes too.
#   (review-67's own reproducer 01, the folder's name in capitals.)
# Correct: metadata folders are matched as the interpreter matches them (case-insensitively: `*.dist-info`,
#   `*.egg-info` in any case), so the added folder is removed in PASS_TO_PASS's worktree and the gate blocks.
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
finish honest || { echo "setup: the honest change did not reach DONE"; cat "$T/honest.log" > /dev/null; exit 2; }

# The agent: no real work (sub wrong, add broken), plus a plugin registered by a dist-info folder.
project cheat
printf 'def add(a, b):\n    return a * b\n\ndef sub(a, b):\n    return 0\n' > calc.py
mkdir evil-0.DIST-INFO
printf 'Metadata-Version: 2.1\nName: evil\nVersion: 0\n' > evil-0.DIST-INFO/METADATA
printf '[pytest11]\nevil = evil_plugin\n' > evil-0.DIST-INFO/entry_points.txt
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
  echo "        in an unprotected evil-0.DIST-INFO/ loaded a plugin in unit_test and pass_to_pass"
  exit 1
fi
echo "OK: the change did not reach DONE:"; grep -E 'rc=|lost|LOST' "$T/cheat.log" | head -12
exit 0
