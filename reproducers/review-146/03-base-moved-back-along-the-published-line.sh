#!/usr/bin/env bash
# Defect (review of 60e94940, harness/history/pushed_bases.py _Published.refusal): the push guard accepts any base
# that is an ancestor of the remote's protected branch. The forgery read 127's F-0454 describes works just as well
# BACKWARDS: `git update-ref refs/remotes/origin/main <an older commit of main>` before `harness task new` records
# that older commit -- one from before tests/test_calc.py existed -- as the base. PASS_TO_PASS then runs only the
# base's tests (test_calc.py is "added" by the change, so the change may weaken it freely), add() is broken, the
# task reaches DONE, and the push of the claim to a work branch is accepted: the base IS on the published line.
# docs/threat-model.md names "the root, before any test" among the forged bases this row's push guard is listed
# against; only a CI `harness audit --rerun` with a range catches it. Control: the same forgery moving origin/main
# forward (read 127's) is refused.
# Correct behaviour: the push guard holds the base to where the pushed commit leaves the remote's protected branch
# -- a base older than the merge base of the pushed tip with that branch's tip is refused (or PASS_TO_PASS is
# re-measured from that merge base, as audit --rerun does) -- so this push is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run VARIANT (forward|back): where origin/main is moved before `task new`; 1 if the claim push is accepted
run() {
  local name=$1
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare -b main remote.git; setup git init -q -b main app; cd app
    setup git remote add origin "$D/remote.git"
    mkdir tests .harness
    printf 'def add(a, b):\n    return a + b\n' > calc.py
    printf 'def test_truth():\n    assert True\n' > tests/test_other.py
    printf '__pycache__/\n.pytest_cache/\n' > .gitignore
    cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
    setup harness init; setup harness install; setup git add -A; setup git commit -qm init
    old=$(git rev-parse HEAD)
    printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
    setup git add -A; setup git commit -qm "test add"
    setup git push -q origin main; setup git remote set-head origin main
    grep -q '^ *suite:' .harness/gate.yaml || { echo "setup ($name): gate.yaml has no suite section"; exit 2; }
    if [ "$name" = back ]; then
      base=$old                                   # an older commit of the published main, before test_calc.py
    else
      printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
      setup git commit -qam "tidy tests"; base=$(git rev-parse HEAD)   # read 127's forward forgery
    fi
    setup git update-ref refs/remotes/origin/main "$base"
    setup harness task new "Add mul"
    setup harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
    printf 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py   # add() broken
    printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
    printf 'from calc import mul\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
    setup harness transition VERIFYING
    setup harness evidence unit_test
    setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
    setup harness evidence pass_to_pass
    setup harness evidence fail_to_pass
    setup harness transition REVIEWING; setup harness transition GATING
    setup harness gate --advance; setup harness transition DONE
    setup git add -A; setup git commit -qm mul
    setup git fetch -q origin                     # origin/main is the remote's again: nothing local is stale
    recorded=$(grep -ho '"base_commit": *"[0-9a-f]*"' .harness/tasks/*/events.jsonl | head -1 | grep -o '[0-9a-f]\{40\}')
    [ "$recorded" = "$base" ] || { echo "setup ($name): the task's base is ${recorded:-none}, not ${base:0:12}"; exit 2; }
    if git push -q origin HEAD:refs/heads/feature >>"$D/log" 2>&1; then
      echo "DEFECT ($name): DONE pushed on base ${base:0:12} (an older commit of the remote's main, before test_calc.py); the pushed history leaves main at $(git merge-base HEAD origin/main | cut -c1-12); add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused ($name)"; exit 0; }
    echo "refused ($name), not as base-unpublished:"; grep -m3 '\[' "$D/log"; exit 0
  )
}
run forward; rc=$?
[ $rc -eq 0 ] || { echo "setup: the forward forgery (read 127's) was not refused"; exit 2; }
run back; exit $?
