#!/bin/bash
# Issue #26 friction 6 / item 4: one `Next:` format on every command, from one place (`next:` inline in
# lower case on some commands was the friction). `harness init` still prints its own lower-case
# `next: ...` lines (cli/setup.py), not the `Next:` block next_step.render() gives every other command.
H=$(command -v harness)
D=$(mktemp -d); cd "$D" || exit 99
git init -q . && git config user.email a@b && git config user.name n
echo 'x = 1' > app.py; git add -A; git commit -qm init
out=$("$H" init 2>&1) || exit 90
echo "$out"
if echo "$out" | grep -q '^next: '; then echo "DEFECT: init prints lower-case inline next: lines"; exit 1; fi
echo "$out" | grep -q '^Next: ' || { echo "DEFECT: init prints no Next: block"; exit 1; }
exit 0
