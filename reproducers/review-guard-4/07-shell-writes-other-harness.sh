#!/usr/bin/env bash
# F-0020 variant: run._outside_writes judges only an edit tool's writes/deletes against the harness
# repository that holds them; a shell command's are judged only against the session's repository
# (or not at all when the cwd is under none). From a nested harness repo (`../../.harness`), or from a
# folder outside any repo, a redirect/rm/cp/mv into another harness repo's ledger, .git/hooks or .git
# is allowed, while the same path written with the Write tool is denied.
# Exit 1 while any is allowed, 0 when all are denied, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../review-guard-3/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" || exit 2
R="$T/repo"; mkdir "$R"; new_repo "$R"
N="$R/sub/inner"; mkdir -p "$N"; new_repo "$N"
P="$T/plain"; mkdir -p "$P" || exit 2
[ "$(hk "$N" Write "{\"file_path\":\"$R/.harness/events.jsonl\",\"content\":\"x\"}")" = deny ] || { echo "setup: control (Write)" >&2; exit 2; }
[ "$(hk "$R" Bash "{\"command\":\"echo x >> .harness/events.jsonl\"}")" = deny ] || { echo "setup: control (own repo)" >&2; exit 2; }
fail=0
for cwd in "$N" "$P"; do
  for c in "echo forged >> $R/.harness/events.jsonl" "rm -rf $R/.harness" "cp /dev/null $R/.git/hooks/pre-commit" \
           "mv $R/.git $T/parked-git"; do
    a=$(hk "$cwd" Bash "{\"command\":\"$c\"}"); echo "$a (cwd ${cwd#$T/}): $c"; [ "$a" = deny ] || fail=1
  done
done
a=$(hk "$N" Bash '{"command":"echo forged >> ../../.harness/events.jsonl"}'); echo "$a (cwd nested): echo forged >> ../../.harness/events.jsonl"; [ "$a" = deny ] || fail=1
exit $fail
