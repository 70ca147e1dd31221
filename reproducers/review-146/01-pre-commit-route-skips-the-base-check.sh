#!/usr/bin/env bash
# Defect (review of 60e94940, harness/history/pushed_notes.py pushed_lines as used by harness/history/pushed_bases.py
# pre_push_problems): under the pre-commit framework's pre-push hook (`pre-commit install --hook-type pre-push`, the
# documented harness-push-guard hook) the base check reads the pushed ref from PRE_COMMIT_* variables alone, and
#  (1) when the framework passes no range (PRE_COMMIT_TO_REF unset: the pushed history reaches a root commit that no
#      `refs/remotes/<remote name>/*` ref holds -- e.g. a push by URL, `git push <url> HEAD:feature`, whose "remote
#      name" is the URL), pushed_lines returns no line at all: no claim is judged, though push_commits audits the
#      commits from PRE_COMMIT_LOCAL_BRANCH in that very case;
#  (2) PRE_COMMIT_FROM_REF is taken as the remote's old tip of the pushed ref. For a new remote ref the framework
#      computes it from this clone's refs/remotes/<remote>/* (the parent of the first pushed commit no such ref
#      holds), which the agent writes: `git update-ref refs/remotes/origin/scratch HEAD` on the DONE commit plus one
#      empty commit makes FROM_REF the DONE commit, whose ledger _new_claims then deems "the remote's": skipped.
# Either way the read-127 forgery (weakened test, origin/main moved onto it, task DONE on it, add() broken) lands on
# the real remote's feature branch. Control: the same push through `origin` with nothing else done is refused.
# Correct behaviour: with the framework's variables, the base check judges every claim at the pushed tip
# (PRE_COMMIT_LOCAL_BRANCH / TO_REF) against what the remote really holds (the old tip from `git ls-remote`, never a
# FROM_REF computed from local refs), so both pushes are refused with base-unpublished.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
command -v pre-commit >/dev/null || { echo "setup failed: no pre-commit in $here/.venv"; exit 2; }
# run VARIANT (control|url|scratch): the forgery, the framework's pre-push hook, then the claim pushed to
# refs/heads/feature; 1 if accepted, 0 if refused as base-unpublished, 2 on setup failure
run() {
  local name=$1
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare -b main remote.git; setup git init -q -b main app; cd app
    REAL=$D/remote.git
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
    # the framework's hook, as docs/git.md's harness-push-guard defines it (entry `harness hook push-guard`)
    cat > .pre-commit-config.yaml <<'YAML'
repos:
  - repo: local
    hooks:
      - id: harness-push-guard
        name: harness push guard
        entry: harness hook push-guard
        language: system
        pass_filenames: false
        always_run: true
        verbose: true
        stages: [pre-push]
YAML
    setup harness init; setup git add -A; setup git commit -qm init
    setup git push -q origin main; setup git remote set-head origin main
    setup pre-commit install --hook-type pre-push
    grep -q '^ *suite:' .harness/gate.yaml || { echo "setup ($name): gate.yaml has no suite section"; exit 2; }
    printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py
    setup git commit -qam "tidy tests"
    forged=$(git rev-parse HEAD)
    setup git update-ref refs/remotes/origin/main HEAD
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
    git --git-dir="$REAL" merge-base --is-ancestor "$forged" main 2>/dev/null && { echo "setup ($name): remote main holds the base"; exit 2; }
    case $name in
      control) target=origin ;;
      url) target=$REAL ;;                                                   # a push by URL: no range passed
      scratch) setup git update-ref refs/remotes/origin/scratch HEAD         # a local ref on the DONE commit
               setup git commit -q --allow-empty -m "nothing"; target=origin ;;
    esac
    if git push "$target" HEAD:refs/heads/feature >>"$D/log" 2>&1; then
      git --git-dir="$REAL" rev-parse -q --verify refs/heads/feature >/dev/null || { echo "setup ($name): the push did not reach the remote"; exit 2; }
      echo "DEFECT ($name): DONE pushed through the pre-commit framework's hook on base ${forged:0:12}, which the remote's main never held; add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused ($name)"; exit 0; }
    echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2
  )
}
run control; rc=$?
[ $rc -eq 0 ] || { echo "setup: the control push was not refused as base-unpublished"; exit 2; }
status=0
for v in url scratch; do run "$v"; rc=$?; [ $rc -eq 2 ] && exit 2; [ $rc -eq 1 ] && status=1; done
exit $status
