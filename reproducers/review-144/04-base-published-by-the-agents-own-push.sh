#!/usr/bin/env bash
# Defect (review of 75ea232c, harness/history/pushed_bases.py _Published.refusal): the push guard holds a task the
# push brings to DONE to a base that "the remote's history" holds: an ancestor of the remote tips git gives the
# pre-push hook, else of ANY ref `git ls-remote` lists. The agent writes those refs itself. After forging the base
# as read 127's F-0454 does (a weakened test committed, refs/remotes/origin/main moved onto it, a task opened on
# it, add() broken, DONE), one earlier push of that commit to a ref of its own choosing -- a scratch branch, a tag,
# or simply its work branch pushed while the task was still IMPLEMENTING (a push with no claim is not judged) --
# makes the forged base "published": the later push of the DONE claim to main is accepted. The remote's main never
# held the base. Correct behaviour: the base is held to the protected line the remote publishes (the remote's
# main/HEAD, the branch the suite's base names), not to any ref the pushing clone may have created; the claim
# push is refused (rule base-unpublished). Each variant below pushes the forged base one way, then the claim.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run VARIANT PUSH-ARGS...: the read-127 forgery, with `git push origin PUSH-ARGS` of the forged base before the
# claim; prints the outcome and returns 1 if the claim push to main was accepted, 0 if refused, 2 on setup failure
run() {
  local name=$1; shift
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare remote.git; setup git init -q -b main app; cd app
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
    setup harness init; setup harness install; setup git add -A; setup git commit -qm init
    setup git push -q origin main; setup git remote set-head origin main
    grep -q '^ *suite:' .harness/gate.yaml || { echo "setup ($name): gate.yaml has no suite section"; exit 2; }
    published=$(git rev-parse HEAD)
    # the weakening (code-only, accepted) and the forgery of the published line
    printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
    setup git commit -qam "tidy tests"
    forged=$(git rev-parse HEAD)
    setup git update-ref refs/remotes/origin/main HEAD
    setup harness task new "Add mul"
    setup harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
    if [ "$1" = WIP ]; then  # the work branch pushed while the task is IMPLEMENTING: no claim, nothing judged
      setup git add -A; setup git commit -qm wip; setup git push -q origin HEAD:refs/heads/wip
    else
      setup git push -q origin "$@"
    fi
    printf 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py   # add() broken
    printf 'from calc import mul\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
    setup harness transition VERIFYING
    setup harness evidence unit_test
    setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
    setup harness evidence pass_to_pass
    setup harness evidence fail_to_pass
    setup harness transition REVIEWING; setup harness transition GATING
    setup harness gate --advance; setup harness transition DONE
    setup git add -A; setup git commit -qm mul
    git --git-dir=../remote.git merge-base --is-ancestor "$forged" main 2>/dev/null && { echo "setup ($name): remote main holds the base"; exit 2; }
    if git push -q origin main >>"$D/log" 2>&1; then
      echo "DEFECT ($name): DONE pushed to main on base ${forged:0:12}, which the remote's main (${published:0:12}) never held; add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused (fixed) ($name)"; exit 0; }
    echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2
  )
}
worst=0
for v in "scratch HEAD:refs/heads/scratch" "tag HEAD:refs/tags/v0-scratch" "wip WIP"; do
  set -- $v; run "$@"; rc=$?
  [ $rc -eq 1 ] && worst=1
  [ $rc -eq 2 ] && [ $worst -eq 0 ] && worst=2
done
exit $worst
