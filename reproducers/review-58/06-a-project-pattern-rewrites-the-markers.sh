#!/usr/bin/env bash
# Read 58's observation: a project pattern that matches a marker's own text ([a-z]+_[a-z]+ matches
# `aws_access` in `[REDACTED:aws_access_key_id]`) rewrites the marker, and F-0126's rounds rewrite it again:
# `[REDACTED:[REDACTED:custom]_[REDACTED:custom]]`, nested deeper with `[A-Z]+`; redacting the result again
# changes it (the promise "a text redacted once reads the same redacted again" does not hold), and each round
# costs a scan. Exit 1 while a marker is rewritten or redaction is not idempotent; 0 when fixed; 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
python - <<'PY' || exit $?
import sys
try:
    from harness.core.redact import compile_patterns
except Exception as exc:
    print("setup:", exc); sys.exit(2)
bad = 0
for pattern in ("[a-z]+_[a-z]+", "[A-Z]+"):
    red = compile_patterns([pattern])
    once = red.redact("id AKIAIOSFODNN7EXAMPLE used")
    nested = once.count("[REDACTED:") > 1
    again = red.redact(once) != once
    print(f"{pattern}: {once!r}; nested markers: {nested}; changed when redacted again: {again}")
    bad += nested or again
sys.exit(1 if bad else 0)
PY
