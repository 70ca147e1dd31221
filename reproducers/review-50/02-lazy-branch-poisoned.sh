#!/usr/bin/env bash
# Compiled.of() registers a forwarder in _done before building; if the build raises (here: RecursionError
# inside the lazy per-branch build of _all_of, hit while checking one too-deep document), the forwarder with an
# empty cell stays cached forever, and every later document reaching that branch raises IndexError,
# although the schema walk says it is valid. (validate.predicate is functools.cache'd: the process keeps it.)
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python - <<'PY'
import sys
try:
    from harness.store.schema_check import Validator
    from harness.store.schema_valid import Compiled
except Exception as e:
    print("setup:", e); sys.exit(2)
deep = {"type": "string"}
for i in range(12):
    deep = {"properties": {"p%d" % i: deep}, "required": []}
S = {"$defs": {"n": {"allOf": [
        {"if": {"properties": {"k": {"const": "a"}}, "required": ["k"]}, "then": deep},
        {"if": {"properties": {"k": {"const": "b"}}, "required": ["k"]}, "then": {"properties": {"c": {"$ref": "#/$defs/n"}}}}]}},
     "$ref": "#/$defs/n"}
shallow = {"k": "a"}
for depth in range(100, 700):
    v = Validator(S); c = Compiled(v)
    doc = {"k": "a"}
    for _ in range(depth):
        doc = {"k": "b", "c": doc}
    try:
        c.valid(doc)
    except RecursionError:
        pass
    expected = not any(v.problems(shallow))
    try:
        got = c.valid(shallow)
    except Exception as e:
        print(f"DEFECT: after a {depth}-deep document, valid({shallow}) raises {type(e).__name__}: {e}; walk says {expected}")
        sys.exit(1)
    if got != expected:
        print(f"DEFECT: after depth {depth}: predicate {got}, walk {expected}"); sys.exit(1)
print("ok"); sys.exit(0)
PY
