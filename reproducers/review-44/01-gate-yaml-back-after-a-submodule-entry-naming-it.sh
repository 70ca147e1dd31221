#!/usr/bin/env bash
# F-0048 one level down: .harness/gate.yaml as a submodule entry naming a loosened gate's blob (B), then the
# file back with that blob (C). The change rules compared ids, not kinds, below .harness too: C passed.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
. "$(dirname "$0")/common.inc"
sed 's/unit_test: required/unit_test: optional/; s/critical_allowed: 0/critical_allowed: 9/' .harness/gate.yaml > "$T/loose"
cmp -s .harness/gate.yaml "$T/loose" && exit 2
Y=$(git hash-object -w "$T/loose")
{ git rm -q --cached .harness/gate.yaml && git update-index --add --cacheinfo "160000,$Y,.harness/gate.yaml" &&
  git commit -qm B --no-verify; } >/dev/null 2>&1 || exit 2; B=$(git rev-parse HEAD)
{ git rm -q --cached .harness/gate.yaml && git update-index --add --cacheinfo "100644,$Y,.harness/gate.yaml" &&
  git commit -qm C --no-verify; } >/dev/null 2>&1 || exit 2; C=$(git rev-parse HEAD)
judged "$B" "$C"
