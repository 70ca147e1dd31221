#!/usr/bin/env bash
# Defect: a token the rules know by its shape is committed and pushed whole once one character of its prefix is a
#   Unicode look-alike, or once it is written in fullwidth forms: `ghр_…` (Cyrillic р, U+0440) keeps all 36 secret
#   characters of a GitHub token as printed, and `ＡＫＩＡ…` (fullwidth, which NFKC maps back to ASCII) keeps an AWS key
#   id whole. harness/core/redact.py Redactor.redact reads default-ignorable characters out (zero-width spaces, soft
#   hyphens: docs/threat-model.md) but no compatibility or confusable folding, and the commit and push checks read the
#   same way. Shown through a requirement statement (free text the CLI records) and an evidence log.
# Correct: the text is read as NFKC (and the common Latin look-alikes folded) before the rules match, so these are
#   redacted or refused as the plain spellings are (the control lines).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
# Tokens made here (random): no token in this file.
python3 - "$HOME" <<'PY2' || exit 2
import random, string, sys
r = random.Random(167)
ghp = "ghp_" + "".join(r.choice(string.ascii_letters + string.digits) for _ in range(36))
aws = "AKIA" + "".join(r.choice(string.ascii_uppercase + string.digits) for _ in range(16))
open(f"{sys.argv[1]}/plain", "w").write(f"{ghp} {aws}")
open(f"{sys.argv[1]}/cyr", "w").write(ghp.replace("p", "\u0440", 1))
open(f"{sys.argv[1]}/fw", "w").write("".join(chr(ord(c) + 0xFEE0) for c in aws))
open(f"{sys.argv[1]}/secrets", "w").write(ghp[4:] + "\n" + aws[4:] + "\n")  # the parts that must not be kept
PY2
mkdir ci && cat > ci/show.py <<'PY2'
import os
h = os.environ["HOME"]
for n in ("plain", "cyr", "fw"):
    print(n + ":", open(os.path.join(h, n), encoding="utf-8").read())
print("1 passed")
PY2
git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
export PYTHONIOENCODING=utf-8 LC_ALL=C.UTF-8
harness requirement add "The client authenticates with $(cat "$HOME/cyr") and $(cat "$HOME/fw")" --priority must >/dev/null 2>&1 \
  || { echo "setup: requirement add failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
grep -q "1 passed" "$log" || { echo "setup: the output was not recorded"; exit 2; }
git add -A && git commit -qm "requirement and evidence" >/dev/null 2>&1 || { echo "OK: the commit check refused"; exit 0; }
git push -q origin main >/dev/null 2>&1 || { echo "OK: the push check refused"; exit 0; }
pushed=$(git --git-dir="$T/remote.git" grep -h -e . main -- .harness | python3 -c "import sys,unicodedata;print(unicodedata.normalize('NFKC',sys.stdin.read()))")
grep -qF "plain: [REDACTED" <<<"$pushed" || { echo "setup: the plain spelling was not redacted"; exit 2; }
status=0
while read -r piece; do
  if grep -qF -- "$piece" <<<"$pushed"; then echo "DEFECT: the secret part '${piece:0:6}…' of a token is pushed whole"; status=1
  else echo "ok: '${piece:0:6}…' not pushed"; fi
done < "$HOME/secrets"
[ $status = 1 ] && { echo "--- the pushed log:"; git --git-dir="$T/remote.git" show "main:$log"; }
exit $status
