#!/usr/bin/env bash
# Defect: a task's spec link (`harness task spec --design …`) that the harness redacted with the marker of a
#   secret-named variable of the recording shell (`[REDACTED:env:wiki_token]`) is refused by the commit check when the
#   commit is made from a shell without that variable, under a project pattern such as `[a-z]+_[a-z]+`.
#   harness/history/own_words.py secrets_found(): a rendered YAML value is read leniently only when the task's
#   ledger holds the same string, but `task spec` records no ledger event (the spec is kept from task.yaml itself,
#   harness/core/projection.py freeform_of_task), so the harness's own marker is read strictly. A regression of
#   today's 6288707: at 9cdd9d6 task.yaml was read leniently and this commit was accepted.
# Correct: the link the harness wrote is accepted at commit from any shell (as the same marker in a title,
#   statement, contract, finding or evidence is), while a hand-typed marker stays refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset wiki_token
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install \
  && sed -i "s/  patterns: \[\]/  patterns: ['[a-z]+_[a-z]+']/" .harness/config.yaml \
  && grep -q "patterns: \['\[a-z\]+_\[a-z\]+'\]" .harness/config.yaml \
  && echo a > a.txt && git add -A && git commit -qm init && harness task new "Write the design" ) >/dev/null 2>&1 || exit 2
# The recording shell has a secret-named variable whose value the link holds: the harness redacts it.
wiki_token=Zq8wQ7pL1xR4vN2 harness task spec --design "https://wiki.example.com/s/Zq8wQ7pL1xR4vN2/design" >/dev/null 2>&1 || exit 2
TY=$(ls .harness/tasks/*/task.yaml) || exit 2
grep -q 'design: https://wiki.example.com/s/\[REDACTED:env[:a-z_]*\]/design' "$TY" || { echo "setup: no marker in task.yaml"; exit 2; }
git add -A || exit 2
# Control: in the recording shell the same staged change is accepted.
wiki_token=Zq8wQ7pL1xR4vN2 python -m harness hook run pre-commit >/dev/null 2>&1 || { echo "setup: refused even with the variable"; exit 2; }
# Control: a marker typed by hand into a file nothing binds is still refused (the strict reading stands).
printf 'see [REDACTED:env:key_acct_12345678]\n' > .harness/NOTES.txt; git add -A
if python -m harness hook run pre-commit >/dev/null 2>&1; then echo "setup: hand-typed marker accepted (another defect)"; exit 2; fi
git rm -q --cached .harness/NOTES.txt && rm .harness/NOTES.txt
# The commit, from a shell without the variable.
if out=$(git commit -qm "task with its design link" 2>&1); then
  echo "OK: the harness-written spec link was committed"; exit 0
fi
if grep -q "task.yaml:[0-9]* \[secret-in-harness-files\]" <<<"$out"; then
  echo "DEFECT: the commit check refuses the spec link harness task spec wrote (its env marker):"
  grep "secret-in-harness-files" <<<"$out"
  exit 1
fi
echo "setup: commit refused for another reason:"; echo "$out"; exit 2
