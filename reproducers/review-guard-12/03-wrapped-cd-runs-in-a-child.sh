#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `env cd DIR`, `nice cd DIR`, `timeout 5 cd DIR`, `nohup cd DIR` run the cd PROGRAM in a child (POSIX requires
# one; Fedora/RHEL and macOS ship /usr/bin/cd = `builtin cd "$@"`): it succeeds and the shell does NOT move.
# The guard unwraps the prefix, sees a cd, and on a plain `&&` line REPLACES the folder with DIR (bypass.py
# _enter, `chained`), so the rest is judged in DIR only:
#   env cd /tmp && sed -i 1d .harness/tasks/T/events.jsonl    (allowed; edits the ledger where /usr/bin/cd exists)
#   nice cd /tmp && rm -rf .harness                            (allowed)
# This machine has no /usr/bin/cd, so the reproducer puts Fedora's script first on PATH.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p "$T/bin" && printf '#!/bin/bash\nbuiltin cd "$@"\n' > "$T/bin/cd" && chmod +x "$T/bin/cd" && export PATH="$T/bin:$PATH"
control "sed -i 1d $L" "rm -rf .harness"
for p in "env" "nice" "timeout 5" "nohup" "env -i PATH=$PATH"; do
  ledger_case "$p cd /tmp && sed -i 1d $L"
done
a=$(hk "nice cd /tmp && rm -rf .harness"); echo "guard: $a : nice cd /tmp && rm -rf .harness (not run)"; [ "$a" = allow ] && fail=1
[ $fail = 1 ] && echo "DEFECT: a cd run as a program (a child) is taken as moving the line; the commands after it are judged elsewhere"
exit $fail
