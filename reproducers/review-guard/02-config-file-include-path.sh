#!/usr/bin/env bash
# git config --file .git/config include.path FILE is allowed (the key check reads the file name as the key).
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
printf '[core]\n\thooksPath = /dev/null\n' > "$REPO/../r2-evil-$$.cfg"
a=$(verdict "git config --file .git/config include.path /tmp/evil.cfg")
b=$(verdict "git config -f .git/config include.path /tmp/evil.cfg")
c=$(verdict "git config --local include.path /tmp/evil.cfg")
rm -f "$REPO/../r2-evil-$$.cfg"
echo "--file: $a  -f: $b  --local (control): $c"
if [ "$a" = allow ] || [ "$b" = allow ]; then echo "DEFECT: include.path through --file/-f is allowed"; exit 1; fi
exit 0
