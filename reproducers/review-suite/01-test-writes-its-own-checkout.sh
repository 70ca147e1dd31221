#!/usr/bin/env bash
# Exits 1 while a test of the evidence fast path records evidence into the checkout the suite runs
# from: run in a clone (with the clone's current task chosen as a developer has it), the project's own
# .harness/ gains ledger events and evidence files no one asked for.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
py="$here/.venv/bin/python"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$here" "$work/clone"
cd "$work/clone" || exit 2
mkdir -p .harness/local
cp "$here/.harness/local/current" .harness/local/current 2>/dev/null || ls .harness/tasks | head -1 > .harness/local/current
PYTHONPATH="$work/clone" "$py" -m pytest -q -p no:cacheprovider -n 0 \
  "tests/test_evidence_answered_without_click.py::test_the_fast_path_records_and_prints_what_click_does" \
  >"$work/pytest.out" 2>&1
written=$(git status --porcelain --untracked-files=all -- .harness/tasks)
if [ -n "$written" ]; then
  echo "the suite wrote into its own checkout's .harness/:"
  echo "$written"
  exit 1
fi
echo "the checkout's .harness/ is as the suite found it"
