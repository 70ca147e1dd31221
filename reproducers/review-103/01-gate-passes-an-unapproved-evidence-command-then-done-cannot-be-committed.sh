#!/usr/bin/env bash
# Defect: `harness gate` (harness/gate/evaluate.py run_gate -> harness/gate/facts.py introduced_types /
#   harness/core/gate_checks.py _introduced) judges the working config.yaml's evidence commands and only
#   blocks a changed command when a *must* requirement cites that type. A configured command changed during the
#   task without `harness approve config-change` (here: unit_test narrowed with `-k`) still gives QUALITY GATE:
#   PASS for the types gate.yaml requires, so `gate --advance` and `transition DONE` go through; only the commit
#   hook (harness/history/change_rules.py, rule evidence-commands-need-approval) refuses. The task is then
#   DONE but uncommittable: its hint "or revert the change" leads to done-needs-gate-pass, whose hint
#   "re-collect the evidence (harness evidence TYPE)" is refused because a DONE task takes no evidence, which
#   points back at `git commit` -- a circle; `harness status` meanwhile says "gate PASS on this source tree"
#   while `harness gate` says BLOCKED.
# Correct: the gate treats an evidence-command change that the commit hook would refuse (unapproved, against
#   HEAD's config.yaml) as a blocker, so the task cannot reach DONE on it (the user reverts or gets approval
#   while the task can still take evidence); a control run without the change still reaches a committed DONE.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

setup() {  # $1: folder. A small pytest project that adopted the harness the documented way.
  mkdir -p "$1" && cd "$1" || return 1
  git init -q -b main && mkdir -p src/calc tests .harness || return 1
  printf 'def add(a, b):\n    return a + b\n' > src/calc/__init__.py
  printf 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' > tests/test_calc.py
  printf '[project]\nname = "calc"\nversion = "0"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n' > pyproject.toml
  printf '__pycache__/\n' > .gitignore
  cat > .harness/config.yaml <<'EOF'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
EOF
  harness init && harness install && git add -A && git commit -qm "harness: adopt" || return 1
  harness task new "Add sub" && harness requirement add "sub subtracts" --priority should || return 1
  for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s || return 1; done
  printf '\n\ndef sub(a, b):\n    return a - b\n' >> src/calc/__init__.py
}
walk() {  # collect evidence, gate, DONE; prints the gate's exit code
  harness transition VERIFYING >/dev/null 2>&1 || return 1
  harness evidence pass_to_pass >/dev/null 2>&1; harness evidence unit_test >/dev/null 2>&1
  harness requirement set REQ-001 --status verified --evidence unit_test >/dev/null 2>&1
  harness transition REVIEWING >/dev/null 2>&1 && harness transition GATING >/dev/null 2>&1 || return 1
  harness gate >/dev/null 2>&1; echo "gate=$?"
  harness gate --advance >/dev/null 2>&1; harness transition DONE >/dev/null 2>&1
}

# Control: the same task without touching config.yaml reaches a committed DONE.
( setup "$T/control" >/dev/null 2>&1 && walk >/dev/null && git add -A && git commit -qm "Add sub: DONE" ) >/dev/null 2>&1 \
  || { echo "setup: the control flow did not reach a committed DONE"; exit 2; }

setup "$T/repo" >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
# During the task the unit_test command is narrowed (a human or agent edits config.yaml; no approval given).
sed -i 's/"-q", "-p"/"-q", "-k", "test_add", "-p"/' .harness/config.yaml
grep -q '"-k", "test_add"' .harness/config.yaml || exit 2
g=$(walk) || exit 2
state=$(harness status --json 2>/dev/null | python -c 'import json,sys; print(json.load(sys.stdin)["state"])')
echo "with an unapproved unit_test command change: $g, task state $state"
if [ "$state" != DONE ]; then echo "OK: the task did not reach DONE on an unapproved evidence command"; exit 0; fi
git add -A
if git commit -qm "Add sub: DONE" >/dev/null 2>&1; then
  echo "DEFECT (worse): a DONE resting on an unapproved evidence command was committed"; exit 1
fi
echo "DEFECT: gate PASS and DONE, but the DONE commit is refused (evidence-commands-need-approval)"
git checkout -q HEAD -- .harness/config.yaml && git add -A
git commit -qm "Add sub: DONE" >/dev/null 2>&1 && { echo "(reverting config.yaml let it commit)"; exit 1; }
harness evidence unit_test >/dev/null 2>&1 && exit 1
echo "  after the refusal's own remedy (revert config.yaml): commit refused (done-needs-gate-pass), and its remedy"
echo "  'harness evidence TYPE' is refused because the task is DONE; harness status says: $(harness status | grep '^Gate')"
exit 1
