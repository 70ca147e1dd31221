#!/usr/bin/env bash
# Defect: a client's password flag is kept in clear whenever the client follows a control operator and a space
#   (`cd /srv && redis-cli -a PW`, `true; mongosh -p PW`, `echo PING | redis-cli -a PW`, `false || sqlcmd -P PW`) or
#   starts an indented line (a script's or a CI step's body: `  redis-cli -a PW`). harness/core/redact.py,
#   _AT_COMMAND (003c1cb1) accepts the client only right after `;&|(`'"` or a newline (no space between), at the
#   text's start, or after a WORD that is no option; `&&`, `;`, `|` and leading blanks are none of these, so
#   redis-cli, ldapsearch, sqlcmd/bcp/osql, zip/unzip, mongo/mongosh and the Samba tools all go unredacted there.
#   At ecf36b00 (the client after any whitespace) every one of these lines was redacted.
# Correct (docs/threat-model.md: a client's password flag is redacted wherever the client is started): the client
#   after `&& `, `|| `, `; `, `| ` or at an indented line's start is a command's start; its password is redacted.
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
PW = "Sup3rS3cretPw41"
for line in [f"cd /srv && redis-cli -a {PW} ping",
             f"true; mongosh -u admin -p {PW} --quiet",
             f"echo PING | redis-cli -a {PW}",
             f"false || sqlcmd -S db -U sa -P {PW} -Q 'SELECT 1'",
             f"cd /srv && ldapsearch -x -D cn=admin,dc=ex -w {PW} -b dc=ex",
             f"cd out && zip -P {PW} bundle.zip data.txt",
             f"cd /srv && smbclient //files/share -U admin%{PW} -c ls",
             f"    redis-cli -a {PW} ping"]:
    print(line)
print("END-OF-OUTPUT")
PY
setup_repo
record
grep -q "cd /srv && redis-cli -a" "$log" || { echo "setup: the output was not as expected"; cat "$log"; exit 2; }
kept=$(grep -c 'Sup3rS3cretPw41' "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password:"; grep 'Sup3rS3cretPw41' "$log"; exit 1; fi
echo "OK: the password is redacted in every line"; exit 0
