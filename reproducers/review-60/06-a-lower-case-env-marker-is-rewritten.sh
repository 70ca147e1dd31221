#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Read 60, of F-0137's fix (harness/core/redact.py _label_span): an `env:` marker's variable name is the harness's
# own text only when it is upper case (`[A-Z_][A-Z0-9_]*`), but the harness writes `env:<name>` for every
# secret-named variable whatever its case (_SECRET_ENV is case-insensitive: `db_password`, npm's lower-case
# `npm_config_*` variables). A project pattern as broad as `[a-z]+_[a-z]+` (read 58's example) then rewrites the
# harness's own marker, `[REDACTED:env:db_password]` -> `[REDACTED:env:[REDACTED:custom]]`: read 58's F-0133
# (markers nested) again, which 1b4ef42 had fixed. Control: the same variable upper case keeps its marker whole.
# Exit 1 while a marker is nested; 0 when fixed; 2 on setup failure.
python - <<'PY' || exit $?
import sys
try:
    from harness.core.redact import compile_patterns
except Exception as exc:
    print("setup:", exc); sys.exit(2)
def once(name):
    red = compile_patterns(["[a-z]+_[a-z]+"], literals={name: "s3cr3tvalue99"})
    out = red.redact("connect s3cr3tvalue99 ok")
    print(f"{name}: {out!r}")
    return out.count("[REDACTED:") > 1
if once("DB_PASSWORD"):
    print("setup: the control's marker is nested"); sys.exit(2)
sys.exit(1 if once("db_password") else 0)
PY
