#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The commit check drops a finding when a parent's version of the file had a finding of the same rule on a
# line with the same text (change_rules._not_held). For YAML, secrets_in reports a scalar at its START line,
# so a multi-line scalar's continuation lines are never compared: a commit that appends a real token to the
# second line of a requirement's statement is "held" by the parent's (innocuous) first line.
# The parent's finding is made by the agent itself: adding a redaction pattern needs no approval, and the
# check applies the new commit's patterns to the parent's file too (_redaction_patterns([new, *olds])).
# Steps: requirement with a two-line statement starting "Widget"; commit pattern "Widget" (allowed);
# hand-append a GitHub token to the statement's 2nd line; commit (pre-commit hook) and `harness audit`.
# Control: the same edit without the pattern is refused (else exit 2).
# Exit 1 while the token passes both the commit hook and the audit; 0 when either refuses it.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
F=.harness/tasks/$TID/requirements.yaml
KEY=ghp_x7Kq2MvR9tLw4ZpN8sYb3JcH6dFg1QaE5uXo
harness requirement add "$(printf 'Widget sync resumes after a crash\nand keeps its place')" --priority must >/dev/null || exit 2
git add -A && git commit -qm req >/dev/null 2>&1 || exit 2
B=$(git rev-parse HEAD)
grep -q "^    and keeps its place'$" "$F" || { echo "setup: unexpected rendering" >&2; exit 2; }
# control: the token alone is refused
sed -i "s/^    and keeps its place'$/    and keeps its place $KEY'/" "$F"
git add -A; if git commit -qm control >/dev/null 2>&1; then echo "setup: control commit not refused" >&2; exit 2; fi
git checkout -q HEAD -- "$F"
# attack
sed -i 's/^  patterns: \[\]/  patterns: ["Widget"]/' .harness/config.yaml
grep -q 'patterns: \["Widget"\]' .harness/config.yaml || exit 2
git add -A && git commit -qm "redaction: name Widget" >/dev/null 2>&1 || { echo "setup: pattern commit refused" >&2; exit 2; }
sed -i "s/^    and keeps its place'$/    and keeps its place $KEY'/" "$F"
git add -A
if git commit -qm leak 2>&1; then c=passed; else c=refused; fi
echo "commit hook: $c"
git show HEAD:"$F" | grep -q "$KEY" && echo "committed file holds the token:" && git show HEAD:"$F" | grep -n ghp_
harness audit --from "$B" --to HEAD >/dev/null 2>&1; a=$?
echo "audit rc=$a"
[ "$c" = passed ] && [ "$a" = 0 ] && exit 1
exit 0
