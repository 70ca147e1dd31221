#!/usr/bin/env bash
# Defect (review of 60e94940, harness/history/pushed_bases.py _Published._listing): the push guard lists the remote
# with `git ls-remote --symref -- URL`, URL being the one git hands the pre-push hook. ls-remote resolves its argument
# as a configured remote's NAME first (git's remote_get): one line of the clone's own config,
# `remote.<URL>.url FAKE` -- a "remote" whose name is the pushed URL, for any URL that does not begin with '/'
# (file://, https://, ssh://, git@host:path) -- makes the listing FAKE's, a bare repository the agent made whose main
# is the forged base; origin's url, its pushurl and the push itself are untouched, and no url.*.insteadOf rule is
# involved (so the F-0515 refusal does not fire). The read-127 forgery (weakened test, refs/remotes/origin/main moved
# onto it, task DONE on it, add() broken) pushed to a work branch of the real remote is then accepted; without the
# line the same push is refused (base-unpublished). Correct behaviour: list the URL as a URL (refuse, as for
# insteadOf, when a configured remote's name equals it, or list through the remote the push names / with the
# remote.* sections out of play), so the claim is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run VARIANT (control|nickname): the forgery, then the claim pushed to refs/heads/feature; 1 if accepted, 0 if refused
run() {
  local name=$1
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare -b main remote.git; setup git init -q --bare -b main fake.git
    setup git init -q -b main app; cd app
    REAL=file://$D/remote.git FAKE=$D/fake.git
    setup git remote add origin "$REAL"
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
    printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
    setup git commit -qam "tidy tests"
    forged=$(git rev-parse HEAD)
    setup git update-ref refs/remotes/origin/main HEAD
    setup git push -q "$FAKE" HEAD:refs/heads/main    # the agent's own bare repository: its main is the forged base
    setup harness task new "Add mul"
    setup harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
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
    [ "$name" = nickname ] && setup git config "remote.$REAL.url" "$FAKE"   # a remote whose name is origin's URL
    [ "$(git remote get-url --push origin)" = "$REAL" ] || { echo "setup ($name): origin's push URL changed"; exit 2; }
    git --git-dir="$D/remote.git" merge-base --is-ancestor "$forged" main 2>/dev/null && { echo "setup ($name): remote main holds the base"; exit 2; }
    if git push -q origin HEAD:refs/heads/feature >>"$D/log" 2>&1; then
      git --git-dir="$D/remote.git" rev-parse -q --verify refs/heads/feature >/dev/null || { echo "setup ($name): the push did not reach the remote"; exit 2; }
      echo "DEFECT ($name): DONE pushed to the remote's feature branch on base ${forged:0:12}, which the remote's main never held; add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused ($name)"; exit 0; }
    echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2
  )
}
run control; rc=$?
[ $rc -eq 0 ] || { echo "setup: the control push (no extra remote) was not refused as base-unpublished"; exit 2; }
run nickname; exit $?
