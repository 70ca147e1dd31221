#!/usr/bin/env bash
# Defect: `harness approve suite-change CASE_ID...` writes the case ids it is given into .harness/approvals.jsonl (a
#   tracked file, meant to be committed) exactly as typed: a GitHub token or a `password=` value pasted into a case id
#   (a parametrized test id, a mistyped argument) is shown in the prompt, signed, and appended in clear. Nothing
#   redacts or refuses it (harness/approvals/approve.py suite_changes -> record_approval, whose entry's `changes` is
#   the typed list). The commit check then refuses the file and blames the user ("this line was written by hand or by
#   an older version"), while the secret stays on disk in a signed line that cannot be edited, only deleted.
#   Every other writer of free text redacts it, and `finding propose` refuses a reproducer command that holds one.
# Correct: an approval whose subject holds a secret-shaped value is refused before signing (nothing written), as a
#   reproducer's command is; .harness/approvals.jsonl never holds a secret in clear.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v script >/dev/null && command -v ssh-keygen >/dev/null || { echo "setup: needs script and ssh-keygen"; exit 2; }
eval "$(python3 - <<'PY'
import random, string
r = random.Random(1552)
an = string.ascii_letters + string.digits
print("GHP=ghp_" + "".join(r.choice(an) for _ in range(36)))
print("PW=" + "".join(r.choice(an) for _ in range(20)))
PY
)"
ssh-keygen -q -t ed25519 -N '' -f "$T/key" -C ap >/dev/null || exit 2
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["true"]' \
       > .harness/config.yaml \
  && { harness init && harness install && echo "a@b $(cut -d' ' -f1,2 "$T/key.pub")" > .harness/allowed_signers \
       && git add -A && git commit -qm adopt && harness task new t && git add -A && git commit -qm task; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
script -qec "harness approve suite-change 'tests.test_api::test_auth[$GHP]' 'tests.test_db::test_login[password=$PW]' --key $T/key" \
  /dev/null <<<"approve" > "$T/approve.log" 2>&1
if [ ! -f .harness/approvals.jsonl ]; then
  if grep -qi "secret\|refus" "$T/approve.log"; then echo "OK: the approval was refused, nothing written"; exit 0; fi
  echo "setup: no approval was written:"; cat "$T/approve.log"; exit 2
fi
git check-ignore -q .harness/approvals.jsonl && { echo "setup: approvals.jsonl is ignored"; exit 2; }
status=0
for piece in "${GHP:4}" "$PW"; do
  if grep -qF -- "$piece" .harness/approvals.jsonl; then echo "DEFECT: .harness/approvals.jsonl (tracked) holds '$piece' in clear"; status=1; fi
done
git add -A >/dev/null 2>&1
if git commit -qm "approve" > "$T/commit.log" 2>&1; then
  echo "DEFECT: the commit with the secret was accepted"; status=1
else
  echo "the commit check refused it, saying:"; grep -m1 "written by hand\|→" "$T/commit.log" | sed 's/^ */  /'
fi
exit $status
