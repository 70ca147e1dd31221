#!/usr/bin/env bash
# Defect: harness/evidence/pass_to_pass.py _Tested.reaches() counts as the code under test only the files the base's
# tests import (their import closure) and the files whose FILE NAME a test's text holds; a module a test runs as a
# process by its MODULE name (`subprocess.run([sys.executable, "-m", "mypkg.cli", ...])`, the usual way to test a CLI)
# is neither. When a runner text also names that module (the base's Makefile smoke-runs `python -m mypkg.cli` before
# pytest), runner_texts.named_by_runner() finds mypkg/cli.py through `-m`, _Tested does not reach it, and it becomes a
# protected file: PASS_TO_PASS puts the BASE's cli.py back and measures the base's tests on it. The change breaks the
# CLI and deletes the base's test of it (so the checkout's own run passes); PASS_TO_PASS restores the test AND the
# base's cli.py, so it passes; gate --advance, DONE, the commit hook, the push guard and `harness audit` all accept.
# (The reverse hurts an honest change: a new CLI feature with its test is refused by FAIL_TO_PASS, which runs the
# change's "protected" cli.py as the base's source.)
# Correct behaviour: a module the base's tests run with `-m` (a word after `-m` in a test's text, as a runner's `-m`
# is read) is code under test and stays the change's; the restored test fails on the broken CLI and the gate refuses.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v make >/dev/null || { echo "setup: make missing"; exit 2; }
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
cd "$T" && setup git init -q --bare remote.git && setup git clone -q remote.git app && cd app
setup git checkout -q -b main
mkdir tests mypkg .harness
: > mypkg/__init__.py
printf 'import sys\n\n\ndef main(argv):\n    print(int(argv[0]) + int(argv[1]))\n\n\nif __name__ == "__main__":\n    main(sys.argv[1:])\n' > mypkg/cli.py
cat > tests/test_cli.py <<'PY'
import subprocess
import sys


def test_cli_adds():
    out = subprocess.run([sys.executable, "-m", "mypkg.cli", "2", "3"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "5"
PY
printf 'test:\n\tpython -m mypkg.cli 1 1\n\tpython -m pytest -q --junitxml=.harness/local/junit.xml tests\n' > Makefile
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["make", "test"]
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
# The CLI broken (it subtracts), the base's test of it deleted; the new mul() in its own module.
printf 'import sys\n\n\ndef main(argv):\n    print(int(argv[0]) - int(argv[1]))\n\n\nif __name__ == "__main__":\n    main(sys.argv[1:])\n' > mypkg/cli.py
printf 'def mul(a, b):\n    return a * b\n' > mypkg/ops.py
printf 'from mypkg.ops import mul\n\n\ndef test_mul():\n    assert mul(3, 4) == 12\n' > tests/test_mul.py
git rm -q tests/test_cli.py
setup harness transition VERIFYING
harness evidence unit_test >>"$T/log" 2>&1; echo "unit_test exit $?"
setup harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_mul.py::test_mul
harness evidence pass_to_pass >>"$T/log" 2>&1; p2p=$?
echo "pass_to_pass exit $p2p"
if [ "$p2p" -ne 0 ]; then grep -i "lost\|protected\|test_cli" "$T/log" | tail -5; echo "FIXED: pass_to_pass refused"; exit 0; fi
harness evidence fail_to_pass >>"$T/log" 2>&1; echo "fail_to_pass exit $?"
setup harness transition REVIEWING
setup harness transition GATING
harness gate --advance >>"$T/log" 2>&1 || { tail -30 "$T/log"; echo "FIXED: the gate refused"; exit 0; }
harness transition DONE >>"$T/log" 2>&1 || { echo "FIXED: DONE refused"; exit 0; }
git add -A && git commit -qm "mul" >>"$T/log" 2>&1 || { echo "FIXED: the commit hook refused"; exit 0; }
git push -q origin main >>"$T/log" 2>&1 || { echo "FIXED: the push guard refused"; exit 0; }
harness audit >>"$T/log" 2>&1 || { echo "FIXED: harness audit refused"; exit 0; }
v=$(python -m mypkg.cli 2 3)
if [ "$v" != 5 ]; then echo "DEFECT: DONE, committed, pushed and audited with 'python -m mypkg.cli 2 3' printing $v and its test deleted: mypkg/cli.py, which the base's test runs with -m, was protected because the Makefile also runs it with -m"; exit 1; fi
echo "setup: the CLI not broken"; exit 2
