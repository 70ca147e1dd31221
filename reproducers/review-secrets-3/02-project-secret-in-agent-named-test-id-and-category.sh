#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Agent-named words stored under keys the harness treats as its own (secrets_check.HARNESS_WRITTEN:
# `verified_by`, `category`, ...) skip the project's `redaction.patterns` both when written (redact_data uses
# own_rules) and when the commit check reads them (_values/_yaml: written -> own_rules). The fix of F-0157 exempts
# only `custom.NAME`; a contract's test id (`tests/x.py::NAME`, free text after `::`) and a finding's `category`
# (`^[a-z][a-z0-9_]*$`) are named by whoever runs the command just the same.
# Case A: project pattern ACME-[0-9a-f]{32}; `harness contract apply` with verified_by "tests/test_a.py::test_<secret>".
# Case B: project pattern acme_[0-9a-f]{32}; `harness finding propose` with category "<secret>".
# Each: the secret reaches events.jsonl and rendered YAML, and the commit hook + `harness audit` pass.
# Exit 1 while any case writes the secret and commits cleanly; 0 when every case refuses or redacts.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
A=ACME-0123456789abcdef0123456789abcdef
B=acme_0123456789abcdef0123456789abcdef
sed -i 's/^  patterns: \[\]/  patterns: ["ACME-[0-9a-f]{32}", "acme_[0-9a-f]{32}"]/' .harness/config.yaml
grep -q 'acme_\[0-9a-f\]{32}' .harness/config.yaml || exit 2
git add -A && git commit -qm pattern >/dev/null 2>&1 || exit 2
# control: the same secret in a free-text field is refused
if harness requirement add "token $A" --priority could >/dev/null 2>&1 && grep -rq "$A" .harness/tasks; then
  echo "setup: control secret in a statement was written" >&2; exit 2; fi
git checkout -q -- .harness 2>/dev/null; git clean -qfd .harness/tasks 2>/dev/null
base=$(git rev-parse HEAD)
leaks=0
cat > .harness/local/contract.yaml <<Y
contract:
  acceptance_criteria: ["it works"]
  requirements:
    - statement: "resume works"
      priority: must
      verified_by: ["tests/test_a.py::test_$A", "unit_test"]
Y
harness contract apply >/dev/null 2>&1
if grep -rlq "$A" .harness/tasks; then
  echo "case A: written to: $(grep -rl "$A" .harness/tasks | xargs -n1 basename | tr '\n' ' ')"
  git add -A; if git commit -qm a >/dev/null 2>&1; then echo "case A: commit passed"; leaks=1; else echo "case A: commit refused"; fi
fi
cat > "$T/f.yaml" <<Y
type: risk
severity: minor
category: $B
title: t
claim: c
location: {file: a.txt}
failure_scenario: ["x"]
expected_behavior: y
recommended_reproducer: {type: review, description: d}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1
if grep -rlq "$B" .harness/tasks; then
  echo "case B: written to: $(grep -rl "$B" .harness/tasks | xargs -n1 basename | tr '\n' ' ')"
  git add -A; if git commit -qm b >/dev/null 2>&1; then echo "case B: commit passed"; leaks=1; else echo "case B: commit refused"; fi
fi
harness audit --from "$base" --to HEAD >/dev/null 2>&1; echo "audit rc=$?"
[ $leaks = 1 ] && exit 1
exit 0
