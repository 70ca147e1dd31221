#!/bin/bash
# The review packet now lists every changed file gate.yaml's suite.paths protects as a test file. The
# suite `harness init` writes protects pyproject.toml, setup.cfg, tox.ini (configuration that changes
# what passing means), so a change that edits app.py and pyproject.toml (a new dependency) and adds no
# test is presented to the reviewer as having tests — and the packet's "(none — a change without tests
# is itself worth a finding)" prompt disappears.
source "$(dirname "$0")/lib.sh"
D=$(mktemp -d); cd "$D" || exit 99
git init -q . && git config user.email a@b && git config user.name n
echo 'x = 1' > app.py; mkdir tests; printf 'def test_a():\n    assert True\n' > tests/test_a.py
printf '[project]\nname = "demo"\nversion = "0.1"\ndependencies = []\n' > pyproject.toml
git add -A; git commit -qm init
$H init >/dev/null 2>&1 || exit 90
grep -q 'pyproject.toml' .harness/gate.yaml || { echo "init no longer protects pyproject.toml"; exit 0; }
git add -A; git commit -qm harness -q
$H task new T >/dev/null 2>&1 || exit 91
BASE=$(git rev-parse HEAD)
echo 'x = 2' > app.py
printf '[project]\nname = "demo"\nversion = "0.1"\ndependencies = ["requests"]\n' > pyproject.toml
git add -A; git commit -qm change -q
out=$($H review packet --base "$BASE" 2>&1)
echo "$out" | sed -n '/^## Tests/,/^## /p' | head -6
if echo "$out" | sed -n '/^## Tests/,/^## /p' | grep -q 'pyproject.toml'; then
  echo "DEFECT: pyproject.toml is listed as a test file; the change has no test"; exit 1
fi
exit 0
