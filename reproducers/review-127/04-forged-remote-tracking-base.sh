#!/usr/bin/env bash
# Defect: harness/gitio/revisions.py Git.protected_tips() / protected_base() (the F-0449 fix) take the protected
# branch's tip from this clone's remote-tracking refs (refs/remotes/origin/HEAD, .../main, then any other remote's),
# which are plain local refs the agent writes: `git update-ref refs/remotes/origin/main HEAD` (or `git remote add x
# <a bare repo it pushed to>` + fetch, where origin has no HEAD/main/master) moves "the published line" onto a commit
# of its own. The agent commits a weakened test_add (code-only, accepted), points origin/main at it, opens a task
# (base = that commit), breaks add(); PASS_TO_PASS, FAIL_TO_PASS, gate --advance, DONE, the commit hook, the push
# guard and `harness audit` all accept, though the push guard is told by git the remote's real tip (the pre-push
# stdin's remote sha), of which the recorded base is no ancestor. Only a later `audit --rerun` with a range refuses.
# Correct behaviour: a base that is not in the published history is not trusted locally either: the push guard (and
# the gate/`harness audit` where they can) refuses a DONE task whose recorded base the remote's actual tip does not
# contain (or measures PASS_TO_PASS against that tip), so test_add is lost and the push is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
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
setup git remote set-head origin main   # origin/HEAD set: not read 126's F-0449
git rev-parse -q --verify refs/remotes/origin/HEAD >/dev/null || { echo "setup: no origin/HEAD"; exit 2; }
# The weakening, committed on local main with no task open (code-only: accepted).
printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
setup git commit -qam "tidy tests"
published=$(git rev-parse HEAD~1)
# The forgery: this clone's copy of the published line is moved onto the weakening (one plumbing command).
setup git update-ref refs/remotes/origin/main HEAD
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
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with add(2, 3) == $v; the task's base was the agent's own weakening commit, which it wrote into refs/remotes/origin/main; the remote's main was ${published:0:12}"; exit 1; fi
echo "setup: add() not broken"; exit 2
