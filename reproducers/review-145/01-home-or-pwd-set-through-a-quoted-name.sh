#!/usr/bin/env bash
# Defect (review of 0d2d9fba, harness/evidence/shell_paths.py line_runners/_Reading): a `~` or `$PWD` in a PATH the
# shell line assigns is read from the run's environment (HOME, the start folder) unless the line "names" HOME or PWD;
# but the names are collected from the raw text (_IDENTIFIER over `text`), while F-0511's fix strips quotes and
# backslashes only for PATH itself. `export H""OME=$PWD` (or `export H\OME=...`, `export P""WD=$PWD/bin`) sets HOME
# (PWD) in the shell -- export gets `HOME=...` after quote removal -- yet the text holds no word HOME (PWD), so
# `PATH=~/bin:$PATH pytest` is checked on $HOME/bin and the literal `~/bin`, never on the folder bash uses: the
# tree's bin/pytest runs as the suite's runner and reports whatever it likes. Correct behaviour: a variable the line
# may set, spelt through quotes or backslashes, counts as set by the line (names read from the text with quotes and
# backslashes taken out, as for PATH), so each line below is refused (`~` / `$PWD` with a value only the shell
# knows) and bin/pytest never runs. Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
mkdir "$T/app" && cd "$T/app" && setup git init -q -b main
mkdir .harness tests
printf 'def test_ok():\n    assert True\n' > tests/test_ok.py
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: 'pytest -q'
    shell: true
YAML
setup harness init
setup git add -A
setup git commit -qm init
setup harness task new "Anything"
mkdir bin && printf '#!/bin/sh\necho PLANTED-RUNNER-RAN\nexit 0\n' > bin/pytest && chmod +x bin/pytest
# control: the plain spelling is refused, so the harness does check these lines
ctl=$(harness evidence unit_test --shell -- 'export HOME=$PWD; PATH=~/bin:$PATH pytest -q' 2>&1)
grep -q "only the shell can compute" <<<"$ctl" || { echo "setup: the control line was not refused:"; echo "$ctl" | tail -5; exit 2; }
worst=0; refused=0
for line in 'export H""OME=$PWD; PATH=~/bin:$PATH pytest -q' 'export H\OME=$PWD; PATH=~/bin:$PATH pytest -q' \
            'export P""WD=$PWD/bin; PATH=$PWD:$PATH pytest -q'; do
  out=$(harness evidence unit_test --shell -- "$line" 2>&1); code=$?
  if grep -q PLANTED-RUNNER-RAN <<<"$out"; then
    echo "DEFECT: the tree's bin/pytest ran as the suite's runner (exit $code): $line"; worst=1
  elif [ $code -eq 1 ] && grep -q "not running unit_test" <<<"$out"; then
    echo "refused (fixed): $line"; refused=$((refused + 1))
  else
    echo "unexpected outcome (exit $code) for: $line"; echo "$out" | tail -5; [ $worst -eq 0 ] && worst=2
  fi
done
exit $worst
