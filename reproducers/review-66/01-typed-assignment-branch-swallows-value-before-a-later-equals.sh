#!/usr/bin/env bash
# Defect: the new `: TYPE =` branch of _ASSIGN (harness/core/redact.py) lets the "type" hold spaces and commas and
# is tried before the plain `:` branch, so in `password: Hunter2024xyz retries = 3` the secret itself
# (`Hunter2024xyz retries`) is read as a type name and only `3` is redacted. Before read 65's fixes the type could
# not hold spaces and the value `Hunter2024xyz` was redacted. A command printing such a line has the password
# written into .harness/ (the evidence log) and the commit check, which reads with the same rules, lets it in.
# Correct: `password: VALUE words = x` keeps no VALUE: the value after `password:` is redacted (as before), both in
# the evidence the harness writes and by the commit check.
# Exit 1 while the password reaches .harness/ or is committed, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
cat > show.sh <<'EOF'
# a test that prints the settings it connected with
echo "db settings -> password: Hunter2024xyz retries = 3"
echo "api settings -> token: q8Zr41kLmn0p expires_in = 3600"
EOF
git add show.sh && git commit -qm show >/dev/null 2>&1 || exit 2
harness evidence unit_test -- sh show.sh > "$T/out" 2>&1
echo "--- what the command printed:"; sed 's/^/  /' "$T/out" | grep settings
leaked=$(grep -rl -e Hunter2024xyz -e q8Zr41kLmn0p .harness/ 2>/dev/null)
[ -n "$(ls -A .harness/tasks/*/evidence 2>/dev/null)" ] || [ -n "$leaked" ] || { echo "setup: no evidence written" >&2; exit 2; }
echo "--- .harness/ files holding a value:"; echo "${leaked:-  (none)}" | sed 's/^/  /'
grep -rh -o -e '[a-z]*: [^ ]* [a-z_]* = [^ "]*' .harness/tasks/*/evidence 2>/dev/null | sort -u | sed 's/^/  kept: /'
git add -A .harness >/dev/null 2>&1
if git commit -qm evidence >/dev/null 2>&1; then committed=yes; else committed=no; fi
echo "--- commit of .harness/ accepted: $committed"
python - <<'EOF'
from harness.store.secrets_check import redactor
r = redactor()
for s in ("password: Hunter2024xyz retries = 3", "password: Hunter2024xyz, user = admin"):
    print("  redact(%r) = %r" % (s, r.redact(s)))
EOF
if [ -n "$leaked" ]; then echo "DEFECT: the value after 'password:'/'token:' reached .harness/ (commit accepted: $committed)"; exit 1; fi
echo "ok: no value kept"; exit 0
