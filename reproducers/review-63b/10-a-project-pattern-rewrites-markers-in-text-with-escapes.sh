#!/usr/bin/env bash
# Defect (F-0133's fix is incomplete): a project pattern's span inside one of the harness's own markers is dropped
# only in Redactor._plain (via _outside_markers). Redactor.redact first runs _hidden -- the rules over the text's
# views (escape codes removed, %XX / \uXXXX / &#NN; decoded) -- whenever the text holds anything _HIDING matches,
# and _hidden drops nothing: a pattern as broad as the docs' own example `[a-z]+_[a-z]+` rewrites
# `[REDACTED:github_token]` into `[REDACTED:[REDACTED:custom]]` on the second read. So redaction is not idempotent,
# and the write check (_no_secret_in, which redacts the record again) refuses the harness's own record of coloured
# output holding a token: "refusing to write ... holds a secret (custom) ... a harness bug".
# Correct: the record is written ([REDACTED:github_token]) and redacting it again changes nothing.
# Exit 1 while the recording is refused (or the marker rewritten), 0 when written intact, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
p = ".harness/config.yaml"; s = open(p).read()
s2 = s.replace("patterns: []", "patterns: ['[a-z]+_[a-z]+']")
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
python - <<'PY'
from harness.core.redact import compile_patterns
r = compile_patterns(['[a-z]+_[a-z]+'])
once = r.redact('\x1b[31mFAILED\x1b[0m token ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6')
print('redacted once: ', repr(once)); print('redacted twice:', repr(r.redact(once)))
PY
out=$(harness evidence unit_test -- sh -c 'printf "\033[31mFAILED\033[0m test_login with token ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6\n"; exit 1' 2>&1)
echo "$out" | grep -i "refusing"
if [ -f .harness/tasks/*/evidence/unit_test.json ]; then
  grep -q 'REDACTED:github_token' .harness/tasks/*/evidence/unit_test.json && { echo "record written with its marker intact"; exit 0; }
  echo "DEFECT: record written with its marker rewritten"; exit 1
fi
echo "DEFECT: the harness refused to write its own record of coloured output holding a token"; exit 1
