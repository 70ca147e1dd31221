#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 60, of F-0137's fix (harness/core/redact.py _label_span/_outside_markers): a project pattern's span is still
# dropped when it lies inside "the label a marker's writer puts there", but that label is taken from the text's
# shape, not from the rules: any `[a-z_]+` after `[REDACTED:`, and any upper-case `env:` suffix. A command that
# prints `[REDACTED:corp_abcdefghijklmnop]` (a project secret made of letters and `_`, pattern
# `corp_[a-z]{16}`) or `[REDACTED:env:CORPK3Y9ABCD7EF01234]` (an upper-case one, pattern `CORP[A-Z0-9]{16}`)
# keeps the secret in clear in its evidence under .harness/, and the commit check (the same rules) accepts the
# commit. The same values printed bare are redacted (control). Read 59/04 is this with `[REDACTED:x:<value>]`.
# Exit 1 while a value is kept; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
import re
p = ".harness/config.yaml"; s = open(p).read()
s2 = re.sub(r"redaction:\n  patterns: .*", "redaction:\n  patterns: ['corp_[a-z]{16}', 'CORP[A-Z0-9]{16}']", s)
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness ) >/dev/null 2>&1 || { echo "setup: commit of the patterns refused" >&2; exit 2; }
export CORP_A=corp_abcdefghijklmnop CORP_B=CORPK3Y9ABCD7EF01234
harness evidence unit_test -- python -c "import os; print('ids', os.environ['CORP_A'], os.environ['CORP_B'])" >/dev/null 2>&1
if grep -rqF -e "$CORP_A" -e "$CORP_B" .harness; then echo "setup: the control keeps a value" >&2; exit 2; fi
echo "control: the values printed as they are: redacted"
rc=0
for which in A B; do
  git checkout -q -- .harness 2>/dev/null; git clean -qfd .harness >/dev/null 2>&1
  if [ $which = A ]; then v=$CORP_A; export MARK="[REDACTED:$CORP_A]"; label='[REDACTED:<corp_ value>]'
  else v=$CORP_B; export MARK="[REDACTED:env:$CORP_B]"; label='[REDACTED:env:<CORP value>]'; fi
  harness evidence unit_test -- python -c "import os; print('id ' + os.environ['MARK'])" >/dev/null 2>&1
  if grep -rqF -- "$v" .harness; then
    git add -A >/dev/null 2>&1
    if git commit -qm evidence >/dev/null 2>&1; then c="ACCEPTED"; git reset -q --soft HEAD~1; else c="refused"; fi
    git reset -q >/dev/null 2>&1
    echo "printed as \`$label\`: the value is in clear under .harness/ ($(grep -rlF -- "$v" .harness | head -1)); commit check: $c"
    rc=1
  else
    echo "printed as \`$label\`: no value in clear under .harness/"
  fi
done
exit $rc
