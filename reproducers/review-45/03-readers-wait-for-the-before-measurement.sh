#!/usr/bin/env bash
# The measurement before the run was awaited under the store's exclusive lock, so every reader (status, the
# agent hooks) waited for it, and a clean filter that runs harness deadlocked. A clean filter that takes 6 s
# makes the measurement slow; `harness status` run 1.5 s in, allowed 0.5 s for the lock, gives up while the
# lock is held (exit 2). Exit 1 while it does, 0 when it reads, 2 on setup failure.
. "$(dirname "$0")/common.inc"
printf '#!/bin/sh\nsleep 6\ncat\n' > "$T/slow-filter"; chmod +x "$T/slow-filter"
echo '*.py filter=slow' > .gitattributes; git config filter.slow.clean "$T/slow-filter"; echo y > app.py
harness evidence custom -- true >/dev/null 2>&1 &
sleep 1.5
HARNESS_LOCK_TIMEOUT=0.5 harness status >/dev/null 2>"$T/status.err"; rc=$?; wait
head -1 "$T/status.err"
case $rc in 0) exit 0 ;; 2) grep -q "waiting for the harness lock" "$T/status.err" && exit 1 || exit 2 ;; *) exit 2 ;; esac
