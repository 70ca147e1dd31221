#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The stamps' notes ref is guarded where it is NAMED (`git notes --ref`, GIT_NOTES_REF, update-ref). Not:
# core.notesRef (`git -c core.notesRef=refs/notes/harness notes add …`, or set by `git config`), nor HEAD made
# to point at it (`git symbolic-ref HEAD refs/notes/harness`, or `.git/HEAD` written by hand) and then moved by
# `git reset --soft`. Each is ALLOWED and rewrites the stamps. Exit 1 while the defect exists, 0 when fixed.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
NR=$(git for-each-ref --format='%(refname)' refs/notes | head -1); [ -n "$NR" ] || exit 2
control "git notes --ref=$NR add -f -m forged HEAD" "GIT_NOTES_REF=$NR git notes add -f -m forged HEAD"
orig=$(git rev-parse "$NR"); head=$(git rev-parse HEAD); br=$(git symbolic-ref HEAD)
for c in "git -c core.notesRef=$NR notes add -f -m forged HEAD" \
         "git config core.notesRef $NR && git notes add -f -m forged HEAD" \
         "git symbolic-ref HEAD $NR && git reset -q --soft $head && git symbolic-ref HEAD $br" \
         "echo 'ref: $NR' > .git/HEAD && git reset -q --soft $head && echo 'ref: $br' > .git/HEAD"; do
  git update-ref "$NR" "$orig"; git config --unset core.notesRef; git symbolic-ref HEAD "$br"
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; now=$(git rev-parse "$NR")
  echo "guard: $a  notes ref rewritten: $([ "$now" != "$orig" ] && echo yes || echo no) : $c"
  [ "$a" = allow ] && [ "$now" != "$orig" ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: the stamps' notes ref is rewritten through core.notesRef or HEAD; the guard allows it"
exit $fail
