#!/usr/bin/env bash
# Defect: `harness approve config-change` writes (and signs) .harness/approvals.jsonl with each change described as
# the command's argv joined by spaces (core/policy.command_changes). The commit check reads that line with the
# harness's own rules: a lint command `["grep", "-rn", "password:", "config/"]` -- which config.yaml itself passes,
# read word by word -- becomes "...command added: 'grep -rn password: config/'", secret_assignment takes `config/'`
# for a password, and `git commit` refuses the human's signed approval (it cannot be edited: the signature binds
# it). No way remains to add the command. Correct: the approval the harness wrote and signed is committed.
# Needs `script` (util-linux) to give the approval the terminal a human would have.
# Exit 1 while the commit is refused, 0 when accepted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
command -v script >/dev/null && command -v ssh-keygen >/dev/null || { echo "setup: needs script and ssh-keygen" >&2; exit 2; }
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install \
  && ssh-keygen -q -t ed25519 -N '' -f "$HOME/key" \
  && echo "a@b $(cut -d' ' -f1,2 "$HOME/key.pub")" > .harness/allowed_signers \
  && git add -A && git commit -qm "adopt the harness, approvers" ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
p = ".harness/config.yaml"; s = open(p).read()
s2 = s.replace("evidence: {}", 'evidence:\n  lint:\n    command: ["grep", "-rn", "password:", "config/"]')
assert s2 != s
open(p, "w").write(s2)
PY
(sleep 2; echo approve) | script -qec "harness approve config-change --key '$HOME/key'" /dev/null >/dev/null 2>&1
[ -f .harness/approvals.jsonl ] || { echo "setup: no approval written" >&2; exit 2; }
echo "approvals.jsonl changes: $(python -c "import json; print(json.loads(open('.harness/approvals.jsonl').readline())['changes'])")"
git add -A >/dev/null 2>&1
if out=$(git commit -qm "lint command, approved" 2>&1); then echo "commit: accepted"; exit 0; fi
echo "commit: REFUSED"; echo "$out" | grep approvals.jsonl
echo "DEFECT: the harness refuses the approval it wrote and signed"; exit 1
