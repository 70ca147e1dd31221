#!/usr/bin/env bash
# Defect: a client's password flag is kept in clear when the client follows a wrapper's option that takes no value
#   (`sudo -E redis-cli -a PW`, `sudo --preserve-env mongosh -p PW`, `env -i redis-cli -a PW`, `nice -n10 sqlcmd -P
#   PW`, `stdbuf -oL redis-cli -a PW`, `time -p ldapsearch -w PW`, `xargs -r redis-cli -a PW`), as a `set -x` trace
#   or a CI log prints it. harness/core/redact.py, _AT_COMMAND (003c1cb1) takes a client's name after a word for a
#   command only when that word is no option (read 141's F-0500: `-k mongo` is -k's value); but a flag without a
#   value is followed by the command a wrapper runs. At ecf36b00 every one of these lines was redacted.
# Correct (docs/threat-model.md: a client's password flag is redacted wherever the client is started, `sudo` and
#   other wrappers included): the password is redacted; only a word that names an option's value (`-k mongo -p x`)
#   keeps the next flag readable.
# Exit 1 while the defect is present (a recorded line keeps the password), 0 when fixed, 2 on setup failure.
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
PW='Sup3rS3cretPw42'
set -x
: sudo -E redis-cli -a "$PW" ping
: sudo --preserve-env mongosh -u admin -p "$PW" --quiet
: env -i redis-cli -a "$PW" ping
: nice -n10 sqlcmd -S db -U sa -P "$PW" -Q 'SELECT 1'
: stdbuf -oL redis-cli -a "$PW" monitor
: time -p ldapsearch -x -D cn=admin,dc=ex -w "$PW" -b dc=ex
: xargs -r redis-cli -a "$PW" del
SH
cat > ci/out.py <<'PY'
import subprocess
# the trace bash writes for the commands above (the `:` builtin stands in for the wrappers)
trace = subprocess.run(["bash", "ci/trace.sh"], capture_output=True, text=True).stderr
print(trace.replace("+ : ", "+ "), end="")
print("END-OF-OUTPUT")
PY
setup_repo
record
grep -q "+ sudo -E redis-cli -a" "$log" || { echo "setup: the trace was not as expected"; cat "$log"; exit 2; }
kept=$(grep -c 'Sup3rS3cretPw42' "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password:"; grep 'Sup3rS3cretPw42' "$log"; exit 1; fi
echo "OK: the password is redacted in every line"; exit 0
