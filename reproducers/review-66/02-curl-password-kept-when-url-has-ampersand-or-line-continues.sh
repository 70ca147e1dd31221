#!/usr/bin/env bash
# Defect: user_password is now read on a curl command line only, as `\bcurl\b[^\n|;&]{0,512}?...-u` (read 65's
# F-0217). Any `&`, `;` or line break between `curl` and `-u` hides the password: a query string
# (`"https://api/items?page=1&per_page=50" -u admin:PW`), a header with a parameter
# (`-H "Content-Type: application/json; charset=utf-8" -u admin:PW`) or a command continued over lines
# (`curl -sS \` / `  -u admin:PW \`). Before read 65's fixes every one of these had its password redacted. The
# recorded command, the evidence log (`sh -x`'s trace) and the commit check all keep it.
# Correct: the password after curl's `-u user:` is redacted whatever the URL or headers hold and however the command
# is wrapped, in everything written under .harness/, and the commit check refuses it.
# Exit 1 while the password reaches .harness/, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
# a stand-in curl outside the source tree, so the run needs no network
mkdir "$T/bin" && printf '#!/bin/sh\necho "{}"\n' > "$T/bin/curl" && chmod +x "$T/bin/curl"
cat > smoke.sh <<'EOF'
curl -sS \
  -u admin:Wrap9Passw0rd \
  https://api.example.com/health
EOF
git add -A && git commit -qm smoke >/dev/null 2>&1 || exit 2
PATH="$T/bin:$PATH" harness evidence unit_test --shell -- \
  'curl -sS "https://api.example.com/items?page=1&per_page=50" -u admin:Amp9Passw0rd && cat smoke.sh && sh smoke.sh' \
  > "$T/out" 2>&1
PATH="$T/bin:$PATH" harness evidence lint -- \
  curl -H "Content-Type: application/json; charset=utf-8" -u admin:Semi9Passw0rd https://api.example.com/x \
  >> "$T/out" 2>&1
ls .harness/tasks/*/evidence/*.json >/dev/null 2>&1 || { echo "setup: no evidence written" >&2; cat "$T/out"; exit 2; }
echo "--- passwords found under .harness/:"
found=0
for pw in Amp9Passw0rd Wrap9Passw0rd Semi9Passw0rd; do
  files=$(grep -rl "$pw" .harness/ 2>/dev/null | tr '\n' ' ')
  [ -n "$files" ] && { found=1; echo "  $pw in: $files"; }
done
grep -rhoE '(curl|-u) [^"]{0,60}Passw0rd' .harness/tasks/*/evidence/ 2>/dev/null | sort -u | head -5 | sed 's/^/  kept: /'
git add -A .harness >/dev/null 2>&1
if git commit -qm evidence >/dev/null 2>&1; then committed=yes; else committed=no; fi
echo "--- commit of .harness/ accepted: $committed"
[ $found = 1 ] && { echo "DEFECT: curl's -u password was written to .harness/ (commit accepted: $committed)"; exit 1; }
echo "ok: no password kept"; exit 0
