#!/usr/bin/env bash
# Defect: a client's name given as another program's argument again turns that program's own `-p` into a
#   "password": `pytest -q -k mongo -p no:cacheprovider` (a -k expression, then pytest's plugin flag), `tox -e mongo
#   -p auto` (tox's parallel flag), `docker run --network-alias mongo -p 27017:27017 mongo:7`, `docker run -h mongo -p
#   27017:27017 mongo:7` (docker's port flag) are recorded as `-p [REDACTED:password_flag]`. harness/core/redact.py,
#   _AT_COMMAND (b9230eda): the client now only has to be a word after any whitespace, and only `--name ` and
#   `--hostname ` before it are excluded, so any other argument that names a `mongo` service/container/marker starts
#   the mongo rule (`mongo(?:sh)?\b[^\n|;&]{0,256}?(?<=[ \t])-p`). At 5e533b1f (client at a command's start) these
#   lines were recorded as printed; read 137's F-0480 (`docker run --name mongo -p 27017:27017`) is back in every
#   other spelling.
# Correct: only the password flag of a command that runs the client (the program a command, `sudo`, `docker exec`,
#   `bash -c` starts) is redacted; a `-p` of pytest, tox or docker after a word `mongo` they take as an argument is
#   kept, as `docker run --name mongo -p 27017:27017` is.
# Exit 1 while the defect is present (one of the honest lines is not recorded as printed), 0 when fixed, 2 on setup
#   failure.
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
mkdir ci && cat > ci/out.py <<'PY'
import os
lines = [
    "+ python -m pytest -q -k mongo -p no:cacheprovider tests/integration",
    "+ tox -e mongo -p auto",
    "+ docker run -d --rm --network ci --network-alias mongo -p 27017:27017 mongo:7",
    "+ docker run -d -h mongo -p 27017:27017 mongo:7",
]
open(os.path.join(os.environ["HOME"], "lines.txt"), "w").write("\n".join(lines) + "\n")
for line in lines:
    print(line)
print("END-OF-OUTPUT")
PY
setup_repo
record
bad=0
while IFS= read -r line; do
  if ! grep -qxF -- "$line" "$log"; then
    bad=1; echo "DEFECT: not recorded as printed: $line"; grep -F -- "${line:0:24}" "$log" | sed 's/^/   recorded: /'
  fi
done < "$HOME/lines.txt"
[ "$bad" = 1 ] && exit 1
echo "OK: every honest line is recorded as printed"; exit 0
