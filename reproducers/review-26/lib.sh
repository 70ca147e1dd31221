# shared setup for the r1 reproducers
H=$(command -v harness)
PY=$(dirname "$H")/python
APPEND=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/append.py  # absolute: the scripts cd into a scratch repo
setup_repo() {
  D=$(mktemp -d); cd "$D" || exit 99
  git init -q . && git config user.email a@b && git config user.name n
  echo 'x = 1' > app.py; git add -A; git commit -qm init
  $H init >/dev/null 2>&1
  git add -A; git commit -qm harness -q
  TID=$($H task new "T" 2>/dev/null | head -1)
  LEDGER=.harness/tasks/$TID/events.jsonl
}
to_gating() {  # REQ-001 (must) added, left pending; fresh build and unit_test evidence
  $H requirement add "It works" --priority must >/dev/null 2>&1
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do $H transition $s >/dev/null 2>&1 || exit 98; done
  $H evidence build -- python3 -c pass >/dev/null 2>&1 || exit 97
  $H evidence unit_test -- python3 -c pass >/dev/null 2>&1 || exit 97
  $H transition REVIEWING >/dev/null 2>&1 || exit 98
  $H transition GATING >/dev/null 2>&1 || exit 98
}
# one blocked iteration recorded as an old (pre-key) harness wrote it: sentences only
old_blocked_iteration() {  # $1: JSON list of blocker sentences
  local tree; tree=$(git rev-parse HEAD^{tree})
  $PY $APPEND "$LEDGER" gate.evaluated "{\"verdict\":\"BLOCKED\",\"tree\":\"$tree\",\"head\":null,\"policy\":\"$(printf '0%.0s' $(seq 64))\",\"blockers\":$1}"
  $H replay --write >/dev/null 2>&1 || exit 96
  $H transition BLOCKED >/dev/null 2>&1 || { echo "transition BLOCKED refused"; exit 95; }
}
back_to_gating() {
  for s in IMPLEMENTING VERIFYING REVIEWING GATING; do $H transition $s >/dev/null 2>&1 || { echo "transition $s refused"; $H transition $s; exit 94; }; done
}
