#!/usr/bin/env bash
# Defect: a password that merely starts with `*`, `%`, `{` or `<` is kept in clear after a password flag.
#   harness/core/redact.py, _PASSWORD_VALUE (read 137's F-0482 fix) refuses any value whose first character is one of
#   `$ * < % { -` (`(?![$*<%{\-])`), to keep placeholders and references (`****`, `%VAR%`, `{{ var }}`, `<password>`,
#   `${VAR}`). But the whole value is not checked against those shapes: `redis-cli -a *Zq7rXw2pLm4K`, `docker login -p
#   %Zq7rXw2pLm4K`, `sqlcmd -P {Zq7rXw2pLm4K`, `smbclient -U user%*Zq7rXw2pLm4K` (generated passwords often begin with
#   a symbol) are kept, all of them redacted at 52b7e8cd.
# Correct (docs/threat-model.md: only a value whose *shape* is a placeholder (`****`, `<redacted>`) or a reference
#   (`${VAR}`, `"$(cat file)"`) is kept): these passwords are redacted; `****`, `%PASS%`, `{{ pass }}`, `<password>`
#   stay readable.
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
    f"redis-cli -a *{P} ping",
    f"redis-cli -a %{P} ping",
    f"docker login -u ci -p %{P} registry.example.com",
    f"sqlcmd -S db -U sa -P {{{P} -Q 'SELECT 1'",
    f"ldapsearch -x -D cn=admin,dc=ex -w '<{P}' -b dc=ex",
    f"smbclient //fs/share -U svc%*{P} -c ls",
]:
    print(line)
print("END-OF-OUTPUT")
PY
setup_repo
record
kept=$(grep -c "Zq7rXw2pLm4K" "$log")
if [ "$kept" -gt 0 ]; then echo "DEFECT: $kept recorded lines keep the password:"; grep "Zq7rXw2pLm4K" "$log"; exit 1; fi
echo "OK: the password is redacted in every line"; exit 0
