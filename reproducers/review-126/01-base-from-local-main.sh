#!/usr/bin/env bash
# Defect: harness/gitio/revisions.py Git.protected_tips() — with no `suite.base` in gate.yaml, the protected
# branch's tips are refs/remotes/origin/HEAD, then the LOCAL refs/heads/main / master. A repository wired the
# usual way (`git remote add origin URL; git push origin main`, as demo/run does) has refs/remotes/origin/main
# but no refs/remotes/origin/HEAD, so the task's base is the merge base with local `main` — a ref the agent
# moves with a plain commit. An agent commits a weakened test on local main (a code-only commit: no hook
# objects), opens a task (its base is the weakened commit), breaks the code the test checked, and
# PASS_TO_PASS, FAIL_TO_PASS, `gate --advance`, DONE, the commit hook, the push guard and `harness audit` all
# accept it. Only `audit --rerun` with a range refuses it later.
# Correct behaviour: the base is measured from the published line (origin/main, the remote's branch of the
# name, before any local ref), so test_add as origin/main has it runs on the new code, is lost, and the
# gate refuses DONE.
# Exit 1 while the defect is present (DONE reached and pushed with add() broken), 0 when fixed, 2 on setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
cd "$T" && setup git init -q --bare remote.git && setup git init -q -b main app && cd app
setup git remote add origin ../remote.git
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
setup harness init
setup harness install
setup git add -A
setup git commit -qm init
setup git push -q origin main
git rev-parse -q --verify refs/remotes/origin/main >/dev/null || { echo "setup: no origin/main"; exit 2; }
# The weakening, committed on local main with no task open (code-only: accepted).
printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
setup git commit -qam "tidy tests"
setup harness task new "Add mul"
setup harness requirement add "mul(a, b) returns a * b" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
printf 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py   # add() broken
printf 'from calc import mul\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
setup harness transition VERIFYING
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p (base recorded: $(grep -o '"base_commit":"[0-9a-f]*' .harness/tasks/*/events.jsonl | cut -c16-27); origin/main: $(git rev-parse --short=12 origin/main~0 2>/dev/null))"
if [ "$p2p" -ne 0 ]; then echo "FIXED: pass_to_pass refused the broken add() (test_add lost against origin/main)"; exit 0; fi
setup harness evidence fail_to_pass
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "mul" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v; the task's base was the agent's own weakening commit on local main, not origin/main"; exit 1; fi
echo "setup: add() not broken"; exit 2
