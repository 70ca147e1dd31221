#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A secret known by its context (the own rule for `password=VALUE`, or a project pattern with a
# `secret` group, `corp_key=(?P<secret>[a-z0-9]{12})`) that a command writes with its key on stdout
# and its value on stderr (the terminal shows `password=VALUE` whole). In the combined output the
# rule's span is the VALUE only, which lies wholly in stderr, so _crossing() marks nothing; stderr
# redacted alone has no context, so stderr_tail keeps the value verbatim (and stdout_tail the key):
# the secret is fully recoverable from the committed record.
# Exit 1 while a value appears in a tail; 0 when fixed; 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
python - <<'PY' || exit 2
import re
p='.harness/config.yaml'; s=open(p).read()
s2=re.sub(r'redaction:\n  patterns: \[\]', 'redaction:\n  patterns: ["corp_key=(?P<secret>[a-z0-9]{12})"]', s)
assert s2 != s
open(p,'w').write(s2)
PY
git add -A && git commit -qm cfg || exit 2
tails() { harness evidence unit_test --shell -- "$1" >/dev/null 2>&1; python -c "
import json,glob; d=json.load(open(glob.glob('.harness/tasks/*/evidence/unit_test.json')[0]))
print(d.get('stdout_tail'), '|', d.get('stderr_tail'))"; }
# controls: the same text on one stream is redacted
for c in "printf 'password=hunter2hunter2xyzQ\n'" "printf 'corp_key=abcdefabcdef\n'"; do
  o=$(tails "$c"); grep -q 'hunter2hunter2xyzQ\|abcdefabcdef' <<<"$o" && { echo "setup: control leaked: $o" >&2; exit 2; }
done
rc=0
for c in "printf 'password='; sleep 0.3; printf 'hunter2hunter2xyzQ\n' >&2" \
         "printf 'corp_key='; sleep 0.3; printf 'abcdefabcdef\n' >&2"; do
  o=$(tails "$c"); echo "$c  ->  $o"
  grep -q 'hunter2hunter2xyzQ\|abcdefabcdef' <<<"$o" && rc=1
done
git add -A >/dev/null 2>&1; git commit -qm ev >/dev/null 2>&1 && echo "commit accepted"
exit $rc
