#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The nested-repository exemption (bypass_git.check_git line 65-68) skips _check_config_sources and
# _check_stamps_and_hooks_path for every `git config`, but only the nested repository's OWN config is the nested
# repository's business. `git config --global core.hooksPath /dev/null` writes the user's ~/.gitconfig (read by the
# outer repository too, whose hooks live in .git/hooks with no core.hooksPath of its own), and
# `git config --file ../../.git/config core.hooksPath /dev/null` writes the outer repository's config directly.
# Either turns off every harness hook of the outer repository: a commit of a hand-edited ledger, refused by the
# pre-commit hook before, goes through after.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p vendor/lib && (cd vendor/lib && git init -q && git commit -q --allow-empty -m i) || exit 2
N=$R/vendor/lib
control "git config --global core.hooksPath /dev/null" "git config core.hooksPath /dev/null"
hooks_off() { # whether the outer repository's pre-commit lets a hand-edited ledger be committed
  local ok=1; sed -i 1d "$L"; git add "$L"
  git commit -qm hand >/dev/null 2>&1 && { ok=0; git reset -q --hard HEAD~1; }
  git reset -q --hard HEAD; return $ok
}
hooks_off && { echo "setup: hooks already off" >&2; exit 2; }
for c in "git config --global core.hooksPath /dev/null" "git config --file ../../.git/config core.hooksPath /dev/null"; do
  a=$(hk "$c" "$N"); ( cd "$N" && bash -c "$c" ) >/dev/null 2>&1
  off=no; hooks_off && off=yes
  echo "guard: $a  outer hooks off afterwards: $off : (in vendor/lib) $c"
  [ "$a" = allow ] && [ $off = yes ] && fail=1
  git config --global --unset core.hooksPath; git config --unset core.hooksPath
done
[ $fail = 1 ] && echo "DEFECT: git config in a nested repository may write the global or the outer repository's config"
exit $fail
