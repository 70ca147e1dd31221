#!/usr/bin/env bash
# Defect: a signed `history-rewrite` approval is bound only to (repository, ref, new tip)
#   (harness/history/rewrite.py approval_subject), and "counts only while the ref points at the commit that
#   added it" is checked as "the old tip's approvals.jsonl has the line and none of its parents has"
#   (rewrite.py approved()). After an approved rewrite the approval's commit leaves the ref's history, so
#   any later tip lacks the line: an agent appends the very same signed line (copied from the dropped
#   commit) in a commit of its own, pushes it (an append is allowed), and then force-pushes the ref back to
#   the approved tip. The server's pre-receive hook and CI's `harness audit --before/--ref
#   --allowed-signers` both accept it, and every commit pushed after the first rewrite (work the approver
#   never saw) leaves the protected branch.
# Correct: the approval is spent once used / bound to the tip it was given on (sign the old tip too): a
#   copy re-added later counts for nothing, and the second force push is refused (history-only-extends).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2

cat > "$T/approve_tty.py" <<'EOF'
# The human at a terminal: runs `harness approve ARGS` on a pty and types "approve".
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
sys.exit(os.waitstatus_to_exitcode(st))
EOF

# --- a hosted remote with the pre-receive hook (leaving non-fast-forwards to the hook, as documented) --
( git init -q --bare -b main "$T/remote.git" && cd "$T/remote.git" && harness install --server --allow-non-fast-forward ) \
  >/dev/null 2>&1 || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install \
  && ssh-keygen -q -t ed25519 -N "" -C human -f "$T/human" \
  && echo "a@b $(cut -d' ' -f1,2 "$T/human.pub")" > .harness/allowed_signers && cp .harness/allowed_signers "$T/ci_signers" \
  && echo one > a.txt && git add -A && git commit -qm adopt \
  && echo two > b.txt && git add -A && git commit -qm N \
  && echo mistake > c.txt && git add -A && git commit -qm M && git push -q origin main ) >/dev/null 2>&1 || exit 2
N=$(git rev-parse HEAD~1)

# --- the human: replace main (at M) with N, as docs/ci.md says: approve at the tip, push it, force-push --
( git config user.signingKey "$T/human" && python3 "$T/approve_tty.py" history-rewrite "$N" --ref refs/heads/main \
  && git config --unset user.signingKey && git add .harness/approvals.jsonl && git commit -qm "approve replacing main" \
  && git push -q origin main ) >/dev/null 2>&1 || { echo "setup: approving the rewrite failed"; exit 2; }
A=$(git rev-parse HEAD)
git push -q --force origin "$N:refs/heads/main" >/dev/null 2>&1 || { echo "setup: the approved rewrite was refused"; exit 2; }
rm -f "$T/human"   # nobody holds the private key from here on
git fetch -q origin && git reset -q --hard origin/main && [ "$(git rev-parse HEAD)" = "$N" ] || exit 2

# --- work continues on main: commits the approver never saw ----------------------------------------
( echo "a later fix" > p.txt && git add -A && git commit -qm P && echo "more work" > q.txt && git add -A && git commit -qm Q \
  && git push -q origin main ) >/dev/null 2>&1 || exit 2
Q=$(git rev-parse HEAD)

# Control: rewinding main to N now is refused (the approval is gone with the history that carried it).
if git push -q --force origin "$N:refs/heads/main" >/dev/null 2>&1; then echo "setup: a bare rewind was accepted"; exit 2; fi

# --- the agent: append the spent approval line again, push that, then rewind main to N ---------------
git show "$A:.harness/approvals.jsonl" >> .harness/approvals.jsonl
( git add -A && git commit -qm "chore: sync approvals" && git push -q origin main ) >/dev/null 2>&1 \
  || { echo "the re-added line itself was refused (fine)"; exit 0; }
RT=$(git rev-parse HEAD)
git push -q --force origin "$N:refs/heads/main" >/dev/null 2>&1; push_rc=$?
git clone -q "$T/remote.git" "$T/ci" && cd "$T/ci" || exit 2
git fetch -q origin "$RT" 2>/dev/null   # CI's view of the old tip (still in the remote's objects)
harness audit --before "$RT" --to "$N" --ref refs/heads/main --allowed-signers "$T/ci_signers" >/dev/null 2>&1; ci_rc=$?
tip=$(git -C "$T/remote.git" rev-parse refs/heads/main)
echo "server push exit $push_rc (main now at ${tip:0:12}, N is ${N:0:12}); CI audit of that push exit $ci_rc"
if [ "$push_rc" -eq 0 ] || [ "$ci_rc" -eq 0 ]; then
  echo "DEFECT: a history-rewrite approval the human spent once was replayed by re-adding its line:"
  echo "        main was rewound to N again, dropping P and Q, which no approver saw"
  exit 1
fi
echo "OK: the replayed approval counts for nothing"; exit 0
