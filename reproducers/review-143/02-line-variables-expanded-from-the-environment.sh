#!/usr/bin/env bash
# Defect (review of f69ad923, harness/evidence/shell_paths.py expanded, and record.py _shell_words): a `$NAME`
# in a PATH the line assigns is expanded from the run's environment, not from what the line itself has set by
# then. `true; D=bin; PATH=$D:$PATH pytest` is checked as PATH=":$PATH" (D unset), while the shell looks in
# bin/ and runs the bin/pytest the change adds. The reverse slip happens too: _shell_words writes the first
# command's prefix assignments into the environment used for the later expansions, though a prefix lasts for
# that command only, so `D=x true; PATH=$PWD/bin$D:$PATH pytest` is checked on "$PWD/binx" and the shell's
# "$PWD/bin" is never looked at. Correct behaviour: a PATH that uses a variable the line sets (or whose value at
# that point the check does not know) is expanded with the line's own value or refused; a prefix assignment
# does not outlive its command. Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
mkdir "$T/app" && cd "$T/app" && setup git init -q -b main
mkdir .harness tests
printf 'def test_ok():\n    assert True\n' > tests/test_ok.py
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: 'pytest -q -p no:cacheprovider tests'
    shell: true
YAML
setup harness init
setup git add -A
setup git commit -qm init
setup harness task new "Anything"
# plant FILE: the change adds an executable `pytest` that reports success without running anything
plant() { mkdir -p "$(dirname "$1")" && printf '#!/bin/sh\necho PLANTED-RUNNER-RAN\nexit 0\n' > "$1" && chmod +x "$1"; }
# try LINE...: each line through `harness evidence unit_test --shell --`; exit 1 if a planted runner ran,
# 0 if every line was refused before running, 2 otherwise
try() {
  local bad=0 line out code
  for line in "$@"; do
    out=$(harness evidence unit_test --shell -- "$line" 2>&1); code=$?
    if grep -q PLANTED-RUNNER-RAN <<<"$out"; then
      echo "DEFECT: the tree's runner ran through: $line"; bad=1
    elif [ $code -eq 1 ] && grep -q "not running unit_test" <<<"$out"; then
      echo "refused (fixed): $line"
    else
      echo "unexpected outcome (exit $code) for: $line"; echo "$out" | tail -5; [ $bad -eq 1 ] || bad=2
    fi
  done
  exit $bad
}
plant bin/pytest
try 'true; D=bin; PATH=$D:$PATH pytest -q' \
    'true; D=$PWD/bin; export PATH="$D:$PATH"; pytest -q' \
    'D=x true; PATH=$PWD/bin$D:$PATH pytest -q'
