#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# F-0026: an exit-1 pytest run whose summary counts only errors is now a failure unless the output shows an
# unknown fixture, a collection error or "Interrupted:". pytest's other errors of a test's OWN wiring are left
# out: a ScopeMismatch (a session fixture asking for function-scoped tmp_path) errors in setup before any code
# under test runs, just like a missing fixture. A finding whose reproducer is such a test is CONFIRMED
# although the test never ran, and its body would PASS (double(3) == 6 is true on this tree).
# Exit 1 while the finding is CONFIRMED; 0 when `harness finding reproduce` refuses it.
source "$D"/common.inc
PY=$here/.venv/bin/python
printf 'def double(x):\n    return x + x if x > 0 else 0\n' > app.py
mkdir -p tests
printf 'import os, sys, pytest\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n@pytest.fixture(scope="session")\ndef work(tmp_path):\n    return tmp_path\n' > tests/conftest.py
printf 'import app\ndef test_double_positive(work):\n    assert app.double(3) == 6\n' > tests/test_double.py
printf '__pycache__/\n.pytest_cache/\nprop.yaml\n' > .gitignore
cat > prop.yaml <<P
type: suspected_defect
severity: major
category: correctness
title: double wrong for positives
claim: double(3) is not 6
location: {file: app.py, line: 2}
failure_scenario: ["import app", "app.double(3)"]
expected_behavior: "6"
recommended_reproducer: {type: unit_test, description: d, command: ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_double.py"]}
P
{ git add -A && git commit -qm app && harness finding propose --file prop.yaml; } >/dev/null 2>&1 || exit 2
out=$("$PY" -m pytest -q -p no:cacheprovider tests/test_double.py 2>&1); echo "$out" | tail -2
grep -q ScopeMismatch <<<"$out" || { echo "setup: no ScopeMismatch" >&2; exit 2; }
harness finding reproduce F-0001 2>&1 | tail -3
st=$(python -c 'import sys,yaml; print(yaml.safe_load(open(sys.argv[1]))["status"])' ".harness/tasks/$TID/findings/F-0001.yaml")
echo "status: $st"
[ "$st" = CONFIRMED ] && exit 1 || exit 0
