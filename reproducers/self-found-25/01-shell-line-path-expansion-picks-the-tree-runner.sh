#!/usr/bin/env bash
# Defect (found by the maintainer from read 140's suggestion, named a limit in docs/threat-model.md): through a
# shell (`shell: true`), the runner check reads only the first simple command's plain words. A PATH the line
# sets with an expansion (`PATH="$PWD/bin:$PATH" pytest`), or a runner started by a later command of the line
# (`export PATH=bin:$PATH; pytest`), is never looked up; so a bin/pytest the change adds is the suite's runner
# and can report anything. Correct behaviour: every command the line runs is looked up on every PATH the line
# assigns, its $PWD/$PATH/${NAME}/~ expanded, and a tree file found so is refused; a PATH only the shell can
# compute ($(pwd), ${X:-y}) is refused, not guessed. Exit 1 while the defect is present, 0 when fixed, 2 on a
# setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
mkdir "$T/app" && cd "$T/app" && setup git init -q -b main
mkdir .harness tests
printf 'def test_ok():\n    assert True\n' > tests/test_ok.py
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: 'PATH="$PWD/bin:$PATH" pytest -q -p no:cacheprovider tests'
    shell: true
YAML
setup harness init
setup git add -A
setup git commit -qm init
setup harness task new "Anything"
mkdir bin && printf '#!/bin/sh\necho PLANTED-RUNNER-RAN\nexit 0\n' > bin/pytest && chmod +x bin/pytest
out=$(harness evidence unit_test 2>&1); code=$?
for line in 'PATH="$PWD/bin:$PATH" pytest -q' 'export PATH=bin:$PATH; pytest -q'; do
  out="$out
$(harness evidence unit_test --shell -- "$line" 2>&1)"
done
if grep -q PLANTED-RUNNER-RAN <<<"$out"; then
  echo "DEFECT: the tree's bin/pytest ran as the suite's runner through a PATH the shell line sets:"
  grep -n "PLANTED\|recorded" <<<"$out" | head -5
  exit 1
fi
if grep -q "is found on PATH at bin/pytest, a file of the source tree" <<<"$out" && [ $code -eq 1 ]; then
  echo "fixed: refused, naming bin/pytest"; exit 0
fi
echo "unexpected outcome (exit $code):"; echo "$out" | tail -20; exit 2
