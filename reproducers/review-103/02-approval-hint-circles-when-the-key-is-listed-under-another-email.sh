#!/usr/bin/env bash
# Defect: docs/approvals.md's one-time setup lists the approver as
#   `echo "you@example.com $(cut -d' ' -f1,2 ~/.ssh/id_ed25519.pub)" >> .harness/allowed_signers`
#   and never says that EMAIL must be git's committer e-mail: `harness approve …` signs as the committer
#   identity (harness/approvals/approve.py record_approval: signer = git ident's e-mail). With the key listed
#   under any other e-mail, the refusal's hint (same function) says "list your public key as `a@b KEYTYPE KEY`
#   in the allowed signers (a change to .harness/allowed_signers itself needs an already-listed approver …),
#   or sign with a key that is listed". Following it: the allowed_signers change needs `harness approve
#   signers-change`, which is refused with the very same hint -- a circle; and "sign with a key that is
#   listed" is what the user already does (the key IS listed). Nothing names the way out (sign as the listed
#   principal: `git config user.email you@example.com`).
# Correct: the refusal names why it failed (the key is listed for you@example.com, the approval is signed as
#   a@b) and the way out (git config user.email / the listed principal), or approve signs as the principal the
#   key is listed under; approvals.md says EMAIL is your git user.email.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v script >/dev/null && command -v ssh-keygen >/dev/null || { echo "needs script(1) and ssh-keygen"; exit 2; }
( git init -q -b main && mkdir .harness && printf 'print(1)\n' > app.py \
  && printf 'version: 1\nevidence:\n  build:\n    command: ["python", "-m", "py_compile", "app.py"]\n' > .harness/config.yaml \
  && harness init && harness install && git add -A && git commit -qm adopt ) >/dev/null 2>&1 || exit 2
mkdir -p "$HOME/.ssh" && ssh-keygen -q -t ed25519 -N "" -f "$HOME/.ssh/id_ed25519" >/dev/null || exit 2
# approvals.md's setup, typed as written
git config user.signingKey ~/.ssh/id_ed25519
echo "you@example.com $(cut -d' ' -f1,2 ~/.ssh/id_ed25519.pub)" >> .harness/allowed_signers
git add .harness/allowed_signers && git commit -qm "harness: approvers" >/dev/null 2>&1 || exit 2

approve() {  # a human at a terminal typing "approve"
  (sleep 1; echo approve) | script -qec "harness approve $1" /dev/null 2>&1
}
# A human changes an evidence command and approves it.
sed -i 's/"-m", "py_compile"/"-X", "utf8", "-m", "py_compile"/' .harness/config.yaml
grep -q utf8 .harness/config.yaml || exit 2
out1=$(approve config-change)
if printf '%s' "$out1" | grep -q '^approved'; then echo "OK: approve signed as the listed principal"; exit 0; fi
printf '%s\n' "$out1" | grep -q 'would not count' || { echo "setup: unexpected answer: $out1"; exit 2; }
if printf '%s' "$out1" | grep -q -E 'you@example.com|user\.email|GIT_COMMITTER_EMAIL'; then
  echo "OK: the refusal names the listed principal / git user.email"; exit 0
fi
echo "approve config-change refused; hint: $(printf '%s' "$out1" | grep hint:)"
# Follow the hint: list the key as a@b, which needs an already-listed approver's signers-change.
git checkout -q HEAD -- .harness/config.yaml
echo "a@b $(cut -d' ' -f1,2 ~/.ssh/id_ed25519.pub)" >> .harness/allowed_signers
out2=$(approve signers-change)
if printf '%s' "$out2" | grep -q '^approved'; then echo "OK: following the hint worked"; exit 0; fi
if printf '%s' "$out2" | grep -q -E 'you@example.com|user\.email|GIT_COMMITTER_EMAIL'; then
  echo "OK: the second refusal names the way out"; exit 0
fi
echo "approve signers-change (the hint's way) refused with: $(printf '%s' "$out2" | grep hint:)"
# The way out nobody names: sign as the listed principal.
out3=$(GIT_COMMITTER_EMAIL=you@example.com approve signers-change)
printf '%s' "$out3" | grep -q '^approved' || { echo "setup: even the listed principal cannot approve: $out3"; exit 2; }
echo "DEFECT: the hint leads in a circle; only signing as you@example.com (named nowhere) gets out"
exit 1
