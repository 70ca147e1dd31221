#!/usr/bin/env bash
# Defect (harness/core/finding_events.py _reopened; harness/findings/steps.py verify): replay accepts a
# `finding.reopened` event as "a run of the reviewer's reproducer" by comparing only its `command` TEXT with the
# reviewer's command, but keeps the event's `argv` -- which nothing compares with that text -- as the finding's new
# `reproduction`. `harness finding verify` then runs `reproduction.argv` as "the confirming reproducer" (and
# `harness audit --rerun` plans the same argv). So an agent whose VERIFIED fix was undone appends (the ledger is a
# file it can write, chained by the public encoder) a reopen whose command is the reviewer's and whose argv is
# `true`; replay takes it, the finding is CONFIRMED with `true` as its reproducer; a "regression test" of its own
# (a marker file), `finding fixed`, `finding verify` (runs `true`: passes) and the gate PASSes while the reviewer's
# reproducer still fails on the gated tree. (The same unbound argv is kept by _reproduced for finding.reproduced.)
# Correct behaviour: replay refuses a finding.reopened whose argv is not the reviewer's command (shlex.join(argv)
# must equal the command, and the command must be the recommended one); verify runs the reviewer's reproducer.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
R=$T/repo; mkdir -p "$R"; cd "$R" || exit 2
setup() { "$@" >>"$T/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$T/log"; exit 2; }; }
printf 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' > calc.py
printf 'import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n' > test_calc.py
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "calc.py"]
  unit_test:
    command: ["python3", "-m", "unittest", "-q"]
YAML
setup git init -q -b main; setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup harness task new "Harden mul"
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do setup harness transition $s; done
setup harness evidence build; setup harness evidence unit_test; setup harness transition REVIEWING
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator
      command: ["python3", "-c", "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"]
YAML
setup harness finding propose --file "$T/f.yaml"; setup harness finding reproduce F-0001
printf 'import unittest\nfrom calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n' > test_mul_neg.py
setup harness finding regression F-0001 test_mul_neg.py -- python3 -m unittest -q test_mul_neg.py
setup harness transition REPRODUCING; setup harness transition FIXING
cp calc.py "$T/calc.buggy"
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
setup harness finding fixed F-0001; setup harness evidence build; setup harness evidence unit_test
setup harness finding verify F-0001
# the fix is undone, its regression test dropped: `finding verify` now fails, as it should
cp "$T/calc.buggy" calc.py; rm test_mul_neg.py
harness finding verify F-0001 >>"$T/log" 2>&1 && { echo "setup failed: verify passed on the broken code"; exit 2; }
# the attack: a reopen whose command is the reviewer's and whose argv is `true`, appended to the chain
TID=$(ls .harness/tasks | head -1)
python3 - ".harness/tasks/$TID/events.jsonl" >>"$T/log" 2>&1 <<'PY' || { echo "setup failed: forging"; exit 2; }
import json, shlex, subprocess, sys
from pathlib import Path
from harness.core.ledger import encode_event, line_hash
from harness.gitio.git import Git
path = Path(sys.argv[1])
lines = path.read_text("utf-8").splitlines()
last = json.loads(lines[-1])
reviewer = ["python3", "-c", "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"]
head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
data = {"id": "F-0001", "command": shlex.join(reviewer), "argv": ["true"], "exit_code": 1, "outcome": "failed",
        "tree": Git(Path(".")).worktree_source_tree(), "head": head, "output_tail": "", "files": {}}
path.write_text("\n".join([*lines, encode_event(last["seq"] + 1, last["ts"], "finding.reopened", data,
                                                line_hash(lines[-1]))]) + "\n", "utf-8")
PY
if ! harness replay --write >>"$T/log" 2>&1; then
  echo "fixed: replay refuses a finding.reopened whose argv is not the reviewer's reproducer"; exit 0
fi
printf 'import os, unittest\n\nclass T(unittest.TestCase):\n    def test_marker(self):\n        self.assertTrue(os.path.exists("fixed.marker"))\n' > test_marker.py
setup harness finding regression F-0001 test_marker.py -- python3 -m unittest -q test_marker.py
touch fixed.marker
setup harness finding fixed F-0001; setup harness evidence build; setup harness evidence unit_test
verify=refused; harness finding verify F-0001 >>"$T/log" 2>&1 && verify=passed
for s in VERIFYING REVIEWING GATING; do harness transition $s >>"$T/log" 2>&1; done
gate=refused; harness gate >>"$T/log" 2>&1 && gate=passed
python3 -c "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"; repro=$?
echo "replay took the forged reopen; finding verify: $verify; gate: $gate; the reviewer's reproducer exits $repro"
if [ "$verify" = passed ] && [ "$repro" != 0 ]; then
  echo "DEFECT: a finding.reopened naming the reviewer's command but argv [true] made \`true\` the confirming"
  echo "        reproducer: F-0001 is VERIFIED (gate: $gate) while the reviewer's reproducer fails"
  exit 1
fi
echo "fixed: verify ran the reviewer's reproducer (refused)"; exit 0
