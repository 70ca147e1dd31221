#!/usr/bin/env bash
# `git config --global core.hooksPath X` is refused, but writing the same setting into the global
# git config file (~/.gitconfig, ~/.config/git/config) with the Write tool or a redirect is allowed:
# git then runs no harness hook in the repository. Exit 1 while the defect exists.
# (Only the guard is asked; no real home folder is touched: HOME is a scratch dir.)
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
R="$T/repo"; mkdir "$R"; new_repo "$R"
export HOME="$T/home"; mkdir -p "$HOME" || exit 2
[ "$(hk "$R" Bash '{"command":"git config --global core.hooksPath /dev/null"}')" = deny ] || { echo "setup: control" >&2; exit 2; }
# demonstrate the effect in the scratch HOME: the global setting turns the repository's hooks off
printf '[core]\n\thooksPath = /dev/null\n' > "$HOME/.gitconfig"
[ "$(git -C "$R" config core.hooksPath)" = /dev/null ] && echo "effect: git -C repo config core.hooksPath = /dev/null"
rm -f "$HOME/.gitconfig"
fail=0
for call in "Write|{\"file_path\":\"$HOME/.gitconfig\",\"content\":\"[core]\\n\\thooksPath = /dev/null\\n\"}" \
            "Write|{\"file_path\":\"$HOME/.config/git/config\",\"content\":\"[core]\\n\\thooksPath = /dev/null\\n\"}" \
            "Bash|{\"command\":\"printf '[core]\\\\n\\\\thooksPath = /dev/null\\\\n' >> $HOME/.gitconfig\"}"; do
  a=$(hk "$R" "${call%%|*}" "${call#*|}"); echo "$a: $call"; [ "$a" = deny ] || fail=1
done
exit $fail
