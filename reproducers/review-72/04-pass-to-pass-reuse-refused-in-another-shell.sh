#!/usr/bin/env bash
# Defect: `harness evidence pass_to_pass`, reusing the test command's run (no protected file changed), copies that
#   run's record (stdout tail, argv) into its own record; when the run was recorded in a shell with a secret-named
#   variable the tests print (`db_password`, marker `[REDACTED:env:db_password]`) and PASS_TO_PASS runs in a shell
#   without it, under a project pattern matching the variable's name (`db_[a-z]+`), the write is refused as "a harness bug":
#   harness/store/tasks.py _no_secret_in() checks the copy with the writer's redactor (this shell's variables,
#   not `stored`), which reads the other shell's marker as the project's value
#   (harness/evidence/pass_to_pass.py _reuse). The record it copies is bound by the ledger and was accepted.
#   (Not new today: 9cdd9d6 refuses alike.)
# Correct: the reused run's record is written (its markers are the harness's, bound by the ledger's digest), as
#   it is in the recording shell.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset db_password PYTHONPATH PYTEST_ADDOPTS PYTEST_PLUGINS NODE_OPTIONS PYTHONPYCACHEPREFIX
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
cat > tests/test_calc.py <<'PY'
import os
from calc import add

def test_add():
    print("connecting with", os.environ.get("db_password", "no password"))
    assert add(2, 3) == 5
PY
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python", "-c", "import calc"]
  unit_test:
    command: ["python", "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
redaction:
  patterns: ['db_[a-z]+']
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm adopt \
  && harness task new "Tweak add" && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && printf '# tweaked\n' >> calc.py \
  && db_password=/run/secrets/dbpw harness evidence unit_test ) >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
grep -q 'REDACTED:env:db_password' .harness/tasks/*/evidence/unit_test.json || { echo "setup: no marker in the record"; exit 2; }
# Control: in the recording shell, PASS_TO_PASS reuses the run and writes its record.
cp -a "$R" "$T/ctl" && ( cd "$T/ctl" && db_password=/run/secrets/dbpw harness evidence pass_to_pass ) >"$T/ctl.out" 2>&1 \
  || { echo "setup: PASS_TO_PASS fails even in the recording shell:"; cat "$T/ctl.out"; exit 2; }
grep -q '"reused_run"' "$T"/ctl/.harness/tasks/*/evidence/pass_to_pass.json || { echo "setup: the control did not reuse the run"; exit 2; }
# The same, in a shell without the variable (a new agent session).
if out=$(harness evidence pass_to_pass 2>&1); then
  grep -q '"reused_run": "[0-9a-f]' .harness/tasks/*/evidence/pass_to_pass.json && { echo "OK: the run was reused and recorded"; exit 0; }
  echo "OK: recorded"; exit 0
fi
if grep -q "refusing to write .*pass_to_pass.json.*holds a secret" <<<"$out"; then
  echo "DEFECT: PASS_TO_PASS refuses to write the record it copies from a run recorded in another shell:"
  grep "refusing to write" <<<"$out"
  exit 1
fi
echo "setup: failed for another reason:"; echo "$out"; exit 2
