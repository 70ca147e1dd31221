#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Found in this repository's own ledger (F-0181..F-0201 are F-0160..F-0180 again): `harness finding propose --file F`
# run twice records every finding of F twice, each a claim to reproduce, fix and verify again. A finding whose
# content is exactly one the task already holds (or one given earlier in the same file) should be refused, naming it.
# Exit 1 while the second run records duplicates; 0 when it refuses them; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness task new t ) >/dev/null 2>&1 || exit 2
cat > "$T/f.yaml" <<'Y'
findings:
  - type: defect
    severity: minor
    category: correctness
    title: the answer is off by one
    claim: answer() returns 42 where 41 is required
    location: {file: a}
    failure_scenario: [call answer()]
    expected_behavior: "answer() returns 41"
    recommended_reproducer: {type: unit_test, description: assert it, command: ["false"]}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1
n=$(harness finding list | grep -c "^F-")
echo "findings after proposing the same file twice: $n"
[ "$n" = 1 ] && exit 0
exit 1
