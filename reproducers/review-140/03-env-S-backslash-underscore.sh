#!/usr/bin/env bash
# Defect: harness/core/test_verdict.py _split_string() (used by unwrapped(), which record.py shadowed() reads) splits
# `env -S VALUE` with shlex, "as env splits it", but GNU env -S also treats `\_` outside quotes as an argument
# separator (its shebang-line spelling), and `\c` as the end of the string. `env -S 'pytest\_-q\_tests'` runs
# `pytest -q tests`; shlex reads one word `pytest_-q_tests`, which is on no PATH, so the `pytest` env starts -- the
# tree's bin/pytest when the repository's bin/ is on PATH -- is never looked up, and the tree chooses its own runner
# (read 138's F-0489 was fixed for `env -S "pytest -q"` only).
# Correct behaviour: the value is split as env -S splits it (`\_` a separator, `\c` the end), so the run is refused:
# "`pytest` is found on PATH at bin/pytest, a file of the source tree"; unit_test exits non-zero and bin/pytest never runs.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
[ "$(env -S 'printf [%s]\_x\_y' 2>/dev/null)" = "[x][y]" ] || { echo "setup failed: this env has no -S with \\_"; exit 2; }
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' > pyproject.toml
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [env, -S, 'pytest\_-q\_-p\_no:cacheprovider\_--junitxml=.harness/local/junit.xml\_tests']
    junit: .harness/local/junit.xml
YAML
setup harness init
setup harness install
setup git add -A
setup git commit -qm init
setup git push -q origin main
setup git remote set-head origin main
setup harness task new "Add mul"
setup harness requirement add "mul(a, b) returns a * b" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING; do setup harness transition $s; done
printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py
printf 'import calc\n\n\ndef test_mul():\n    assert calc.mul(3, 4) == 12\n' > tests/test_mul.py
mkdir bin
printf '#!/bin/sh\ntouch "%s/tree-runner-ran"\nexec python -m pytest "$@"\n' "$T" > bin/pytest
chmod +x bin/pytest
setup harness transition VERIFYING
PATH="$PWD/bin:$PATH" harness evidence unit_test >>"$T/log" 2>&1; ut=$?
echo "unit_test exit $ut"
if [ -e "$T/tree-runner-ran" ]; then
  echo "DEFECT: env -S ran the tree's bin/pytest (found on PATH) unchecked: \\_ split by env, not by the harness"; exit 1
fi
if [ "$ut" -ne 0 ] && grep -q "found on PATH at bin/pytest" "$T/log"; then echo "FIXED: refused"; exit 0; fi
tail -20 "$T/log"; echo "setup: neither ran nor refused as expected"; exit 2
