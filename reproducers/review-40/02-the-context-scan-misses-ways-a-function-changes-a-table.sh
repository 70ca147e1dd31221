#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found by read 40. tests/test_explicit_context.py's scan says a table a function appends to, sets a key of or
# deletes from is state, but it sees only `NAME.<11 methods>(…)`, `NAME[k] = v` and `del NAME[k]`: `+=` on a
# key, a change through a key (`TABLE[k].append`), `sort`, `difference_update`, a deque's `appendleft` pass;
# and a function's own local `TABLE` is taken for the module's.
# Exit 1 while the scan misses one of these or flags the local; 0 when it sees exactly the state.
PYTHONPATH="$here/tests" python - <<'PY'
import pathlib, sys, tempfile
from test_explicit_context import _module_state
state = {
    "TABLE[k] += 1": "TABLE = {}\ndef f(k):\n    TABLE[k] += 1\n",
    "TABLE[k].append(v)": "TABLE = {'a': []}\ndef f(v):\n    TABLE['a'].append(v)\n",
    "TABLE[k][j] = v": "TABLE = {'a': {}}\ndef f(v):\n    TABLE['a']['b'] = v\n",
    "TABLE.sort()": "TABLE = [3, 1]\ndef f():\n    TABLE.sort()\n",
    "TABLE.difference_update": "TABLE = {1}\ndef f():\n    TABLE.difference_update({1})\n",
    "deque TABLE.appendleft": "import collections\nTABLE = collections.deque()\ndef f(v):\n    TABLE.appendleft(v)\n",
}
local = "TABLE = {}\ndef f():\n    TABLE = {}\n    TABLE['x'] = 1\n    return TABLE\n"
def scan(src):
    p = pathlib.Path(tempfile.mkdtemp()) / "sample.py"
    p.write_text(src)
    return _module_state(p)
missed = [name for name, src in state.items() if not scan(src)]
print("state the scan does not see:", missed, "| a local taken for the table:", scan(local))
sys.exit(1 if missed or scan(local) else 0)
PY
