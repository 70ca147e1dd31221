#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Redactor._plain (harness/core/redact.py) now runs every rule on the text as written. Rule by rule, a
# self-identifying token (AKIA…, AIza…, ghp_…, npm_…) was replaced first, and its marker's `]` was the boundary
# the context rules need before their words: `\bauthorization`, `\bbearer`, secret_flag's
# `(?<![A-Za-z0-9_\-])-`, openai_key's `(?<![A-Za-z])sk-`. Read as written, the token's last letter is glued to
# those words, so `AKIA…--password V`, `AIza…bearer V`, `AKIA…sk-proj…` leave V in clear, and redaction is no
# longer idempotent: redact(redact(x)) hides V. The writer's own check (that second pass) then refuses the
# evidence record as "a harness bug", so such output can no longer be recorded at all (e64de10 recorded it,
# redacted).
# Exit 1 while the value survives one redaction or the record is refused; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
rc=0
python - <<'PY' || rc=1
import sys
from harness.core.redact import compile_patterns
red = compile_patterns(detector=True)
V = "Tr0ub4dor-and-3-horses"
bad = 0
for text in ["deploy AKIAQWERTYUIOPASDFGH--password " + V, "key AIza" + "B" * 35 + "bearer Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS",
             "id AKIAQWERTYUIOPASDFGH-token " + V]:
    once = red.redact(text)
    left = V in once or "Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS" in once
    print(("LEAK" if left else "ok  "), "one pass:", once.replace(V, "<V>").replace("Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS", "<V>"),
          "| idempotent:", red.redact(once) == once)
    bad += left
sys.exit(1 if bad else 0)
PY
export K1=AKIAQWERTYUIOPASDFGH K2=Tr0ub4dor-and-3-horses
out=$(harness evidence unit_test -- python -c "import os; print('deploy ' + os.environ['K1'] + '--password ' + os.environ['K2'])" 2>&1 >/dev/null); st=$?
if grep -rq -- "$K2" .harness; then echo "evidence: the value in clear under .harness/"; rc=1; fi
if [ $st != 0 ]; then echo "evidence: recording refused (exit $st): $(printf '%s' "$out" | grep -o 'refusing to write[^;]*' | head -1)"; rc=1
else echo "evidence: recorded"; fi
exit $rc
