#!/usr/bin/env bash
# Defect (found by the maintainer from bench/hot_evidence.py: 153 modules a recording loads at 017b8f08, 164 after
# the wrapped-token redaction): harness/core/wrapped_lines.py imports the standard library's dataclasses, which
# imports inspect, ast, dis, tokenize and linecache; harness/evidence/outputcut.py imports it at module level, so
# every `harness evidence` pays those imports (about a tenth of its fixed cost, issue 28 item 3), which the project's
# value_class stands in for on hot paths. Correct behaviour: a recording (`harness evidence custom -- true`) loads
# neither dataclasses nor inspect. Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME" "$T/app" && cd "$T/app" || exit 2
{ git init -q -b main && git commit -q --allow-empty -m init && harness init && harness task new t; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
loaded=$(python3 - 2>/dev/null <<'PY'
import sys, atexit
sys.argv = ["harness", "evidence", "custom", "--", "true"]
atexit.register(lambda: sys.__stdout__.write(" ".join(m for m in ("dataclasses", "inspect") if m in sys.modules)))
from harness.cli.launch import entry
try:
    entry()
except SystemExit:
    pass
PY
)
grep -q "custom" .harness/tasks/*/events.jsonl || { echo "setup: nothing recorded"; exit 2; }
if [ -n "$loaded" ]; then echo "DEFECT: a recording loaded: $loaded"; exit 1; fi
echo "OK: a recording loads neither dataclasses nor inspect"; exit 0
