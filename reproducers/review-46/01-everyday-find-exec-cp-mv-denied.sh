#!/usr/bin/env bash
# A false refusal (read 46 of F-0052/F-0053's rules): in a repository with a harmless link (a venv's lib64 -> lib)
# or more than 2,000 entries, everyday lines were denied: `find . -name '*.pyc' -exec rm {} +`,
# `mv venv venv.old && ls`, `cp -r src "$TMPDIR/x" && ls`. Exit 1 while any is denied, 0 when all are allowed,
# 2 on setup failure.
. "$(dirname "$0")/common.inc"
mkdir -p src venv/lib && ln -s lib venv/lib64 || exit 2
denied=0
for c in "find . -name '*.pyc' -exec rm {} +" "find . -name __pycache__ -type d -exec rm -rf {} +" \
         'mv venv venv.old && ls'; do a=$(ask "$c"); echo "$a: $c"; [ "$a" = deny ] && denied=1; done
rm -rf venv; for i in $(seq 1 2100); do : > "src/f$i.py"; done
for c in "find . -name '*.pyc' -exec rm {} +" "find src -name '*.py' -exec grep -l x {} +" 'cp -r src "$TMPDIR/x" && ls' \
         'mv src src2 && ls'; do a=$(ask "$c"); echo "$a: $c"; [ "$a" = deny ] && denied=1; done
exit $denied
