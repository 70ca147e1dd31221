#!/usr/bin/env bash
# Defect: when the committed .harness/approvals.jsonl does not end in a newline (the commit hook accepts such a file,
#   e.g. after a merge conflict in it was resolved in an editor that does not add a final newline), the next
#   `harness approve …` appends its signed line directly after the last one (harness/approvals/approve.py
#   record_approval: `existing + line`). It reports "approved by …", but the file now holds one line that is no
#   JSON object: the new approval counts as none and the committed approval above it is "rewritten", so the commit
#   is refused (approvals-append-only) and the human's approval is lost; only a hand edit recovers.
# Correct: the approval is recorded on a line of its own (a newline added first when the file lacks one), and the
#   commit of the loosening it approves is accepted.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=h GIT_AUTHOR_EMAIL=h@x GIT_COMMITTER_NAME=h GIT_COMMITTER_EMAIL=h@x
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2
approve() { script -qec "harness approve gate-change --key $T/human" /dev/null <<<"approve" >"$T/approve.log" 2>&1
            grep -q "approved by" "$T/approve.log" || { cat "$T/approve.log"; exit 2; }; }
R="$T/repo"; mkdir "$R" && cd "$R" || exit 2
( git init -q -b main && echo a > a.txt && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && git add -A && git commit -qm adopt ) >/dev/null 2>&1 || exit 2
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml; approve
git add -A && git commit -qm "unit_test optional (approved)" >/dev/null 2>&1 || exit 2
# The same lines, the last without its newline: accepted.
printf %s "$(cat .harness/approvals.jsonl)" > .harness/approvals.jsonl
git add -A && git commit -qm "approvals.jsonl without a final newline" >/dev/null 2>&1 || { echo "setup: refused"; exit 2; }
# The human approves the next loosening, then commits it.
sed -i 's/    build: required/    build: optional/' .harness/gate.yaml; approve
echo "approve said: $(grep -o 'approved by[^;]*' "$T/approve.log")   lines in approvals.jsonl: $(grep -c '' .harness/approvals.jsonl)"
git add -A
if git commit -qm "build optional (approved)" >"$T/commit.log" 2>&1; then echo "ok: the approved loosening commits"; exit 0; fi
echo "DEFECT: the approval was glued onto the last committed line; the commit is refused:"; grep "\[" "$T/commit.log" | cut -c1-300
exit 1
