#!/usr/bin/env bash
# F-0021 variant: a config file that ~/.gitconfig (or .git/config) includes is read by git as much
# as the including file, but is not guarded: writing core.hooksPath into it is allowed and turns the
# repository's harness hooks off. (`[include] path = ~/.gitconfig.local` is a common dotfiles setup.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../review-guard-3/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" || exit 2
R="$T/repo"; mkdir "$R"; new_repo "$R"
printf '[include]\n\tpath = ~/.gitconfig.local\n' > "$HOME/.gitconfig" || exit 2
git -C "$R" config include.path "$R/local.gitconfig" || exit 2
# the effect, in the scratch HOME
printf '[core]\n\thooksPath = /dev/null\n' > "$HOME/.gitconfig.local"
[ "$(git -C "$R" config core.hooksPath)" = /dev/null ] && echo "effect: hooksPath from ~/.gitconfig.local = /dev/null"
rm -f "$HOME/.gitconfig.local"
[ "$(hk "$R" Write "{\"file_path\":\"$HOME/.gitconfig\",\"content\":\"x\"}")" = deny ] || { echo "setup: control" >&2; exit 2; }
fail=0
for call in "Write|{\"file_path\":\"$HOME/.gitconfig.local\",\"content\":\"[core]\\n\\thooksPath = /dev/null\\n\"}" \
            "Bash|{\"command\":\"printf '[core]\\\\n\\\\thooksPath = /dev/null\\\\n' > ~/.gitconfig.local\"}" \
            "Write|{\"file_path\":\"$R/local.gitconfig\",\"content\":\"[core]\\n\\thooksPath = /dev/null\\n\"}"; do
  a=$(hk "$R" "${call%%|*}" "${call#*|}"); echo "$a: $call"; [ "$a" = deny ] || fail=1
done
exit $fail
