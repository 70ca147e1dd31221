#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# git's `ext::` remote transport runs its URL as a command (`ext::sed -i 1d FILE`, with `%` + space for a
# space inside an argument). It is off by default but `-c protocol.ext.allow=always` on the same line turns it
# on. Neither the URL of fetch/ls-remote/clone/push nor protocol.ext.allow is judged, so
#   git -c protocol.ext.allow=always fetch "ext::sed -i 1d $L"
# edits the ledger (git runs the command, then fails to speak the protocol with it). remote.X.url=ext::… set by
# `git remote add` does the same.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d $L" "git -c core.sshCommand='sed -i 1d $L' ls-remote ssh://x/y"
ledger_case "git -c protocol.ext.allow=always fetch 'ext::sed -i 1d $L'"
ledger_case "git -c protocol.ext.allow=always ls-remote 'ext::sh -c sed% -i% 1d% $L'"
ledger_case "git remote add e 'ext::sed -i 1d $L'; git -c protocol.ext.allow=always fetch e"
[ $fail = 1 ] && echo "DEFECT: ext:: transport runs a command line the guard does not judge"
exit $fail
