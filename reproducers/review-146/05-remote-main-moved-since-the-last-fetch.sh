#!/usr/bin/env bash
# Defect (review of 60e94940, harness/history/pushed_bases.py _Published.refusal): when the remote's protected branch
# has moved since this clone last fetched (a teammate merged anything), `git ls-remote` gives a tip this clone lacks,
# and the guard refuses every claim in the push, saying the remote's main "does not hold" the base -- it does: the
# base is an older commit of that very main. Every feature-branch push after someone else's merge is refused until a
# `git fetch`. Correct behaviour: the guard gets what it needs to look (e.g. fetches the listed tip's history into no
# ref: `git fetch --no-write-fetch-head -q URL <branch>`; objects only, nothing the agent chose) and accepts the push;
# at the least it does not claim the remote lacks the base when it could not look.
# How common: very -- any team where main moves while a branch is being worked on; the remedy is one command.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
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
grep -q '^ *suite:' .harness/gate.yaml || { echo "setup: gate.yaml has no suite section"; exit 2; }
cd "$D"; setup git clone -q upstream.git app; cd app; setup harness install
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
base=$(git rev-parse origin/main)
# a teammate merges something into main meanwhile
setup git clone -q "$D/upstream.git" "$D/mate"
(cd "$D/mate" && echo "# docs" > README.md && git add -A && git commit -qm docs && git push -q origin main) >>"$D/log" 2>&1 || { echo "setup failed: teammate"; exit 2; }
git --git-dir="$D/upstream.git" merge-base --is-ancestor "$base" main || { echo "setup: remote main lacks the base"; exit 2; }
if git push -q origin feature >"$D/push" 2>&1; then echo "accepted: the base ${base:0:12} is in the remote's main"; exit 0; fi
grep -q base-unpublished "$D/push" || { echo "setup: push refused for another reason"; tail -5 "$D/push"; exit 2; }
echo "DEFECT: an honest DONE on ${base:0:12}, an ancestor of the remote's main, is refused because main moved since the last fetch:"
grep -o "which the remote's [^:]*does not hold" "$D/push" | head -1
exit 1
