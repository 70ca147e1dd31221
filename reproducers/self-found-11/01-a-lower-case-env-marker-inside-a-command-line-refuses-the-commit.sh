#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found while fixing F-0149: F-0143's fix took a lower-case secret-named variable's marker (`[REDACTED:env:db_password]`)
# for the harness's own only when it is a whole value. The same marker inside the recorded command line
# (`echo '[REDACTED:env:db_password]'`) or an output line, read at commit in a shell without the variable, is
# taken for a project value of `[a-z]+_[a-z]+` and the commit is refused, though the harness wrote it.
# Exit 1 while refused; 0 when accepted; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
import re
p = ".harness/config.yaml"; s = open(p).read()
s2 = re.sub(r"redaction:\n  patterns: .*", "redaction:\n  patterns: ['[a-z]+_[a-z]+']", s)
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness ) >/dev/null 2>&1 || { echo "setup: commit of the pattern refused" >&2; exit 2; }
db_password=Zq8wQ7pL1xR4vN2 harness evidence build -- echo Zq8wQ7pL1xR4vN2 >/dev/null 2>&1
grep -rqF 'Zq8wQ7pL1xR4vN2' .harness && { echo "setup: the value was recorded" >&2; exit 2; }
grep -rqF '[REDACTED:env:db_password]' .harness || { echo "setup: no marker recorded" >&2; exit 2; }
git add -A >/dev/null 2>&1
if out=$(git commit -qm evidence 2>&1); then echo "the record of a db_password recording: commit accepted"; exit 0; fi
echo "the record of a db_password recording, committed in a shell without it: refused"
echo "$out" | grep -m2 secret-in-harness-files
exit 1
