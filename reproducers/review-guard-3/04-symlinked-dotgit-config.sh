#!/usr/bin/env bash
# With `.git` a symlink to the git folder (which the agent can make: `mv .git .store`, `ln -s .store .git`,
# both allowed), the Write tool may rewrite `.git/config` (e.g. core.hooksPath = /dev/null): run.py
# realpaths the path before check_write, and guarded_paths.GIT_CONFIGS matches only `.git/config`
# relative to the root. (`echo >> .git/config` stays refused.) Exit 1 while the defect exists.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
R="$T/repo"; mkdir "$R"; new_repo "$R"
echo "mv .git .store: $(hk "$R" Bash '{"command":"mv .git .store"}')"
echo "ln -s .store .git: $(hk "$R" Bash '{"command":"ln -s .store .git"}')"
[ "$(hk "$R" Write '{"file_path":".git/config","content":"x"}')" = deny ] || { echo "setup: control" >&2; exit 2; }
mv "$R/.git" "$R/.store" && ln -s .store "$R/.git" && git -C "$R" rev-parse --git-dir >/dev/null || exit 2
fail=0
a=$(hk "$R" Write '{"file_path":".git/config","content":"[core]\n\thooksPath = /dev/null\n"}'); echo "$a: Write .git/config"; [ "$a" = deny ] || fail=1
a=$(hk "$R" Edit '{"file_path":".git/config","old_string":"bare = false","new_string":"bare = false\n\thooksPath = /dev/null"}'); echo "$a: Edit .git/config"; [ "$a" = deny ] || fail=1
exit $fail
