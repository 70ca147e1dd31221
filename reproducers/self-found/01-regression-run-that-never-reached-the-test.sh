#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `harness finding regression` records a regression test as failing when pytest never ran it: a usage error
# (exit 4, an option pytest does not know) or no test collected (exit 5) is taken for the test's failure, and
# the finding moves to FIXING with a regression that proves nothing. Exit 1 while the defect exists, 0 when
# fixed (both runs refused, the finding still CONFIRMED), 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; cd "$T" || exit 2
( git init -q repo && cd repo && harness init && harness task new t && mkdir tests \
  && printf 'def test_a():\n    assert 1 + 1 == 3\n' > tests/test_x.py && git add -A && git commit -qm init \
  && printf '%s\n' '- type: suspected_defect' '  severity: minor' '  category: correctness' '  title: one plus one' \
       '  claim: the sum is wrong' '  location: {file: tests/test_x.py, line: 2}' '  failure_scenario: [1 + 1 is 3]' \
       '  expected_behavior: 1 + 1 is 2' \
       '  recommended_reproducer: {command: [python, -m, pytest, -q, tests/test_x.py], description: the test, type: unit_test}' \
       > .harness/local/f.yaml \
  && harness finding propose --file .harness/local/f.yaml && harness finding reproduce F-0001 -- python -m pytest -q tests/test_x.py ) \
  >/dev/null 2>&1 || exit 2
cd repo || exit 2
fail=0
for run in "python -m pytest -q --no-such-option tests/test_x.py::test_a" "python -m pytest -q tests/test_x.py::test_none"; do
  # shellcheck disable=SC2086
  if harness finding regression F-0001 tests/test_x.py -- $run >/dev/null 2>&1; then
    echo "DEFECT: accepted as a failing regression: $run"; fail=1; break
  fi
done
[ $fail = 0 ] && ! harness finding list 2>/dev/null | grep F-0001 | grep -q CONFIRMED && { echo "setup: F-0001 not CONFIRMED" >&2; exit 2; }
exit $fail
