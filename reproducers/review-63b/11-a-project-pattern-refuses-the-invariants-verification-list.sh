#!/usr/bin/env bash
# Defect: invariants.yaml is rendered by the harness with an invariant's evidence types under the key
# `verification` (core/projection.invariants_doc), while the ledger holds them under `evidence`. `evidence` is in
# secrets_check.HARNESS_WRITTEN (read with the harness's own rules only), `verification` is not, so the commit check
# reads the harness's own type names with the project's redaction.patterns. With the pattern the docs and tests use
# as their example of a broad one, `[a-z]+_[a-z]+`, `harness invariant set INV-001 --status verified --evidence
# unit_test` renders `verification: [unit_test]` and `git commit` refuses invariants.yaml ("written by hand or by an
# older version"); `harness replay --write` renders the same. Correct: the commit is accepted.
# Exit 1 while refused, 0 when accepted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
p = ".harness/config.yaml"; s = open(p).read()
s2 = s.replace("patterns: []", "patterns: ['[a-z]+_[a-z]+']")
assert s2 != s
open(p, "w").write(s2)
PY
( git add -A && git commit -qm harness && harness task new t \
  && harness invariant add "no data is lost" --category correctness --severity major \
  && harness evidence unit_test -- true && harness invariant set INV-001 --status verified --evidence unit_test ) >/dev/null 2>&1 || exit 2
grep -A1 '^  verification:' .harness/tasks/*/invariants.yaml
git add -A >/dev/null 2>&1
if out=$(git commit -qm "invariant verified" 2>&1); then echo "commit: accepted"; exit 0; fi
echo "commit: REFUSED"; echo "$out" | grep invariants.yaml
echo "DEFECT: the commit check refuses the harness's own rendering of an evidence type"; exit 1
