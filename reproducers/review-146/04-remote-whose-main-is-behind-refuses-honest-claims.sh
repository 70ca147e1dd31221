#!/usr/bin/env bash
# Defect (review of 60e94940, harness/history/pushed_bases.py _Published.refusal): honest pushes to a remote whose
# protected branch is BEHIND the line the task started from are refused, and the refusal's advice does not help.
#  (fork)   the common contributor layout: origin = the project (the task's base is origin/main's tip), `fork` = the
#           contributor's GitHub fork, whose main is as old as the day it was forked (forks are rarely synced). The
#           feature branch, with an honestly DONE task, pushed to the fork for a pull request: refused.
#  (mirror) `git push --mirror backup` to a backup mirror refreshed now and then: refused for every task done since
#           the last refresh (and the mirror can never catch up: its main's old tip is what is judged).
# The refusal says "git fetch, then push again"; the script does so and the push is still refused. The base is on
# the project's published line (origin's main, which the same guard accepts when the claim goes there).
# Correct behaviour: the honest push goes through (e.g. the base may be held to the protected branch of the remote
# the task's base came from, or the pushed remote's protected branch after this push when the push fast-forwards
# it), or at least the refusal names what works (bring the remote's main up to the base first).
# How common: fork -- common for outside contributors who keep origin = upstream (hub's, many projects' guides);
# mirror pushes from a working clone -- rare.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run VARIANT (fork|mirror): an honest task DONE on origin/main, pushed to the second remote; 1 if refused
run() {
  local name=$1
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare -b main upstream.git; setup git init -q -b main seed; cd seed
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
    setup harness init; setup git add -A; setup git commit -qm init; setup git push -q "$D/upstream.git" main
    grep -q '^ *suite:' .harness/gate.yaml || { echo "setup ($name): gate.yaml has no suite section"; exit 2; }
    cd "$D"
    if [ "$name" = fork ]; then setup git clone -q --bare upstream.git second.git    # forked now
    else setup git clone -q --mirror upstream.git second.git; fi                     # mirrored now
    # the project moves on (a teammate's merge); the fork / mirror does not
    setup git clone -q upstream.git mate; (cd mate && echo "# docs" > README.md && git add -A && git commit -qm docs && git push -q origin main) >>"$D/log" 2>&1
    setup git clone -q upstream.git app; cd app
    setup harness install; setup git remote add second "$D/second.git"; setup git fetch -q second
    setup git checkout -q -b feature
    setup harness task new "Add mul"
    setup harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
    printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py
    printf 'from calc import mul\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
    setup harness transition VERIFYING
    setup harness evidence unit_test
    setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
    setup harness evidence pass_to_pass
    setup harness evidence fail_to_pass
    setup harness transition REVIEWING; setup harness transition GATING
    setup harness gate --advance; setup harness transition DONE
    setup git add -A; setup git commit -qm mul
    if [ "$name" = fork ]; then push=(git push -q second feature); else push=(git push -q --mirror second); fi
    if "${push[@]}" >>"$D/log" 2>&1; then echo "accepted ($name)"; exit 0; fi
    grep -q base-unpublished "$D/log" || { echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2; }
    setup git fetch -q --all                     # what the refusal advises
    if "${push[@]}" >>"$D/log" 2>&1; then echo "accepted after git fetch ($name)"; exit 0; fi
    if grep -q base-unpublished "$D/log" && setup git push -q origin feature; then
      echo "DEFECT ($name): an honest DONE on origin/main's tip is refused (base-unpublished) when pushed to the $name remote, even after the advised git fetch; the same branch pushed to origin is accepted"
      exit 1
    fi
    echo "setup ($name): unexpected outcome"; tail -5 "$D/log"; exit 2
  )
}
status=0
for v in fork mirror; do run "$v"; rc=$?; [ $rc -eq 2 ] && exit 2; [ $rc -eq 1 ] && status=1; done
exit $status
