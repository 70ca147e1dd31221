#!/usr/bin/env bash
# Defect: dropping a `redaction.patterns` entry from .harness/config.yaml needs a human's config-change
#   approval at commit/push/CI (harness/history/change_rules.py _check_config, rule
#   redaction-patterns-need-approval, "a human runs `harness approve config-change`"), but the CLI that
#   makes that approval does not see the drop: harness/approvals/approve.py config_changes() lists only
#   command_changes(). So (a) a pattern dropped on its own cannot be approved at all — `harness approve
#   config-change` answers "does not loosen what is committed: no approval needed" and records nothing,
#   while the commit stays refused; and (b) a drop bundled with an evidence-command edit is approved
#   silently: the human is shown, and signs a `changes` list naming, only the command change; the
#   signature (over the whole file's digest) then lets the dropped pattern through, and the very next
#   commit carries a secret that pattern named.
# Correct: `harness approve config-change` lists (and signs, in `changes`) every dropped redaction pattern,
#   exactly as the commit rule judges them; the drop alone can be approved and then commits.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
cat > "$T/approve_tty.py" <<'PY'
# The human at a terminal: runs `harness approve ARGS` on a pty, types "approve", prints what it saw.
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("harness", ["harness", "approve", *sys.argv[1:]])
out, sent, deadline = b"", False, time.monotonic() + 60
while time.monotonic() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    if not sent and b'type "approve"' in out:
        os.write(fd, b"approve\r"); sent = True
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(st))
PY
ssh-keygen -q -t ed25519 -N '' -C human -f "$T/human" || exit 2
( git init -q -b main && harness init && harness install && harness task new t \
  && echo "a@b $(cut -d' ' -f1,2 "$T/human.pub")" > .harness/allowed_signers \
  && sed -i 's/^  patterns: \[\].*/  patterns: ["ACME-[0-9]{6}"]/' .harness/config.yaml \
  && sed -i 's/^evidence: {}/evidence:\n  build:\n    command: ["python3", "-c", "pass"]/' .harness/config.yaml \
  && grep -q 'ACME' .harness/config.yaml && grep -q '"pass"' .harness/config.yaml \
  && echo a > a.txt && git add -A && git commit -qm "adopt, with the project's secret pattern" ) >/dev/null 2>&1 || exit 2
git config user.signingKey "$T/human"
base=$(git rev-parse HEAD)

# Control: with the pattern in place, a file holding its value is refused at commit.
TID=$(ls .harness/tasks) || exit 2; S=".harness/tasks/$TID/notes.md"   # a .harness/ file the commit check reads
echo "token ACME-123456" > "$S" && git add "$S"
if git commit -qm control >/dev/null 2>&1; then echo "setup: the project's pattern refuses nothing"; exit 2; fi
git reset -q && rm -f "$S"

fail=0
# (a) The pattern dropped on its own: the human runs the command the refusal names.
sed -i 's/^  patterns: \[.*\]/  patterns: []/' .harness/config.yaml
out_a=$(python3 "$T/approve_tty.py" config-change 2>&1); rc_a=$?
git add -A; git commit -qm "drop the pattern" >/dev/null 2>&1; commit_a=$?
echo "(a) approve exit $rc_a: $(echo "$out_a" | head -1 | tr -d '\r')"
echo "    commit of the approved drop: exit $commit_a"
if [ "$commit_a" -ne 0 ]; then
  echo "    DEFECT: the drop cannot be approved: approve says no approval is needed, the commit says it is"; fail=1
fi
git reset -q --hard "$base"

# (b) The drop bundled with a command change: what the human is shown and signs.
sed -i 's/^  patterns: \[.*\]/  patterns: []/; s/"-c", "pass"/"-c", "print(1)"/' .harness/config.yaml
out_b=$(python3 "$T/approve_tty.py" config-change 2>&1) || { echo "setup: approving the command change failed"; exit 2; }
git add -A && git commit -qm "build command" >/dev/null 2>&1 || { echo "setup: the approved change was refused"; exit 2; }
echo "token ACME-123456" > "$S" && git add "$S" && git commit -qm secret >/dev/null 2>&1; secret=$?
changes=$(git show HEAD~1:.harness/approvals.jsonl 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["changes"])')
echo "(b) shown to the human: $(echo "$out_b" | grep -- ' - ' | tr -d '\r' | tr '\n' ' ')"
echo "    signed changes: $changes; commit of a value the dropped pattern named: exit $secret"
if ! grep -q -i 'redaction\|pattern' <<<"$changes$out_b"; then
  echo "    DEFECT: the approval neither shows nor signs that it drops redaction pattern ACME-[0-9]{6}, yet lets it go"; fail=1
fi
[ "$fail" -eq 1 ] && exit 1
echo "OK: the approval shows the dropped pattern, and the drop alone can be approved"; exit 0
