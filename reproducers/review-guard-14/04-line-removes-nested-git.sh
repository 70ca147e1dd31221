#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Where.nested (hook_facts.nested_repositories, run.py:146) is read from the disk BEFORE the line runs, and
# Where.in_nested_repository never learns that the line itself takes the nested repository away. In vendor/lib,
# `mv .git .g && git config core.hooksPath /dev/null`: the guard still judges git as acting on vendor/lib
# (exempt), but git now finds the OUTER repository and writes core.hooksPath into its .git/config: every harness
# hook is off (a hand-edited ledger then commits). `mv .git .g && git commit --no-verify …` likewise commits on the
# outer branch without hooks. (Renaming or deleting vendor/lib/.git is itself allowed, and not wrongly so.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
N=$R/vendor/lib
fresh() { rm -rf "$N"; mkdir -p "$N" && (cd "$N" && git init -q && git commit -q --allow-empty -m i) || exit 2; }
fresh
control "git config core.hooksPath /dev/null" "git commit --no-verify --allow-empty -m x"
c="mv .git .g && git config core.hooksPath /dev/null"
a=$(hk "$c" "$N"); ( cd "$N" && bash -c "$c" ) >/dev/null 2>&1
v=$(git -C "$R" config --local core.hooksPath)
echo "guard: $a  outer core.hooksPath now: '${v}' : (in vendor/lib) $c"
[ "$a" = allow ] && [ -n "$v" ] && fail=1; git -C "$R" config --unset core.hooksPath; fresh
c="mv .git .g && git commit -q --no-verify --allow-empty -m skipped-hooks"
head=$(git -C "$R" rev-parse HEAD); a=$(hk "$c" "$N"); ( cd "$N" && bash -c "$c" ) >/dev/null 2>&1
moved=no; [ "$(git -C "$R" rev-parse HEAD)" != "$head" ] && moved=yes
echo "guard: $a  outer branch got a --no-verify commit: $moved : (in vendor/lib) $c"
[ "$a" = allow ] && [ $moved = yes ] && fail=1
[ $fail = 1 ] && echo "DEFECT: a line that removes the nested repository's .git is still judged as git in the nested one"
exit $fail
