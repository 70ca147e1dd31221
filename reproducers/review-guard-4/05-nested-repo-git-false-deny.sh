#!/usr/bin/env bash
# F-0020 regression (false deny): in a nested repository WITHOUT a harness (vendor/lib, its own
# .git), guarded_root walks past it to the outer harness repo, and the outer repo's git rules judge
# git commands that act only on the nested repo: `git commit --no-verify` and
# `git config core.hooksPath .githooks` there are denied (before F-0020 the nested repo, having no
# harness, was allowed), while `rm -rf .git/hooks` in the same folder is allowed.
# Exit 1 while denied, 0 when allowed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../review-guard-3/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" || exit 2
R="$T/repo"; mkdir "$R"; new_repo "$R"
V="$R/vendor/lib"; mkdir -p "$V" && git init -q "$V" || exit 2
[ "$(git -C "$V" rev-parse --show-toplevel)" = "$(cd "$V" && pwd -P)" ] || exit 2
[ "$(hk "$R" Bash '{"command":"git commit --no-verify -m x"}')" = deny ] || { echo "setup: control" >&2; exit 2; }
fail=0
for c in "git commit --no-verify -m vendored" "git config core.hooksPath .githooks"; do
  a=$(hk "$V" Bash "{\"command\":\"$c\"}"); echo "$a (cwd vendor/lib, no harness): $c"; [ "$a" = allow ] || fail=1
done
exit $fail
