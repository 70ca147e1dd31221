#!/bin/bash
# harness/agent/dataclass_code.py compiles dataclasses' generated text with compile(source, "<string>",
# "exec") inside a module that has `from __future__ import annotations`; compile() inherits that flag,
# so the functions differ from what dataclasses' own exec() makes: __init__.__annotations__ become the
# placeholder strings ('_type_a', '_return_type') and a docstring-less dataclass's __doc__ (built from
# inspect.signature) reads "P(a: '_type_a', ...) -> '_return_type'" instead of "P(a: int, ...)".
# The same wrong code is then cached on disk and reused by every later guard.
# exit 1: the defect exists; 0: fixed (or the module is gone: nothing compiles or caches such code); 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export HARNESS_REPO="$here"
export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
cd /tmp && python - "$T" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["HARNESS_REPO"])
import importlib.util
if importlib.util.find_spec("harness.core.value_class") is not None \
        and importlib.util.find_spec("harness.agent.dataclass_code") is None:
    # The module is gone (#28's value classes, harness/core/value_class.py, generate no code and cache none on
    # disk): what this checks cannot happen any more.
    print("harness.agent.dataclass_code is gone: no generated dataclass code is compiled or cached"); sys.exit(0)
try:
    import dataclasses
    from harness.agent import dataclass_code
except Exception as e:
    print("setup:", e); sys.exit(2)
def make():
    @dataclasses.dataclass(frozen=True)
    class P:
        a: int
        b: str = "x"
    return P
for round_ in ("compiled", "from the cache file"):
    c = dataclass_code.install(sys.argv[1])
    try:
        P = make()
    finally:
        dataclass_code.finish(c)
    Q = make()
    print(round_, "| via dataclass_code:", P.__doc__, "| dataclasses:", Q.__doc__)
    if P.__doc__ != Q.__doc__ or P.__init__.__annotations__ != Q.__init__.__annotations__:
        sys.exit(1)
sys.exit(0)
PY
