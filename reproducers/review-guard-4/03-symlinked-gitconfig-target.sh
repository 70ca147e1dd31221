#!/usr/bin/env bash
# F-0021 variant: ~/.gitconfig a symlink into a dotfiles folder (stow, chezmoi, yadm setups).
# The user config files are guarded by name only (not realpath'd, unlike the hooks folders), so
# writing the file git really reads, ~/dotfiles/gitconfig, is allowed.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../review-guard-3/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME/dotfiles" || exit 2
R="$T/repo"; mkdir "$R"; new_repo "$R"
: > "$HOME/dotfiles/gitconfig" && ln -s dotfiles/gitconfig "$HOME/.gitconfig" || exit 2
[ "$(hk "$R" Write "{\"file_path\":\"$HOME/.gitconfig\",\"content\":\"x\"}")" = deny ] || { echo "setup: control" >&2; exit 2; }
printf '[core]\n\thooksPath = /dev/null\n' > "$HOME/dotfiles/gitconfig"
[ "$(git -C "$R" config core.hooksPath)" = /dev/null ] && echo "effect: hooksPath via ~/dotfiles/gitconfig = /dev/null"
: > "$HOME/dotfiles/gitconfig"
fail=0
for call in "Write|{\"file_path\":\"$HOME/dotfiles/gitconfig\",\"content\":\"[core]\\n\\thooksPath = /dev/null\\n\"}" \
            "Bash|{\"command\":\"printf '[core]\\\\n\\\\thooksPath = /dev/null\\\\n' >> $HOME/dotfiles/gitconfig\"}"; do
  a=$(hk "$R" "${call%%|*}" "${call#*|}"); echo "$a: $call"; [ "$a" = deny ] || fail=1
done
exit $fail
