#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `printf FORMAT ARGS | bash` runs FORMAT with ARGS substituted. shell_commands._printed (f5ac62b's rework) judges
# printf's ARGUMENTS ALONE when there are any, never the format: `printf 'git commit --no-verify -m %s' x | bash`
# is judged as `bash -c x` and ALLOWED. Escapes printf and `echo -e` turn into characters (`\x2d`, `\055` = `-`)
# are judged as written, so `printf 'git commit \055\055no-verify -m x' | bash` is allowed too.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "printf 'git commit --no-verify -m x' | bash")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for p in "printf 'git commit --no-verify -m %s' x" "printf '%s --no-verify -m x' 'git commit'" "printf 'git commit -%s -m x' n" \
         "printf 'git commit \\055\\055no-verify -m x'" "echo -e 'git commit \\x2d-no-verify -m x'"; do
  c="$p | bash"; a=$(hk "$c"); echo "$a: $c   (bash runs: $(eval "$p"))"; [ "$a" = deny ] || fail=1
done
exit $fail
