#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# COMMAND_KEYS (bypass_git.py:109) lists the settings whose value git runs as a command line, but misses several:
# trailer.<t>.cmd / trailer.<t>.command (run by interpret-trailers, and by `commit --trailer`), difftool.<t>.cmd,
# mergetool.<t>.cmd, man.<t>.cmd (git help -m), browser.<t>.cmd (git help -w / web--browse). A value there is
# not judged, so `git -c KEY='sed -i 1d <ledger>' …` runs the sed, while the same line as core.editor is denied.
#   git -c trailer.x.cmd="sed -i 1d $L" interpret-trailers --trailer x=1 </dev/null
#   echo b > a.txt; git -c difftool.x.cmd="sed -i 1d $L" difftool -y -t x
#   git -c man.viewer=x -c man.x.cmd="sed -i 1d $L" help -m log
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "git -c core.editor='sed -i 1d $L' tag -a v0" "git -c core.pager='sed -i 1d $L' log"
ledger_case "git -c trailer.x.cmd='sed -i 1d $L' interpret-trailers --trailer x=1 </dev/null"
ledger_case "git -c trailer.x.command='sed -i 1d $L' interpret-trailers --trailer x=1 </dev/null"
ledger_case "echo b > a.txt; git -c difftool.x.cmd='sed -i 1d $L' difftool -y -t x"
ledger_case "git -c man.viewer=x -c man.x.cmd='sed -i 1d $L' help -m log"
[ $fail = 1 ] && echo "DEFECT: settings git runs as commands (trailer/difftool/man .cmd) are not judged"
exit $fail
