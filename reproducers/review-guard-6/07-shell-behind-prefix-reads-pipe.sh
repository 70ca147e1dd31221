#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# shell_commands._fed_to_a_shell recognises `echo …| bash` only when the right-hand command's FIRST word is a shell
# with option words alone. A prefix the guard strips everywhere else (`sudo`, `env`, `nice`, `command`, `timeout 9`)
# in front of the shell, or the shell given /dev/stdin as its script, hides the pipe: `echo git commit --no-verify
# -m x | sudo bash` is ALLOWED (the here-document rule FEEDS_A_SHELL does allow for `sudo`).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "echo git commit --no-verify -m x | bash")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for sh in "sudo bash" "env bash" "nice bash" "command bash" "timeout 9 sh" "bash /dev/stdin"; do
  c="echo git commit --no-verify -m x | $sh"; a=$(hk "$c"); echo "$a: $c"; [ "$a" = deny ] || fail=1
done
exit $fail
