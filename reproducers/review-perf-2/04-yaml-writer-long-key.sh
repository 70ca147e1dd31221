#!/bin/bash
# plain_yaml_writer writes a key longer than 128 characters whose value is a non-empty mapping or
# list as "key:", while PyYAML's (libyaml's) emitter writes it as a complex key "? key\n:".
# yamlio.dump then differs from yamlio.pyyaml_dump (its docstring: "the bytes are the same either way").
# Not reachable through the current task schemas (their keys are fixed names), so only the contract breaks.
# exit 1: defect present; 0: fixed; 2: setup failure
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export PATH="$here/.venv/bin:$PATH"
cd /tmp && python - <<'PY'
import sys
from harness.store import yamlio
bad = []
for n in (128, 129, 200):
    for doc in ({"k" * n: {"a": 1}}, {"k" * n: ["a"]}, {"top": {"k" * n: {"a": 1}}}):
        if yamlio.dump(doc) != yamlio.pyyaml_dump(doc):
            bad.append((n, yamlio.dump(doc)[:20], yamlio.pyyaml_dump(doc)[:20]))
print(bad[:3])
sys.exit(1 if bad else 0)
PY
