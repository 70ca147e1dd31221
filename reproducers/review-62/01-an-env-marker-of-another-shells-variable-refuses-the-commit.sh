#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 62, of F-0146's fix (harness/core/redact.py _label_span): an `env:` marker is now the harness's only when
# the CURRENT redactor has that variable (`env:NAME` in its labels) or the marker is the whole text. The evidence
# writer ran with CORP_DEPLOY_TOKEN set and wrote `[REDACTED:env:CORP_DEPLOY_TOKEN]` inside a log line; the commit
# hook runs in a shell without that variable, so the project's pattern (`DEPLOY_[A-Z0-9]{5,}`) matches inside the
# harness's own marker and the commit is refused ("written by hand or by an older version"). Before F-0146 a
# secret-named suffix was enough. Exit 1 while the commit is refused; 0 when it is accepted; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
unset CORP_DEPLOY_TOKEN
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
import re
p = ".harness/config.yaml"; s = open(p).read()
s2 = re.sub(r"redaction:\n  patterns: .*", "redaction:\n  patterns: ['DEPLOY_[A-Z0-9]{5,}']", s)
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness ) >/dev/null 2>&1 || { echo "setup: commit of the pattern refused" >&2; exit 2; }
CORP_DEPLOY_TOKEN=hunter2hunter2x harness evidence unit_test -- \
  python -c "import os; print('using', os.environ['CORP_DEPLOY_TOKEN'])" >/dev/null 2>&1 || exit 2
grep -rqF "hunter2hunter2x" .harness && { echo "setup: the value itself is kept" >&2; exit 2; }
grep -rqF "using [REDACTED:env:CORP_DEPLOY_TOKEN]" .harness || { echo "setup: no env marker written" >&2; exit 2; }
echo "evidence log: 'using [REDACTED:env:CORP_DEPLOY_TOKEN]' (written by harness evidence, variable set)"
git add -A >/dev/null 2>&1
if out=$(git commit -qm evidence 2>&1); then echo "commit (variable unset): accepted"; exit 0; fi
echo "commit (variable unset): REFUSED:"; echo "$out" | grep -o '[^ ]*evidence/unit_test[^ ]* .*(custom)' | head -2
exit 1
