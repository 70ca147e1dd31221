#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `git --config-env=KEY=VAR` sets KEY to the value of the environment variable VAR. check_git records it as an
# opaque config source (bypass_git.py:234-236), under which only commit and push machinery is refused; the
# command-line settings (_configured_commands) read only -c pairs and VAR=… assignments named in
# COMMAND_VARIABLES. So `V='sed -i 1d <ledger>' git --config-env=core.editor=V tag -a v` runs the sed as the editor.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "git -c core.editor='sed -i 1d $L' tag -a v0" "GIT_EDITOR='sed -i 1d $L' git tag -a v0"
ledger_case "V='sed -i 1d $L' git --config-env=core.editor=V tag -a v1"
[ $fail = 1 ] && echo "DEFECT: --config-env of a command key runs an unjudged line"
exit $fail
