#!/usr/bin/env bash
# Defect: a double-quoted password holding an escaped quote (`-a "pa\"ss Zq7..."`) is redacted only up to the `\"`;
#   the rest of it stays in clear. harness/core/redact.py, _PASSWORD_VALUE (read 137's F-0481 fix, "a quoted value
#   whole") takes a double-quoted value as `(?<=")[^"\n]{1,256}(?=")`, which stops at the escaped `\"` inside it, so
#   `redis-cli -a "k9\"Zq7rXw2pLm4K" ping` is recorded as `redis-cli -a "[REDACTED:password_flag]"Zq7rXw2pLm4K" ping`.
# Correct (docs/threat-model.md: the secret given after a client's one-letter password flag is redacted): the quoted
#   value is taken to its closing, unescaped quote and no piece of the password is recorded.
# Exit 1 while the defect is present (the recorded evidence log holds the password's rest), 0 when fixed, 2 on setup
# failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v harness >/dev/null || { echo "setup: no harness in $here/.venv"; exit 2; }
# setup_repo: a harness repository whose unit_test evidence runs python3 ci/out.py
setup_repo() {
  ( git init -q -b main && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
# record: run the evidence and print the recorded log's path
record() {
  harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
  log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
  [ -n "$log" ] && grep -q "END-OF-OUTPUT" "$log" || { echo "setup: the output was not recorded"; exit 2; }
}
mkdir ci && cat > ci/out.py <<'PY'
P = "Zq7rXw2pLm4K"
print(f'redis-cli -a "k9\\"{P}" ping')
print(f'sqlcmd -S db -U sa -P "pass word \\" {P}" -Q "SELECT 1"')
print("END-OF-OUTPUT")
PY
setup_repo
record
kept=$(grep -c "Zq7rXw2pLm4K" "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password's rest:"; grep "Zq7rXw2pLm4K" "$log"; exit 1; fi
echo "OK: the quoted password is redacted whole"; exit 0
