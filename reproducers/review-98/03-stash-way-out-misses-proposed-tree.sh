#!/usr/bin/env bash
# Defect: when `finding reproduce` runs on another tree than the proposal's, it records an attempt and names the
#   way back (harness/core/finding_binding.py off_proposed_tree, STASH; docs/concepts.md): "put your changes aside
#   (`git stash push --include-untracked -- . ':!.harness'`), `harness finding reproduce F-…`, then `git stash pop`".
#   That reaches the proposal's tree only if the proposal was made on a clean checkout of HEAD. In the ordinary
#   flow the task's work is uncommitted while it is reviewed (the commit comes after DONE), so the proposal's tree is
#   HEAD + that work: the stash puts the work aside too, the run lands on HEAD's tree (where mul() does not even
#   exist), and it is again "only an attempt". One unrelated edit after proposing (a NOTES.md) leaves a critical
#   or major finding that can neither be confirmed nor rejected, with a way out that does not work.
# Correct: the way out named gets back to the proposal's tree (e.g. stash, then restore the proposal's tree
#   `git checkout <tree> -- .` minus files it lacks, or list the paths that differ from it), so following it the
#   reproducer's failing run CONFIRMS the finding.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
printf 'def add(a, b):\n    return a + b\n' > calc.py
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
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
q harness task new "Add multiplication" || exit 2
printf '\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' >> calc.py   # the task's (uncommitted) work
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING || exit 2
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0, so mul(3, -2) returns 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator
      command: ["python3", "-c", "import sys, calc; sys.exit(calc.mul(3, -2) != -6)"]
YAML
q harness finding propose --file "$T/f.yaml" || exit 2
status() { harness finding list --json 2>/dev/null | python3 -c 'import json,sys; print([f["status"] for f in json.load(sys.stdin)["findings"] if f["id"]=="F-0001"][0])'; }

# Control: reproducing right away confirms.
cp -a "$R" "$T/control"
( cd "$T/control" && q harness finding reproduce F-0001 && [ "$(status)" = CONFIRMED ] ) \
  || { echo "setup: reproducing right after proposing did not confirm"; exit 2; }

echo "# notes" > NOTES.md                      # an unrelated edit after the proposal
out=$(harness finding reproduce F-0001 2>&1)
way=$(printf '%s\n' "$out" | sed -n "s/.*put your changes aside (\`\([^\`]*\)\`).*/\1/p" | head -1)
[ -n "$way" ] || way="git stash push --include-untracked -- . ':!.harness'"   # as docs/concepts.md names it
echo "reproduce after an unrelated edit: $(printf '%s\n' "$out" | grep -o 'only an attempt' | head -1)"
echo "following the way out named: $way; harness finding reproduce F-0001; git stash pop"
q eval "$way" || { echo "the named way out failed to run"; }
q harness finding reproduce F-0001
after=$(status)
q git stash pop
echo "F-0001 after following it: $after (control, reproduced before the edit: CONFIRMED)"
if [ "$after" != CONFIRMED ]; then
  echo "DEFECT: the way back the harness names does not reach the proposal's tree; the finding can neither be confirmed nor rejected"
  exit 1
fi
echo "OK: the named way out reached the proposed code and the run decided"
exit 0
