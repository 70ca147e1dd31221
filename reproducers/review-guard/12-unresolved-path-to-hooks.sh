#!/usr/bin/env bash
# A hook or ledger path reached through $(git rev-parse ...), a cd to an unresolved folder, or pushd is allowed: the guard judges the literal tail only.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
rc=0
cmds=(
 'rm "$(git rev-parse --git-dir)/hooks/pre-commit"'
 'chmod -x "$(git rev-parse --git-path hooks)/pre-commit"'
 'cd "$(git rev-parse --git-dir)/hooks" && rm pre-commit'
 'pushd .git/hooks && rm pre-commit'
 "cd \"\$(git rev-parse --show-toplevel)/.harness/tasks/$TASK\" && echo '{}' >> events.jsonl"
)
for c in "${cmds[@]}"; do v=$(verdict "$c"); echo "$v: $c"; [ "$v" = allow ] && rc=1; done
echo "control: $(verdict 'rm .git/hooks/pre-commit'): rm .git/hooks/pre-commit"
echo "git's answer: $(git rev-parse --git-dir)/hooks/pre-commit exists: $(test -f "$(git rev-parse --git-dir)/hooks/pre-commit" && echo yes)"
[ $rc = 1 ] && echo "DEFECT: deleting/disabling a harness hook or appending to the ledger through an unresolved path is allowed"
exit $rc
