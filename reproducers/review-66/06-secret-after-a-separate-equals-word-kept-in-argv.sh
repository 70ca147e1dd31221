#!/usr/bin/env bash
# Defect: _joined_secrets (harness/core/redact.py) now drops every finding whose value begins the word after one
# ending in `=` (meant for `env GITHUB_TOKEN= sh check.sh`). A command whose `=` is a word of its own,
# `mytool config set password = Hunter2Hunter2`, `sqlite3 app.db "UPDATE users SET password =" Hunter2Hunter2`, has
# its password kept in the recorded argv (events.jsonl, the evidence record); and since the commit check no longer
# reads an argv's words joined as text (secrets_check._values) but only asks redact_argv, it lets the same file in.
# Before read 65's fixes both the writer and the check redacted/refused it (`password = X` joined, as the one-line
# command the same record holds is redacted).
# Correct: a value given to a secret-named key (`password =`, `api_key =`) is redacted in the argv too, and the
# commit check refuses an argv that keeps one.
# Exit 1 while the password reaches .harness/, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
mkdir "$T/bin" && printf '#!/bin/sh\necho "set"\n' > "$T/bin/mytool" && chmod +x "$T/bin/mytool"
PATH="$T/bin:$PATH" harness evidence unit_test -- mytool config set password = Hunter2Hunter2 > "$T/out" 2>&1
ls .harness/tasks/*/evidence/unit_test.json >/dev/null 2>&1 || { echo "setup: no evidence written" >&2; cat "$T/out"; exit 2; }
echo "--- the record's argv and one-line command:"
python3 - .harness/tasks/*/evidence/unit_test.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("argv", "command", "command_line", "shown"):
    if k in d: print("  %s: %s" % (k, json.dumps(d[k])))
EOF
files=$(grep -rl Hunter2Hunter2 .harness/ | tr '\n' ' ')
echo "--- files holding the password: ${files:-(none)}"
# the same, written by hand into a record the agent may add
mkdir -p .harness/notes && printf '{"command": ["sqlite3", "app.db", "UPDATE users SET password =", "Hunter2Hunter2"]}\n' > .harness/notes/fix.json
git add -A .harness >/dev/null 2>&1
if git commit -qm evidence >"$T/c" 2>&1; then committed=yes; else committed=no; fi
echo "--- commit of .harness/ (evidence + hand-written argv) accepted: $committed"; [ $committed = no ] && sed 's/^/  /' "$T/c" | head -5
[ -n "$files" ] || [ $committed = yes ] && { echo "DEFECT: a password after a separate '=' word is kept in an argv (commit accepted: $committed)"; exit 1; }
echo "ok: redacted and refused"; exit 0
