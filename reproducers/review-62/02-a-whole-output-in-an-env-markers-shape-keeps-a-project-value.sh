#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 62, of F-0146's fix (harness/core/redact.py _label_span): an `env:` marker whose suffix holds a secret-name
# word is still kept whole when it is the WHOLE text redacted (meant for a recorded variable's value). A command
# whose stdout is nothing but `[REDACTED:env:<project value>]` (no newline) has that text redacted as a whole, so a
# value of the project's pattern `corp_[a-z]{16}` holding `pass`/`key` stays in clear in the log and in the
# record's stdout_tail, and the commit check accepts it. Control: the same text followed by a newline is redacted.
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
export V=corp_passkeyabcdefghi MARK="[REDACTED:env:corp_passkeyabcdefghi]"
rec() { git checkout -q -- .harness 2>/dev/null; git clean -qfd .harness >/dev/null 2>&1
        harness evidence unit_test -- python -c "import os,sys; sys.stdout.write(os.environ['MARK'] + '$1')" >/dev/null 2>&1; }
rec '\n'; grep -rqF -- "$V" .harness && { echo "setup: the line with a newline keeps the value" >&2; exit 2; }
echo "control: stdout '[REDACTED:env:<value>]\\n': redacted"
rec ''
if grep -rqF -- "$V" .harness; then
  git add -A >/dev/null 2>&1
  if git commit -qm evidence >/dev/null 2>&1; then c=ACCEPTED; else c=refused; fi
  echo "stdout '[REDACTED:env:<value>]' (no newline): the value is in clear in $(grep -rlF -- "$V" .harness | sed 's/TASK-[^/]*/TASK-…/' | tr '\n' ' '); commit check: $c"
  exit 1
fi
echo "stdout '[REDACTED:env:<value>]' (no newline): redacted"; exit 0
