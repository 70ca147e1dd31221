#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by read 41 (of F-0034's fix). tests/test_explicit_context.py's scan takes every name bound anywhere in a
# function, nested functions and comprehensions included, for the function's own: a nested `TABLE = 0` or
# `[TABLE for TABLE in …]` hides the function's real change of the module's TABLE (F-0034 made this). It ignores
# enclosing functions: a closure changing its enclosing function's own TABLE is flagged. It misses a key set in
# a tuple or `for` target and `TABLE.__iadd__`. Each sample is run, to know what really changes.
# Exit 1 while the scan misjudges one; 0 when it judges each as running it shows.
PYTHONPATH="$here/tests" python - <<'PY'
import copy, pathlib, sys, tempfile, types
from support.module_state import module_state as _module_state
samples = {  # name: (module, call, does the call change the module's TABLE)
    "nested def binds its own TABLE": ("TABLE = []\ndef f(v):\n    TABLE.append(v)\n    def g():\n        TABLE = 0\n        return TABLE\n    return g\n", "f(1)", True),
    "comprehension variable named TABLE": ("TABLE = []\ndef f(v):\n    TABLE.append(v)\n    return [TABLE for TABLE in range(2)]\n", "f(1)", True),
    "closure over the enclosing function's TABLE": ("TABLE = {}\ndef f(v):\n    TABLE = {}\n    def g():\n        TABLE['k'] = v\n    g()\n    return TABLE\n", "f(1)", False),
    "lambda over the enclosing function's TABLE": ("TABLE = []\ndef f(v):\n    TABLE = []\n    add = lambda x: TABLE.append(x)\n    add(v)\n    return TABLE\n", "f(1)", False),
    "swap of two keys": ("TABLE = [1, 2]\ndef f():\n    TABLE[0], TABLE[1] = TABLE[1], TABLE[0]\n", "f()", True),
    "a key in a tuple target": ("TABLE = {}\ndef f(v):\n    key, TABLE['k'] = 'x', v\n", "f(1)", True),
    "a key as a for target": ("TABLE = {}\ndef f(v):\n    for TABLE['k'] in [v]:\n        pass\n", "f(1)", True),
    "TABLE.__iadd__": ("TABLE = []\ndef f(v):\n    TABLE.__iadd__([v])\n", "f(1)", True),
}
bad = 0
with tempfile.TemporaryDirectory() as d:
    for name, (src, call, really) in samples.items():
        p = pathlib.Path(d) / "sample.py"
        p.write_text(src)
        mod = types.ModuleType("sample")
        exec(compile(src, str(p), "exec"), mod.__dict__)
        before = copy.deepcopy(mod.TABLE)
        exec(call, mod.__dict__)
        if (mod.TABLE != before) != really:
            sys.exit(2)  # the sample does not do what it says
        flagged = bool(_module_state(p))
        bad += flagged != really
        print(f"{'ok ' if flagged == really else 'BAD'} changes the table: {really!s:5} flagged: {flagged!s:5} {name}")
sys.exit(1 if bad else 0)
PY
