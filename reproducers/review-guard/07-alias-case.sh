#!/usr/bin/env bash
# Git alias names are case-insensitive; the guard looks them up case-sensitively.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
git config alias.ci commit
a=$(verdict "git -c alias.CI='commit -n' CI -m x")
b=$(verdict "git CI -n -m x")
echo "-c alias.CI: $a ; repo alias ci called as CI: $b ; control git ci -n: $(verdict 'git ci -n -m x')"
# git really runs the alias under the other case:
git -c alias.ST='status -s' st >/dev/null 2>&1 && echo "git runs alias.ST as 'st'"
if [ "$a" = allow ] || [ "$b" = allow ]; then echo "DEFECT: commit -n through a differently-cased alias is allowed"; exit 1; fi
exit 0
