#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `echo git commit --no-verify -m x | bash` is denied (shell_commands._fed_to_a_shell, in the bashlex walk and
# in plain_line's path). But when anything else on the line makes bashlex give up (`[[ ]]`, `case`, `$((…))`),
# shell_commands._fallback_commands (shlex) reads the line, and it has no echo/printf-into-a-shell step: the
# same pipeline is then ALLOWED, and bash runs `git commit --no-verify -m x`.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "echo git commit --no-verify -m x | bash")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for c in "[[ -d . ]]; echo git commit --no-verify -m x | bash" \
         "echo git commit --no-verify -m x | bash; case a in a) ;; esac" \
         "echo 'git push --no-verify' | sh; echo \$((1+1))" \
         "printf 'git commit -n -m x' | bash # [[ "; do
  a=$(hk "$c"); echo "$a: $c"; [ "$a" = deny ] || fail=1
done
exit $fail
