#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 61, of F-0142/F-0143's fix (harness/core/redact.py _label_span): an `env:` marker is kept whole (a project
# pattern's span inside it dropped) whenever its suffix merely CONTAINS a secret-name word (_SECRET_ENV.search:
# TOKEN, SECRET, PASS, KEY, CRED, AUTH, any case). A project secret that holds one of those words (pattern
# `corp_[a-z]{16}`, value `corp_passkeyabcdefghi`) printed in an env marker's shape, `[REDACTED:env:<value>]`
# (read 60/05's case), stays in clear in the evidence under .harness/ and the commit check accepts it. The same
# value printed bare, and a value without such a word in the same shape (read 60/05), are redacted (controls).
# Exit 1 while the value is kept; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
import re
p = ".harness/config.yaml"; s = open(p).read()
s2 = re.sub(r"redaction:\n  patterns: .*", "redaction:\n  patterns: ['corp_[a-z]{16}']", s)
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness ) >/dev/null 2>&1 || { echo "setup: commit of the pattern refused" >&2; exit 2; }
export CORP_A=corp_passkeyabcdefghi CORP_B=corp_abcdefghijklmnop
rec() { git checkout -q -- .harness 2>/dev/null; git clean -qfd .harness >/dev/null 2>&1
        harness evidence unit_test -- python -c "import os; print('id ' + os.environ['MARK'])" >/dev/null 2>&1; }
export MARK
MARK="$CORP_A"; rec; grep -rqF -- "$CORP_A" .harness && { echo "setup: the value printed bare is kept" >&2; exit 2; }
echo "control: printed bare: redacted"
MARK="[REDACTED:env:$CORP_B]"; rec; grep -rqF -- "$CORP_B" .harness && { echo "setup: read 60/05's value is kept" >&2; exit 2; }
echo "control: \`[REDACTED:env:<value without a secret-name word>]\`: redacted"
MARK="[REDACTED:env:$CORP_A]"; rec
if grep -rqF -- "$CORP_A" .harness; then
  git add -A >/dev/null 2>&1
  if git commit -qm evidence >/dev/null 2>&1; then c=ACCEPTED; else c=refused; fi
  echo "\`[REDACTED:env:<corp_ value holding 'pass'/'key'>]\`: the value is in clear under .harness/ ($(grep -rlF -- "$CORP_A" .harness | sed 's/TASK-[^/]*/TASK-…/' | head -1)); commit check: $c"
  exit 1
fi
echo "\`[REDACTED:env:<corp_ value holding 'pass'/'key'>]\`: redacted"; exit 0
