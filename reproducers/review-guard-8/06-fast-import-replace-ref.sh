#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `git fast-import` writes whatever refs its stream names; like `update-ref --stdin` the guard cannot read it
# (the stream can even be in the line). `printf 'reset refs/replace/<HEAD>\nfrom <other>\n' | git fast-import` is
# ALLOWED and writes a replace ref. Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
[ "$(hk "echo x | git update-ref --stdin")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
head=$(git rev-parse HEAD); other=$(git commit-tree -m forged "HEAD^{tree}") || exit 2
c="printf 'reset refs/replace/$head\nfrom $other\n\n' | git fast-import --quiet"
a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
w=$(git for-each-ref refs/replace | grep -q . && echo yes || echo no)
echo "guard: $a  replace ref written: $w, HEAD shown as '$(git log -1 --format=%s HEAD)' : $c"
[ "$a" = allow ] && [ "$w" = yes ] && { echo "DEFECT: git fast-import writes a replace ref; the guard allows it"; exit 1; }
exit 0
