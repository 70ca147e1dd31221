#!/usr/bin/env bash
# Defect: F-0335's shadowing check of a command run through a shell (harness/evidence/record.py _shell_words, via
#   harness/core/shell_syntax.py plain_head) takes only the text before the first operator. A shell line that starts
#   with a redirection (`</dev/null python3 -m unittest -q`) or a subshell (`(python3 -m unittest -q)`) has an
#   operator as its first character, so plain_head returns "" and nothing is checked: the tree's own committed
#   `unittest/` package becomes the test runner and the run is recorded as a pass. docs/threat-model.md promises
#   that through a shell "the first simple command's words are checked when written as plain words — its program
#   and its `python -m` module"; the not-checked list names expansions/globs/substitutions, commands after `;`,
#   `&&` or a pipe, and scripts/functions — not a leading redirection or a parenthesised first command.
# Correct: `harness evidence unit_test --shell -- '</dev/null python3 -m unittest -q'` (and the `( … )` form) is
#   refused before anything is recorded, naming unittest/__init__.py, as `--shell -- 'python3 -m unittest -q'` is.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
# The tree supplies its own "unittest": a runner that passes whatever the tests say.
mkdir unittest && printf 'print("OK (fake runner from the tree)")\n' > unittest/__main__.py && : > unittest/__init__.py
printf 'def test_x():\n    assert False\n' > test_x.py
git add -A && git commit -qm "fake runner" >/dev/null 2>&1 || exit 2

# Control: the plain form is refused.
out=$(harness evidence unit_test --shell -- 'python3 -m unittest -q' 2>&1); rc=$?
echo "control 'python3 -m unittest -q': exit $rc: $(echo "$out" | head -1)"
[ $rc -ne 0 ] && echo "$out" | grep -q 'unittest/__init__' || { echo "setup: control not refused"; exit 2; }

bad=0
for line in '</dev/null python3 -m unittest -q' '(python3 -m unittest -q)'; do
  out=$(harness evidence unit_test --shell -- "$line" 2>&1); rc=$?
  echo "'$line': exit $rc: $(echo "$out" | grep -E 'recorded|not running|refus' | head -1)"
  if [ $rc -eq 0 ] && echo "$out" | grep -q 'recorded: passed'; then bad=1; fi
done
harness status 2>&1 | grep -i 'unit_test' | head -2
if [ $bad = 1 ]; then
  echo "DEFECT: a shell line whose first command is the tree's own unittest runner was run and recorded as a pass"
  exit 1
fi
echo "OK: both forms refused"; exit 0
