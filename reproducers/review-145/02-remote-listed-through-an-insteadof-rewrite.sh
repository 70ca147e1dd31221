#!/usr/bin/env bash
# Defect (review of 0d2d9fba, harness/history/pushed_bases.py _Published._listing): the push guard reads the remote's
# protected branch with `git ls-remote --symref -- URL`, URL being what git hands the pre-push hook: the push URL,
# already rewritten. ls-remote rewrites it again through the clone's `url.<base>.insteadOf` (git applies
# pushInsteadOf, not insteadOf, to a push URL, and a URL once). So two lines of the clone's own config -- which the
# agent guard lets through, being no `ext::` command -- `url.FAKE.insteadOf REAL` and `url.REAL.pushInsteadOf REAL`
# leave origin's url as it is and the push going to REAL, while the guard lists FAKE: a bare repository the agent
# made, whose main holds the forged base. The read-127 forgery (weakened test, refs/remotes/origin/main moved onto it,
# task DONE on it) pushed to a work branch is then accepted; without the two lines the same push is refused
# (base-unpublished). Correct behaviour: list the remote the push goes to (the remote by name, or the URL with no
# rewrite applied again, e.g. `git -c url...` neutralised / ls-remote of the remote name), so the claim is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run VARIANT (control|rewrite): the forgery, then the claim pushed to refs/heads/feature; 1 if accepted, 0 if refused
run() {
  local name=$1
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare remote.git; setup git init -q --bare fake.git; setup git init -q -b main app; cd app
    REAL=$D/remote.git FAKE=$D/fake.git
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
    published=$(git rev-parse HEAD)
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
    if [ "$name" = rewrite ]; then
      setup git config "url.$FAKE.insteadOf" "$REAL"
      setup git config "url.$REAL.pushInsteadOf" "$REAL"
    fi
    git --git-dir="$REAL" merge-base --is-ancestor "$forged" main 2>/dev/null && { echo "setup ($name): remote main holds the base"; exit 2; }
    if git push -q origin HEAD:refs/heads/feature >>"$D/log" 2>&1; then
      git --git-dir="$REAL" rev-parse -q --verify refs/heads/feature >/dev/null || { echo "setup ($name): the push did not reach the remote"; exit 2; }
      echo "DEFECT ($name): DONE pushed to the remote's feature branch on base ${forged:0:12}, which the remote's main (${published:0:12}) never held; add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused ($name)"; exit 0; }
    echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2
  )
}
run control; rc=$?
[ $rc -eq 0 ] || { echo "setup: the control push (no rewrite) was not refused as base-unpublished"; exit 2; }
run rewrite; exit $?
