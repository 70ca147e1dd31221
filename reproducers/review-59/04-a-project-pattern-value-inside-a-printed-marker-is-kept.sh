#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 59: F-0133's fix, as narrowed by ab5624c (harness/core/redact.py _outside_markers), still drops every span a
# project's pattern (config.yaml `redaction.patterns`) finds inside text shaped like a marker,
# `\[REDACTED:[a-z_]+(?::\w+)?\]`. The `:\w+` part takes any word: a command that prints
# `[REDACTED:x:corp_k3y9abcd7ef01234]` keeps the project's secret in clear in its evidence under .harness/, and
# the commit check (the same rules) accepts the commit. The same value outside such text is redacted (control).
# Exit 1 while the value is kept; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
import re
p = ".harness/config.yaml"; s = open(p).read()
s2 = re.sub(r"redaction:\n  patterns: .*", "redaction:\n  patterns: ['corp_[a-z0-9]{16}']", s)
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness ) >/dev/null 2>&1 || { echo "setup: commit of the pattern refused" >&2; exit 2; }
export CORP_ID=corp_k3y9abcd7ef01234
harness evidence unit_test -- python -c "import os; print('id ' + os.environ['CORP_ID'])" >/dev/null 2>&1
if grep -rqF -- "$CORP_ID" .harness; then echo "setup: the control keeps the value" >&2; exit 2; fi
echo "control: the value printed as it is: redacted"
harness evidence unit_test -- python -c "import os; print('id [REDACTED:x:' + os.environ['CORP_ID'] + ']')" >/dev/null 2>&1
if grep -rqF -- "$CORP_ID" .harness; then
  echo "evidence: the value printed inside \`[REDACTED:x:...]\` is in clear under .harness/ ($(grep -rlF -- "$CORP_ID" .harness | head -1))"
  git add -A >/dev/null 2>&1
  if git commit -qm evidence >/dev/null 2>&1; then echo "commit check: the commit holding it is ACCEPTED"; else echo "commit check: refused"; fi
  exit 1
fi
echo "evidence: no value in clear under .harness/"; exit 0
