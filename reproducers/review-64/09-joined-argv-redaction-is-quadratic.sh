#!/usr/bin/env bash
# Defect: redact._joined_secrets, run on every argv the harness records (evidence, a finding's reproducer, a
# regression test), looks up, for each word, the first finding that covers it with a linear scan of all findings:
# O(words x findings). An argv of many short pairs each harmless alone but found joined (`-u a:b`, `-H
# Authorization: x`) makes the recorder spin: 64,000 pairs (~450 KB, well inside ARG_MAX) take ~100 s where
# 35c53c4's redact_argv took ~2 s; `harness evidence` is held for minutes with the store's lock taken.
# Correct: the joined reading is linear in the argv (findings walked once, in order).
# Exit 1 while 4x the words costs more than 8x the time (and the large argv over 2 s), 0 when linear, 2 on setup
# failure. It also shows `harness evidence` on such an argv under a 30 s timeout.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
python - <<'EOF'
import sys, time
from harness.core.redact import redact_argv
from harness.store.secrets_check import redactor
red = redactor(())
def took(n):
    argv = ["-H", "Authorization:", "tok3nvalue"] * n  # (was `-u a:b`, which F-0217 reads as curl's alone)
    s = time.perf_counter(); out = redact_argv(argv, red); d = time.perf_counter() - s
    assert out[2] != "tok3nvalue", out[:3]
    return d
took(100)
small, large = took(4000), took(16000)
print(f"redact_argv: 8,000 words {small:.2f}s, 32,000 words {large:.2f}s (x{large / small:.1f} for x4 the words)")
sys.exit(1 if large / small > 8 and large > 2 else 0)
EOF
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || exit 2
args=(); for i in $(seq 27000); do args+=(-H Authorization: tok3nvalue); done
s=$(date +%s); timeout 30 harness evidence custom.many -- true "${args[@]}" >/dev/null 2>&1; e=$?; d=$(( $(date +%s) - s ))
echo "harness evidence with 80,000 words: exit $e after ${d}s$([ $e = 124 ] && echo ' (killed by the 30 s timeout)')"
[ $rc = 1 ] && echo "DEFECT: the joined argv reading is quadratic"
exit $rc
