#!/usr/bin/env bash
# Defect (review of 0d2d9fba, harness/history/pushed_bases.py _Published.refusal): with no `suite.base` (the
# default gate.yaml sets none) the protected branch is "the branch the remote's HEAD symref names, else main, else
# master", the first of those the remote lists. A bare repository made by plain `git init --bare` (git's default
# initial branch is master) that the team pushes `main` to has a HEAD naming refs/heads/master, a branch that does
# not exist: `git ls-remote --symref` prints no HEAD line then. The agent, which may push branches of its own (a
# push with no new claim is not judged), pushes its forged base (read 127's F-0454: a weakened test committed,
# refs/remotes/origin/main moved onto it) to refs/heads/master. From then on the remote's HEAD resolves, ls-remote
# names master as the default, and the claim push to main is held to master -- the agent's own branch -- and
# accepted, though the remote's main never held the base. Variant 2: the team's branch is `trunk` (HEAD left at
# the unborn master): none of HEAD's branch, main or master is on the remote, so no claim is judged at all, the
# forged base goes to trunk with a DONE claim. Correct behaviour: a branch the agent can create is never the
# published line; a HEAD that names a branch the pushed refs or the remote did not already hold as its protected
# line is not trusted (and when the protected branch cannot be told, the claim is refused with the reason, or
# suite.base is required): the claim push is refused (rule base-unpublished).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run NAME BRANCH PRE: the team's branch is BRANCH on a `git init --bare` remote (HEAD -> unborn master); PRE is a
# refspec the agent pushes before the claim ("" for none). Returns 1 if the claim push to BRANCH was accepted.
run() {
  local name=$1 branch=$2 pre=$3
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare remote.git
    [ "$(git --git-dir=remote.git symbolic-ref HEAD)" = refs/heads/master ] || setup git --git-dir=remote.git symbolic-ref HEAD refs/heads/master
    setup git init -q -b "$branch" app; cd app
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
    setup git push -q origin "$branch"; setup git remote set-head origin "$branch"
    grep -q '^ *suite:' .harness/gate.yaml || { echo "setup ($name): gate.yaml has no suite section"; exit 2; }
    published=$(git rev-parse HEAD)
    # the weakening (code-only, accepted) and the forgery of the published line
    printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
    setup git commit -qam "tidy tests"
    forged=$(git rev-parse HEAD)
    setup git update-ref "refs/remotes/origin/$branch" HEAD
    setup harness task new "Add mul"
    setup harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
    [ -n "$pre" ] && setup git push -q origin "$pre"   # no claim in it: not judged
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
    git --git-dir=../remote.git merge-base --is-ancestor "$forged" "$branch" 2>/dev/null && { echo "setup ($name): remote $branch holds the base"; exit 2; }
    if git push -q origin "$branch" >>"$D/log" 2>&1; then
      echo "DEFECT ($name): DONE pushed to $branch on base ${forged:0:12}, which the remote's $branch (${published:0:12}) never held; add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused (fixed) ($name)"; exit 0; }
    echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2
  )
}
# control: the same forgery without the agent's master branch is refused (else the check is not there at all)
run control main "" >/dev/null; [ $? -eq 0 ] || { echo "setup failed: the control claim push (no master pushed) was not refused"; exit 2; }
worst=0
for v in "master-created main HEAD:refs/heads/master" "trunk trunk -"; do
  set -- $v; [ "$3" = - ] && set -- "$1" "$2" ""
  run "$@"; rc=$?
  [ $rc -eq 1 ] && worst=1
  [ $rc -eq 2 ] && [ $worst -eq 0 ] && worst=2
done
exit $worst
