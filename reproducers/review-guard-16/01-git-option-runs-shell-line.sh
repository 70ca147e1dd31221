#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# git subcommands whose own options are shell lines git runs are not judged: `git rebase -x/--exec CMD` runs CMD
# after each commit it replays, `git difftool -x/--extcmd CMD` runs CMD for each changed file. bypass_git.check_git
# judges the lines git runs from settings (_configured_commands: -c core.editor=…, EDITOR=…) and `!` aliases, but
# not these options, so the same `sed` that is denied written plainly (or as -c core.editor=…) runs unjudged.
#   git rebase -q -x "sed -i 1d $L" --root
#   echo b > a.txt; git difftool -y -x "sed -i 1d $L"
#   echo b > a.txt; git difftool -y --extcmd="sed -i 1d $L"
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d $L" "git -c core.editor='sed -i 1d $L' tag -a v0"
ledger_case "git rebase -q -x 'sed -i 1d $L' --root"
ledger_case "echo b > a.txt; git difftool -y -x 'sed -i 1d $L'"
ledger_case "echo b > a.txt; git difftool -y --extcmd='sed -i 1d $L'"
[ $fail = 1 ] && echo "DEFECT: rebase --exec / difftool --extcmd run a shell line the guard does not judge"
exit $fail
