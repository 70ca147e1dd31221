#!/usr/bin/env bash
# Compiled(Validator(S)).valid(doc) must equal `not any(Validator(S).problems(doc))` for every schema and document.
# On a recursive schema the predicate uses more stack frames per nesting level than the problem walk, so a
# nested array 200 deep that the walk calls valid makes valid() raise RecursionError.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python - <<'PY'
import sys
try:
    from harness.store.schema_check import Validator
    from harness.store.schema_valid import Compiled
except Exception as e:
    print("setup:", e); sys.exit(2)
S = {"$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}
for depth in range(50, 400, 5):
    doc = []
    for _ in range(depth):
        doc = [doc]
    v = Validator(S)
    try:
        walk = not any(v.problems(doc))
    except RecursionError:
        continue  # the walk itself cannot answer: nothing to compare
    try:
        pred = Compiled(v).valid(doc)
    except RecursionError:
        print(f"DEFECT: depth {depth}: problems() finds none (valid={walk}), Compiled.valid raises RecursionError")
        sys.exit(1)
    if pred != walk:
        print(f"DEFECT: depth {depth}: walk {walk}, predicate {pred}"); sys.exit(1)
print("ok"); sys.exit(0)
PY
