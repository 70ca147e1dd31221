#!/usr/bin/env bash
# A push whose commit changes .harness/ is answered "N commit(s) checked, no problems" once the agent has run
# `git replace C2 FAKE` (allowed by the agent guard) with FAKE a code-only commit: push_fast_path walks
# `C^1` / `C^{tree}` in cat-file (and rev-list before bd8dbd7), which honour refs/replace, and so does the full
# push guard; but `git push` sends the real objects (pack-objects ignores replace refs), so the remote gets the
# .harness/ change unchecked. Pre-existing (same answer at bd8dbd7^), not introduced by bd8dbd7's walk.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"; export PYTHONPATH="$here"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
git init -q --bare "$T/remote.git" || exit 2
R="$T/r"; mkdir "$R"; cd "$R" || exit 2
{ git init -q -b main && git config user.email a@b && git config user.name a \
  && python -m harness init && python -m harness install && python -m harness task new t \
  && git add -A && git commit -qm init -n && git remote add origin "$T/remote.git" \
  && git push -q --no-verify origin main; } >/dev/null 2>&1 || { echo "setup: repo" >&2; exit 2; }
OLD=$(git rev-parse HEAD)
echo a > a.txt; git add a.txt; git commit -qm c1 -n >/dev/null 2>&1 || exit 2; C1=$(git rev-parse HEAD)
f=$(find .harness/tasks -name events.jsonl | head -1); [ -n "$f" ] || { echo "setup: no ledger" >&2; exit 2; }
echo '{"forged": "DONE"}' >> "$f"; git add -A; git commit -qm c2 -n >/dev/null 2>&1 || exit 2; C2=$(git rev-parse HEAD)
guard() { printf 'refs/heads/main %s refs/heads/main %s\n' "$C2" "$OLD" \
  | python -m harness hook push-guard origin "$T/remote.git" 2>&1; }
out=$(guard); rc=$?
[ $rc -ne 0 ] || { echo "setup: the push of the .harness change is not refused even without replace refs" >&2; exit 2; }
echo "control (no replace ref): rc=$rc"
FAKE=$(git commit-tree "$C1^{tree}" -p "$C1" -m c2) && git replace "$C2" "$FAKE" || exit 2
out=$(guard); rc=$?
echo "with refs/replace/$C2 -> code-only commit: rc=$rc: $(echo "$out" | head -2)"
echo "the remote would receive: $(GIT_NO_REPLACE_OBJECTS=1 git show --stat --format=%s "$C2" | grep harness)"
[ $rc -ne 0 ] || exit 1
exit 0
