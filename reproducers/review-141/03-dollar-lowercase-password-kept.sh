#!/usr/bin/env bash
# Defect: a password made of `$` and lower-case letters, digits or `_` (a human-chosen `$unshine2024`, `$ecret_42`)
#   is kept in clear after every client password flag, even single-quoted as `set -x` prints it.
#   harness/core/redact.py, _PLACEHOLDER (b9230eda) takes `\$[a-z_][a-z0-9_]*` for a shell reference by its whole
#   shape, with no regard to the quote around it: `+ redis-cli -a '$unshine2024' ping`, `+ mongosh -u admin -p
#   '$unshine2024'`, `+ docker login -u ci -p '$unshine2024' reg`, `+ sqlcmd -S db -U sa -P '$unshine2024'`. No shell
#   expands `$` inside single quotes, and bash's `set -x` trace prints an expanded value holding `$` single-quoted, so
#   a single-quoted `'$word'` on a traced command line is the literal password, never a reference.
# Correct (docs/threat-model.md: only a value whose shape is a placeholder or a reference is kept): a `$name` value
#   in single quotes is redacted; an unquoted or double-quoted `$name` / `"$PASS"` stays readable.
# Exit 1 while the defect is present (the recorded evidence log holds the password), 0 when fixed, 2 on setup failure.
#   setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v harness >/dev/null || { echo "setup: no harness in $here/.venv"; exit 2; }
setup_repo() {
  ( git init -q -b main && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
record() {
  harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
  log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
  [ -n "$log" ] && grep -q "END-OF-OUTPUT" "$log" || { echo "setup: the output was not recorded"; exit 2; }
}
mkdir ci && cat > ci/trace.sh <<'SH'
PW='$unshine2024'
set -x
: redis-cli -a "$PW" ping
: mongosh -u admin -p "$PW" --eval 'db.runCommand({ping: 1})'
: docker login -u ci -p "$PW" registry.example.com
: sqlcmd -S db -U sa -P "$PW" -Q 'SELECT 1'
SH
cat > ci/out.py <<'PY'
import subprocess, sys
# the trace bash writes for the commands above (the `:` builtin stands in for the clients)
trace = subprocess.run(["bash", "ci/trace.sh"], capture_output=True, text=True).stderr
print(trace.replace("+ : ", "+ "), end="")
print("END-OF-OUTPUT")
PY
setup_repo
record
grep -q "redis-cli -a '\$unshine2024'" "$log" || grep -q "REDACTED" "$log" || { echo "setup: the trace was not as expected"; cat "$log"; exit 2; }
kept=$(grep -c 'unshine2024' "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password:"; grep 'unshine2024' "$log"; exit 1; fi
echo "OK: the password is redacted in every line"; exit 0
