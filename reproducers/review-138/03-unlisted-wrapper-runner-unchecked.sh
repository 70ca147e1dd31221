#!/usr/bin/env bash
# Defect: harness/evidence/record.py shadowed() (via refuse_a_tree_runner: unit_test, pass_to_pass, fail_to_pass) looks
# up on PATH the command's first word and what core.test_verdict.unwrapped() leaves once the wrappers it KNOWS (env,
# timeout, nice, xvfb-run, taskset, chrt, setsid, unbuffer, uv/poetry/... run) are taken off. Any other program that
# runs the rest of its arguments as a command -- `flock LOCKFILE pytest` (as here: a lock so that two runs do not share
# a database), `dotenv run -- pytest`, `direnv exec . pytest`, `nix develop -c pytest`, `sudo -E`, `xargs` -- is left
# whole, so only the wrapper (/usr/bin/flock) is looked up; the program the wrapper starts, `pytest`, is found by it on
# the same PATH: with PATH=$PWD/bin:$PATH the checkout's bin/pytest, a file of the change (not ignored), which F-0471 and
# read 136's F-0486 say PASS_TO_PASS refuses. It runs the base's tests, then strips every failure from the JUnit
# report; PASS_TO_PASS reads the base's failing test_add as passed and the task reaches DONE with add(2, 3) == -1.
# Correct behaviour: a command word after the first that names a program found on PATH in the worktree or the
# checkout (not ignored) is refused as the first word is -- whether or not the program before it is a wrapper the
# harness knows -- so pass_to_pass exits non-zero ("`pytest` is found on PATH at bin/pytest, a file of the source tree").
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v flock >/dev/null || { echo "setup failed: no flock"; exit 2; }
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
    command: [flock, "$T/tests.lock", pytest, -q, -p, no:cacheprovider, --junitxml=.harness/local/junit.xml, tests]
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
printf 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py   # add() broken
printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) is not None\n' > tests/test_calc.py   # weakened
printf 'import calc\n\n\ndef test_mul():\n    assert calc.mul(3, 4) == 12\n' > tests/test_mul.py
mkdir bin
cat > bin/pytest <<'SH'
#!/bin/sh
python -m pytest "$@"
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
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
PATH="$PWD/bin:$PATH" harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "PATH\|runner\|lost" "$T/log" | tail -3; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
v=$(python -c 'import calc; print(calc.add(2, 3))')
if [ "$v" != 5 ]; then echo "DEFECT: DONE with add(2, 3) == $v: PASS_TO_PASS ran the base's test_add through the checkout's bin/pytest, found on PATH behind the wrapper flock"; exit 1; fi
echo "setup: add() not broken"; exit 2
