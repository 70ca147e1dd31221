#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `git config KEY VALUE` of a command key is judged (bypass_git._configured_commands, line 125-127), but KEY is
# taken as the first word that does not start with `-`. With `-f FILE` / `--file FILE` the first such word is
# FILE, so the key is never seen (CONFIG_WITH_VALUE, which knows -f takes a value, is not used there). Writing the
# repository's own config by -f is allowed, and the editor set there runs at the next `git tag -a` / commit.
#   git config -f .git/config core.editor "sed -i 1d $L"; git tag -a v1
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "git config core.editor 'sed -i 1d $L'; git tag -a v0" "git config --file=.git/config core.editor 'sed -i 1d $L'; git tag -a v0"
ledger_case "git config -f .git/config core.editor 'sed -i 1d $L'; git tag -a v1"
ledger_case "git config --file $HOME/.gitconfig core.editor 'sed -i 1d $L'; git tag -a v2"
git config --unset core.editor; git config --global --unset core.editor; true
[ $fail = 1 ] && echo "DEFECT: git config -f FILE KEY VALUE of a command key is not judged"
exit $fail
