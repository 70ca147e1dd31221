#!/usr/bin/env bash
# Defect: a client's one-letter password flag keeps the password in clear when the client is not the first word of
#   its command. harness/core/redact.py, BUILTIN_PATTERNS' password_flag rules built on _AT_COMMAND (read 137's F-0480
#   fix) accept before the client only a line start, `;`, `&`, `|`, `(`, a backtick, `+ `/`$ `/`# `/`> `, `sudo` with
#   bare flags, and a folder. The usual ways to run a database client in CI start it through another program:
#   `docker exec -it redis redis-cli -a PASS`, `kubectl exec redis-0 -- redis-cli -a PASS`, `sudo -u redis redis-cli -a
#   PASS`, `REDIS_HOST=x redis-cli -a PASS`, `env X=1 ...`, `timeout 5 ...`, `bash -c '... -a PASS'`, `then`/`do` bodies,
#   a prompt `user@host:~$ `, `C:\> sqlcmd ... -P PASS`. All of these were redacted at 52b7e8cd and are kept now.
# Correct (docs/threat-model.md: a secret "given after a client's one-letter password flag (`redis-cli -a`, ...
#   `sqlcmd -P` ...)" is redacted before any output reaches disk): the password is redacted in each line.
# Exit 1 while the defect is present (the recorded evidence log holds the password), 0 when fixed, 2 on setup failure.
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
for line in [
    f"docker exec -it redis redis-cli -a {P} ping",
    f"kubectl exec redis-0 -- redis-cli -a {P} ping",
    f"docker compose exec -T db sqlcmd -S localhost -U sa -P {P} -Q 'SELECT 1'",
    f"sudo -u redis redis-cli -a {P} ping",
    f"REDIS_HOST=cache redis-cli -a {P} ping",
    f"env LDAPTLS_REQCERT=never ldapsearch -x -D cn=admin,dc=ex -w {P} -b dc=ex",
    f"timeout 5 redis-cli -a {P} ping",
    f"bash -c 'redis-cli -a {P} ping'",
    f"if true; then redis-cli -a {P} ping; fi",
    f"user@host:~$ redis-cli -a {P} ping",
]:
    print(line)
print("END-OF-OUTPUT")
PY
setup_repo
record
kept=$(grep -c "Zq7rXw2pLm4K" "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password:"; grep "Zq7rXw2pLm4K" "$log"; exit 1; fi
echo "OK: the password is redacted in every line"; exit 0
