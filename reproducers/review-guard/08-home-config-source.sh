#!/usr/bin/env bash
# HOME= / XDG_CONFIG_HOME= point git at a global config the guard cannot see (as GIT_CONFIG_GLOBAL does); commit allowed.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
FAKE=$(mktemp -d); trap 'rm -rf "$REPO" "$FAKE"' EXIT
printf '[core]\n\thooksPath = /dev/null\n' > "$FAKE/.gitconfig"
mkdir -p "$FAKE/git" && cp "$FAKE/.gitconfig" "$FAKE/git/config"
w=$(verdict "printf '[core]\\n\\thooksPath = /dev/null\\n' > $FAKE/.gitconfig")
a=$(verdict "HOME=$FAKE git commit -m wip")
b=$(verdict "XDG_CONFIG_HOME=$FAKE git commit -m wip")
g=$(verdict "GIT_CONFIG_GLOBAL=$FAKE/.gitconfig git commit -m wip")
echo "write fake global config: $w ; HOME=: $a ; XDG_CONFIG_HOME=: $b ; control GIT_CONFIG_GLOBAL=: $g"
echo "git's view under HOME=: $(HOME=$FAKE git config core.hooksPath)"
if [ "$a" = allow ] || [ "$b" = allow ]; then echo "DEFECT: a commit under a global config the guard cannot read is allowed"; exit 1; fi
exit 0
