#!/usr/bin/env bash
# Defect (false refusal): harness/evidence/record.py shadowed() now looks EVERY word of the test command up on PATH,
# not only the words that name a program. A project that commits a helper bin/pytest (a wrapper its developers run
# by hand) and whose developer puts the repository's bin/ on PATH on purpose configures the remedy the refusal itself
# and docs/troubleshooting.md recommend -- `python -I -m pytest`, which imports the installed pytest module and never
# executes bin/pytest -- and `harness evidence unit_test` is still refused: "`pytest` is found on PATH at bin/pytest,
# a file of the source tree: the tree would choose its own runner". The word `pytest` after `-m` is a module name,
# not a program; no runner of the tree is chosen (docs/threat-model.md refuses "a program on a PATH entry inside the
# repository"). The same happens to any argument that happens to name a file of bin/ (`pytest test` with a bin/test).
# Correct behaviour: only words that a wrapper the harness knows, or an unknown wrapper's operand position, would run
# as a program are looked up; `python -I -m pytest ...` (and a test path argument) is run, unit_test exits 0.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests .harness bin
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' > pyproject.toml
printf '#!/bin/sh\n# the developers'"'"' shortcut: the fast subset\nexec python -m pytest -q -m "not slow" "$@"\n' > bin/pytest
chmod +x bin/pytest
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: [python, -I, -m, pytest, -q, -p, no:cacheprovider, --junitxml=.harness/local/junit.xml, tests]
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
setup harness transition VERIFYING
# -I keeps the tree off sys.path; pytest's plugins and the project need PYTHONPATH-free imports: check it runs at all
python -I -m pytest -q -p no:cacheprovider tests >>"$T/log" 2>&1 || { echo "setup failed: python -I -m pytest"; tail -20 "$T/log"; exit 2; }
PATH="$PWD/bin:$PATH" harness evidence unit_test >>"$T/log" 2>&1; ut=$?
echo "unit_test exit $ut"
if [ "$ut" -eq 0 ]; then echo "FIXED: python -I -m pytest ran"; exit 0; fi
if grep -q "is found on PATH at bin/pytest" "$T/log"; then
  echo "DEFECT: python -I -m pytest refused because the word \`pytest\` (a module name) names bin/pytest on PATH"; exit 1
fi
tail -20 "$T/log"; echo "setup: unit_test failed for another reason"; exit 2
