#!/usr/bin/env bash
# Defect: when a command's output passes log_cap_bytes, outputcut.log_text joins the redacted head and tail with
# the harness's own line "[harness: N bytes of output omitted here; M bytes in all]", written after redaction.
# The write check (store/tasks._no_secret_in -> secrets_check.secrets_in) reads the whole log with the project's
# redaction.patterns, which the harness's own text is not shielded from: a project pattern for 7-10 digit account
# numbers, `\b[0-9]{7,10}\b`, matches the byte counts, and every recording of more than log_cap_bytes (8 MiB by
# default) is refused as "a harness bug". Correct: the harness's own omitted-marker is written and accepted (it
# holds no project value). Exit 1 while the recording is refused, 0 when written, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
p = ".harness/config.yaml"; s = open(p).read()
s2 = s.replace("patterns: []", "patterns: ['\\b[0-9]{7,10}\\b']")
assert s2 != s
open(p, "w").write(s2)
PY
harness task new t >/dev/null 2>&1 || exit 2   # (config.yaml left uncommitted: see 05)
# 9 MB of ordinary test output (no digits at all), over the default log_cap_bytes of 8 MiB
out=$(harness evidence unit_test -- python -c "
import sys
for i in range(300000): sys.stdout.write('test_case ok ....................\n')" 2>&1); rc=$?
echo "harness evidence unit_test (9 MB of output, no digits in it) -> exit $rc"
echo "$out" | grep -i "refusing"
if [ -f .harness/tasks/*/evidence/unit_test.log ]; then
  echo "log written: $(grep -a '^\[harness:' .harness/tasks/*/evidence/unit_test.log)"; exit 0
fi
echo "DEFECT: the recording was refused for the harness's own '[harness: N bytes ... omitted]' line"; exit 1
