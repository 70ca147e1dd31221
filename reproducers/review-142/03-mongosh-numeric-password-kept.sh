#!/usr/bin/env bash
# Defect: a numeric password given to the mongo shells' `-p` is kept in clear: `mongosh -u admin -p 83920175
#   --quiet`, `mongo -u root -p=20240517 admin`. harness/core/redact.py, the mongo branch of the password_flag rule
#   (003c1cb1) skips a value of digits alone as "a port" (`(?![0-9]+(?:\s|$))`), but in mongosh and the legacy mongo
#   shell `-p` is only `--password` (the port is `--port`, which has no short form); the ports the read-141 finding
#   was about belong to docker/tox/pytest after a `mongo` argument, which _AT_COMMAND now tells apart by itself. At
#   ecf36b00 both lines were redacted.
# Correct: the value of the mongo shells' `-p`, digits or not, is redacted (`mongosh --port 27017` stays readable).
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
mkdir ci && cat > ci/out.py <<'PY'
print("+ mongosh -u admin -p 83920175 --quiet mongodb://db:27017/app")
print("+ mongo -u root -p=83920175 admin")
print("+ mongosh --port 27017 --quiet")
print("END-OF-OUTPUT")
PY
setup_repo
record
grep -q "mongosh --port 27017 --quiet" "$log" || { echo "setup: the output was not as expected (the port line)"; cat "$log"; exit 2; }
kept=$(grep -c '83920175' "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password:"; grep '83920175' "$log"; exit 1; fi
echo "OK: the password is redacted in every line"; exit 0
