#!/usr/bin/env bash
# Defect: under a project redaction pattern as broad as `[a-z]+_[a-z]+` (one the harness promises to keep working
#   under: tests/test_secrets_a_project_names.py), every approval `harness approve` writes is refused by the commit
#   check, so no gate loosening, config change, signer change or suite change can ever be committed.
#   harness/approvals/approve.py record_approval() writes the keys `approved_by`, `os_user`, `from_digest` (and
#   free text such as "verification.unit_test required → optional"); since 0a31f26 approvals.jsonl is read strictly
#   (harness/history/own_words.py), and harness/store/secrets_check.py _own_key() only exempts keys named in a JSON
#   schema (no schema names an approval's fields) and _TYPE_NAMES only a value that is a type name whole, so the
#   project's pattern flags the harness's own keys and words. The signed line cannot be edited.
# Correct: the approval the harness wrote and signed is accepted at commit (its own keys, and the type names in its
#   list of changes, are the harness's words), as it is without the pattern.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
command -v script >/dev/null && command -v ssh-keygen >/dev/null || exit 2
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME/.ssh"
approve_and_commit() {  # $1: the config's patterns line; prints the commit's output, returns its status
  local R="$T/repo-$2"; mkdir "$R" && cd "$R" || return 2
  ( git init -q -b main && harness init && harness install \
    && sed -i "s/  patterns: \[\]/  patterns: $1/" .harness/config.yaml \
    && echo "a@b $(cut -d' ' -f1,2 "$HOME/.ssh/id.pub")" > .harness/allowed_signers \
    && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || return 2
  sed -i 's/    unit_test: required/    unit_test: optional/' .harness/gate.yaml
  echo approve | script -qec "harness approve gate-change --key $HOME/.ssh/id" /dev/null >/dev/null 2>&1
  grep -q '"kind": "gate-change"' .harness/approvals.jsonl 2>/dev/null || return 2
  git add -A || return 2
  git commit -qm "loosen the gate, approved" 2>&1
}
ssh-keygen -q -t ed25519 -N '' -f "$HOME/.ssh/id" -C a@b || exit 2
# Control: without the pattern, the same approval commits.
approve_and_commit "[]" plain >/dev/null; rc=$?
[ $rc -eq 0 ] || { echo "setup: the approval is refused even without the pattern (rc=$rc)"; exit 2; }
out=$(approve_and_commit "['[a-z]+_[a-z]+']" broad); rc=$?
[ $rc -eq 2 ] && { echo "setup failed under the broad pattern"; exit 2; }
if [ $rc -eq 0 ]; then echo "OK: the signed approval commits under [a-z]+_[a-z]+"; exit 0; fi
if grep -q "approvals.jsonl:1 \[secret-in-harness-files\]" <<<"$out"; then
  echo "DEFECT: the approval harness approve wrote and signed is refused at commit under [a-z]+_[a-z]+:"
  grep "secret-in-harness-files" <<<"$out"
  exit 1
fi
echo "setup: refused for another reason:"; echo "$out"; exit 2
