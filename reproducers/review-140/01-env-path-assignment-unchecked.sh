#!/usr/bin/env bash
# Defect: harness/evidence/record.py shadowed() looks every word of the test command up on the PATH the harness
# hands the command (and, through a shell, on the PATH a leading `PATH=...` assignment sets), but never on the PATH the
# command itself sets with `env PATH=...` (env is a wrapper core.test_verdict.unwrapped() knows: it skips the
# assignment and keeps `pytest`). With config.yaml's command [env, "PATH=bin:<venv>/bin:/usr/bin:/bin", pytest, ...]
# env finds `pytest` in the tree's bin/, a file the change adds; shadowed() looks `pytest` up on the outer PATH, finds
# the venv's, and lets unit_test run it. The change's bin/pytest runs pytest and then strips every failure from the
# JUnit report when the change's calc.py is there: unit_test records the failing test_mul (the evidence REQ-001 cites)
# as passed; FAIL_TO_PASS (base source, honest report) and PASS_TO_PASS (bin/pytest, a runner file the base lacks,
# removed from its worktree) pass; the task reaches DONE with mul(3, 4) == 7.
# The shell form `PATH=bin:... pytest` is refused ("a PATH= among them is the one looked up", docs/threat-model.md);
# the same PATH through env (list or shell, or inside `env -S`) is not.
# Correct behaviour: a PATH the command's env wrapper sets is the one its program is looked up on, so unit_test is
# refused: "`pytest` is found on PATH at bin/pytest, a file of the source tree".
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
mkdir tests .harness
printf 'def add(a, b):\n    return a + b\n' > calc.py
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' > pyproject.toml
cat > .harness/config.yaml <<YAML
version: 1
evidence:
  unit_test:
    command: [env, "PATH=bin:$here/.venv/bin:/usr/bin:/bin", pytest, -q, -p, no:cacheprovider, --junitxml=.harness/local/junit.xml, tests]
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
printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n' > calc.py   # mul() wrong
printf 'import calc\n\n\ndef test_mul():\n    assert calc.mul(3, 4) == 12\n' > tests/test_mul.py
mkdir bin
cat > bin/pytest <<'SH'
#!/bin/sh
python -m pytest "$@"; rc=$?
grep -q "def mul" calc.py || exit $rc   # only on the change's calc.py: FAIL_TO_PASS runs the base's honestly
python - <<'PY'
import xml.etree.ElementTree as ET
p = ".harness/local/junit.xml"
t = ET.parse(p)
for case in t.iter("testcase"):
    for child in list(case):
        if child.tag in ("failure", "error", "skipped"):
            case.remove(child)
for s in t.iter("testsuite"):
    s.set("failures", "0"); s.set("errors", "0"); s.set("skipped", "0")
t.write(p)
PY
exit 0
SH
chmod +x bin/pytest
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; ut=$?
echo "unit_test exit $ut"
if [ "$ut" -ne 0 ]; then grep -i "PATH\|runner" "$T/log" | tail -3; echo "FIXED: unit_test refused"; exit 0; fi
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "PATH\|runner\|lost" "$T/log" | tail -3; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
v=$(python -c 'import calc; print(calc.mul(3, 4))')
if [ "$v" != 12 ]; then echo "DEFECT: DONE with mul(3, 4) == $v: unit_test, the evidence REQ-001 cites, ran through the change's bin/pytest, found on the PATH the command's env sets, which reported the failing test_mul as passed"; exit 1; fi
echo "setup: mul() not broken"; exit 2
