#!/usr/bin/env bash
# The guard protects only the repository found by walking up from the payload's cwd. A cwd in a
# subfolder holding any `.git` entry (an empty file the agent may create), or outside the repository,
# makes every write/delete of the real repository's .harness/ allowed. Exit 1 while the defect exists.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
R="$T/repo"; mkdir "$R"; new_repo "$R"
# creating the marker is itself allowed today (informational)
echo "creating sub/.git: $(hk "$R" Bash '{"command":"mkdir -p sub && touch sub/.git"}')"
mkdir -p "$R/sub" && touch "$R/sub/.git" || exit 2
O="$T/outside"; mkdir "$O" || exit 2
# control: from the repository itself, the same write is refused
[ "$(hk "$R" Write '{"file_path":".harness/tasks/T1/events.jsonl","content":"{}\n"}')" = deny ] || { echo "setup: control" >&2; exit 2; }
fail=0
a=$(hk "$R/sub" Write '{"file_path":"../.harness/tasks/T1/events.jsonl","content":"{}\n"}'); echo "$a: cwd=repo/sub Write ../.harness/tasks/T1/events.jsonl"; [ "$a" = deny ] || fail=1
a=$(hk "$R/sub" Bash '{"command":"rm -rf ../.harness"}'); echo "$a: cwd=repo/sub rm -rf ../.harness"; [ "$a" = deny ] || fail=1
a=$(hk "$O" Write "{\"file_path\":\"$R/.harness/tasks/T1/events.jsonl\",\"content\":\"{}\\n\"}"); echo "$a: cwd=outside Write REPO/.harness/tasks/T1/events.jsonl"; [ "$a" = deny ] || fail=1
exit $fail
