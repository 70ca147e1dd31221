#!/usr/bin/env bash
# Defect: F-0326's binding digests every repository file the reproducer names, a pytest node id's test file
#   included (harness/findings/bound_files.py named_files), and a rejection's re-check on later code counts only
#   while each stays byte-identical (core/findings.py refuted_on skips attempts with `changed`). The review packet
#   and the adversarial-review skill teach reviewers exactly that shape (harness/findings/review.py EXAMPLE:
#   `python -m pytest -q tests/test_recovery.py::test_double_resume`, a project test file). So once such a finding
#   is honestly REJECTED, any later legitimate edit of that test file -- adding a regression test for another
#   finding, a new case -- blocks the gate for good: every re-check is "no re-check", and the only way out the
#   harness names is `git checkout <head> -- tests/test_calc.py`, i.e. throwing the new test away.
# Correct: an honest rejection stays re-checkable after an unrelated edit of the named test file (e.g. re-check with
#   the bound file taken from the proposal's recorded tree, or bind only what the node id runs), or reviewers are
#   never taught to name project test files; here: the gate can pass without reverting the added test.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
python3 -m pytest --version >/dev/null 2>&1 || { echo "setup: pytest missing"; exit 2; }
printf 'def add(a, b):\n    return a + b\n' > calc.py
mkdir tests; printf 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
touch conftest.py
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "calc.py"]
  unit_test:
    command: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
q harness task new "Add multiplication" || exit 2
printf '\ndef mul(a, b):\n    return a * b\n' >> calc.py
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING || exit 2
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: adding mul() broke add()
    claim: add(2, 3) no longer returns 5
    location: {file: calc.py}
    failure_scenario: ["call add(2, 3)"]
    expected_behavior: returns 5
    recommended_reproducer:
      type: unit_test
      description: the existing test, named as the packet's example names one
      command: "python3 -m pytest -q -p no:cacheprovider tests/test_calc.py::test_add"
YAML
q harness finding propose --file "$T/f.yaml" || exit 2
q harness finding reproduce F-0001 && q harness finding reject F-0001 --reason "add(2, 3) is 5: the reproducer passes" \
  || { echo "setup: the honest rejection was refused"; exit 2; }
# Control: without the edit, the rejection is re-checked and the gate passes.
cp -a "$R" "$T/control"
( cd "$T/control" && q harness evidence build && q harness evidence unit_test && q harness transition GATING \
  && q harness finding reproduce F-0001 && q harness gate ) || { echo "setup: the gate does not pass even without the edit"; exit 2; }
# Legitimate work after the rejection: a new case in the same test file.
printf '\ndef test_mul_negative():\n    from calc import mul\n    assert mul(3, -2) == -6\n' >> tests/test_calc.py
q harness evidence build && q harness evidence unit_test && q harness transition GATING || exit 2
out=$(harness finding reproduce F-0001 2>&1)       # the re-check the gate asks for
gout=$(harness gate 2>&1); gate=$?
printf '%s\n' "$gout" | grep -q 'F-0001' || echo "(note: the gate's output does not name F-0001)"
echo "re-check after adding a test to tests/test_calc.py: $(printf '%s\n' "$out" | grep -o 'no re-check[^;]*' | head -1)"
echo "gate exit=$gate (the only way out named: $(printf '%s\n' "$out" | grep -o 'git checkout [^`]*' | head -1))"
if [ "$gate" != 0 ]; then
  echo "DEFECT: an honest rejection whose reproducer names the project's test file blocks the gate after a legitimate test addition"
  exit 1
fi
echo "OK: the rejection was re-checked and the gate passed with the new test kept"
exit 0
