#!/usr/bin/env bash
# Defect (review of 75ea232c..b5de155f, harness/history/pushed_bases.py _Published._listing): the protected
# branch's tip is read with `git ls-remote --symref -- URL` run under this clone's config, which the agent writes.
# git reads `remote.<URL>.uploadpack` for a URL it is given as well as for a remote's name (ls-remote resolves its
# argument as a remote first; with no `remote.<URL>.url` it takes the name as the URL and keeps the other keys), so
# `git config remote.../remote.git.uploadpack ./fake-upload-pack` makes the listing -- and only the listing: the push
# runs git-receive-pack -- serve another repository. The F-0517 check refuses a `remote.<URL>.url` alone, the
# F-0515 check `url.*.insteadOf` alone. Variant 1: the fake upload-pack serves an empty repository, so "a remote
# with no refs yet" is not judged; variant 2: it serves a repository whose main is the forged base, which then
# "holds" it (the claim pushed to a feature branch, as for a pull request: git tells the hook the old tip of the
# pushed branch alone, so main's tip comes from the listing). In both the DONE claim on the forged base (read 127's F-0454) is pushed to the real main. The same
# holds for `core.sshCommand`/`GIT_SSH_COMMAND` on an ssh remote (a wrapper that sends git-upload-pack elsewhere).
# Correct behaviour: the listing runs with the transport pinned (`--upload-pack=git-upload-pack`, or any
# `remote.<URL>.*` key refused like `.url` is, with the ssh command the push used), so it lists the repository the
# push goes to; the claim push is refused (rule base-unpublished).
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
# run NAME BRANCH FAKE [DEST]: FAKE is what the planted upload-pack serves (empty, forged, or none for the
# control); the claim is pushed to DEST (default BRANCH; a feature branch for a pull request). Returns 1 if accepted.
run() {
  local name=$1 branch=$2 fake=$3 dest=${4:-$2}
  local D="$T/$name"; mkdir -p "$D"
  setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed ($name): $*"; tail -20 "$D/log"; return 2; }; }
  (
    set -e
    cd "$D"; setup git init -q --bare remote.git
    setup git --git-dir=remote.git symbolic-ref HEAD "refs/heads/$branch"
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
    if [ "$fake" != none ]; then
      setup git init -q --bare ../fake.git
      [ "$fake" = forged ] && setup git push -q ../fake.git "$forged:refs/heads/$branch"
      printf '#!/bin/sh\nexec git-upload-pack "%s"\n' "$D/fake.git" > ../fake-upload-pack; chmod +x ../fake-upload-pack
      setup git config "remote.../remote.git.uploadpack" "$D/fake-upload-pack"
    fi
    git --git-dir=../remote.git merge-base --is-ancestor "$forged" "$branch" 2>/dev/null && { echo "setup ($name): remote $branch holds the base"; exit 2; }
    if git push -q origin "HEAD:refs/heads/$dest" >>"$D/log" 2>&1; then
      echo "DEFECT ($name): DONE pushed to $dest on base ${forged:0:12}, which the remote's $branch (${published:0:12}) never held; add(2, 3) == $(python -c 'import calc; print(calc.add(2, 3))')"
      exit 1
    fi
    grep -q base-unpublished "$D/log" && { echo "refused (fixed) ($name)"; exit 0; }
    echo "setup ($name): push refused for another reason"; tail -5 "$D/log"; exit 2
  )
}
# control: the same forgery without the planted upload-pack is refused (else the check is not there at all)
run control main none >/dev/null; [ $? -eq 0 ] || { echo "setup failed: the control claim push was not refused"; exit 2; }
worst=0
for v in "fake-empty main empty" "fake-forged main forged mul"; do
  set -- $v; run "$@"; rc=$?
  [ $rc -eq 1 ] && worst=1
  [ $rc -eq 2 ] && [ $worst -eq 0 ] && worst=2
done
exit $worst
