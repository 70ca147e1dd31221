#!/usr/bin/env bash
# DEFECT: the gate asks where the history adopted the harness (harness/gitio/adoption.py) only when the task's
# recorded base holds NO .harness/config.yaml (harness/gate/facts.py introduced_types). A base that does hold one
# is taken at its word - even when that base is the agent's own rival adoption: a commit on a line begun before
# the real adoption that adds .harness/ with the agent's own commands. The pre-commit hook accepts such a commit
# ("the commit that adopts the harness configures its commands itself"), so no hook is bypassed.
#
# Read 56a's F-0119 fix makes exactly this history refuse when the task's base is the pre-adoption commit
# (FsSource.adoption(): "cannot tell where this history adopted the harness"): the agent only has to run
# `harness task new` one commit later - on its own adopting commit R1 - and the adoption rule is never consulted.
# A command added after the real adoption (custom.smoke = `true`) then verifies a must requirement with no human
# approval; the gate PASSes with HEAD on the side line, and also with HEAD moved back onto the project's main line
# (`git reset --soft`), where the published adoption is plainly in HEAD's history.
#
# CORRECT: a base holding config.yaml must itself stand on the adoption the published line names (or the gate must
# refuse as it does for the pre-adoption base): custom.smoke is "introduced" and BLOCKS (or the gate refuses to
# tell). Controls: the same side line with the base on the pre-adoption commit is refused; on main the added
# command is BLOCKED.
# Exit 1 while the gate PASSes in a variant, 0 when every variant is refused/blocked, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=agent@example.com GIT_COMMITTER_NAME=agent GIT_COMMITTER_EMAIL=agent@example.com
T=$(mktemp -d) || exit 2
trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

setup() {  # $1: folder. main: pre -> A (adopts: build, unit_test = true), pushed to a bare origin with -u.
  local R="$1"
  git init -q --bare -b main "$R.git" && git init -q -b main "$R" && cd "$R" || return 1
  echo 'x = 1' > app.py && git add -A && git commit -qm pre || return 1
  harness init >/dev/null 2>&1 || return 1
  python3 - <<'EOF' || return 1
p = ".harness/config.yaml"; t = open(p).read()
assert "evidence: {}\n" in t
open(p, "w").write(t.replace("evidence: {}\n", 'evidence:\n  build:\n    command: ["true"]\n  unit_test:\n    command: ["true"]\n', 1))
EOF
  rm .harness/gate.yaml && harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 || return 1
  git add -A && git commit -qm "adopt the harness" || return 1
  git remote add origin "$R.git" && git push -q -u origin main 2>/dev/null && git fetch -q origin || return 1
}
add_smoke() {  # config.yaml gains custom.smoke = `true` (and gate.yaml requires it, as `harness init` would write)
  python3 - <<'EOF'
p = ".harness/config.yaml"; t = open(p).read()
open(p, "w").write(t.replace("evidence:\n", 'evidence:\n  custom.smoke:\n    command: ["true"]\n', 1))
g = ".harness/gate.yaml"; t = open(g).read()
open(g, "w").write(t.replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n", 1))
EOF
}
side_line() {  # the agent's line from pre, adopting the harness itself with custom.smoke; the pre-commit hook runs
  git checkout -q -b side HEAD~1 && git checkout -q main -- .harness && add_smoke && git add -A \
    && git commit -qm "side: adopt the harness with a smoke command" 2>"$T/hook.err"
}
to_gating() {  # evidence, a must requirement verified by custom.smoke, REVIEWING, GATING
  harness requirement add "R" --priority must >/dev/null 2>&1 || return 1
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null 2>&1 || return 1; done
  for e in build unit_test custom.smoke; do harness evidence $e >/dev/null 2>&1 || return 1; done
  harness requirement set REQ-001 --status verified --evidence custom.smoke >/dev/null 2>&1 || return 1
  harness transition REVIEWING >/dev/null 2>&1 && harness transition GATING >/dev/null 2>&1
}
gate() {  # prints the verdict line and the line naming custom.smoke; returns the gate's exit code
  harness gate >"$T/gate.out" 2>&1; local rc=$?
  echo "    gate exit $rc: $(head -1 "$T/gate.out" | cut -c1-150)"
  grep -m1 -E "custom.smoke, whose|cannot tell" "$T/gate.out" | cut -c1-170 | sed 's/^/      /'
  return $rc
}
adoption_rule() {  # what FsSource.adoption() (the rule under review) says of this working tree
  python3 - <<'EOF'
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
    print("    FsSource.adoption():", getattr(found, "commit", None))
except HarnessError as exc:
    print("    FsSource.adoption() refuses:", exc.message[:110])
EOF
}

echo "== control 1: task based on main's tip, custom.smoke added in the working tree"
( setup "$T/c1" && add_smoke && harness task new T >/dev/null 2>&1 && to_gating ) || { echo "setup failed (c1)"; exit 2; }
( cd "$T/c1" && gate ); c1=$?
[ $c1 = 1 ] || { echo "setup: control 1 should be BLOCKED (exit 1)"; exit 2; }

echo "== control 2: side line R1 from before the adoption; task based on the pre-adoption commit (F-0119's case)"
( setup "$T/c2" && side_line && r1=$(git rev-parse HEAD) && git reset -q --soft HEAD~1 \
  && harness task new T >/dev/null 2>&1 && git reset -q --soft "$r1" && to_gating ) || { echo "setup failed (c2)"; cat "$T/hook.err"; exit 2; }
( cd "$T/c2" && gate ); c2=$?
[ $c2 != 0 ] || { echo "setup: control 2 should not pass"; exit 2; }

echo "== attack: the same side line R1, the task started ON R1 (its base holds the agent's own config.yaml)"
( setup "$T/a" && side_line ) || { echo "setup failed (attack): the pre-commit hook refused R1:"; cat "$T/hook.err"; exit 2; }
cd "$T/a" || exit 2
r1=$(git rev-parse HEAD)
echo "    R1 $(git rev-parse --short HEAD) committed through the pre-commit hook (exit 0); adoption on main: $(git rev-parse --short main)"
( harness task new T >/dev/null 2>&1 && to_gating ) || { echo "setup failed (attack task)"; exit 2; }
adoption_rule
echo "  HEAD on the side line (R1):"
gate; a1=$?
git reset -q --soft main || exit 2   # HEAD back on the project's line; the working tree (config with smoke) kept
echo "  HEAD moved onto main ($(git rev-parse --short HEAD)), whose history holds the real adoption:"
adoption_rule
gate; a2=$?
git reset -q --soft "$r1" || exit 2
echo "  (informational) HEAD back on R1: advance, DONE, commit through the pre-commit hook, push the branch:"
harness gate --advance >/dev/null 2>&1; adv=$?
harness transition DONE >/dev/null 2>&1; done_rc=$?
git add -A && git commit -qm "done" >/dev/null 2>"$T/commit.err"; com=$?
git push -q -u origin side >"$T/push.out" 2>&1; push=$?
echo "    gate --advance exit $adv; transition DONE exit $done_rc; pre-commit/commit exit $com; pre-push/push exit $push"
echo "    ($(grep -m1 'push guard' "$T/push.out" | cut -c1-100))"
git checkout -q -f main && git merge -q --no-edit side >"$T/merge.out" 2>&1; mrc=$?
echo "    merging side into main: exit $mrc $(grep -m1 -o 'one-adoption\|[Aa]utomatic merge failed' "$T/merge.out")"
git merge --abort >/dev/null 2>&1
if [ $a1 = 0 ] || [ $a2 = 0 ]; then
  echo "DEFECT: custom.smoke, added after the real adoption, verifies a must requirement with no approval (gate PASS)"
  exit 1
fi
echo "fixed: the gate does not PASS on a base that is a rival adoption"
exit 0
