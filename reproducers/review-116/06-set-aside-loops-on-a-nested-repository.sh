#!/usr/bin/env bash
# Defect: the set-aside step Next: names after an attempt on other code (harness/core/next_step.py Detour.steps,
#   command from harness/core/finding_binding.py source_at: `git clean -fdq -e .harness -- . && git restore
#   --source=<proposed> ...`) cannot remove an untracked nested git repository (git clean needs -ff for one), while
#   the source tree the reproduce measures counts it. So the source never becomes the proposed tree: the reproduce is
#   an attempt again, `detour` takes that run's tree (the change already set aside) as the one to come back to, and
#   from then on Next: names the same set-aside command forever - a loop - and the agent's change (app.py's fix) is
#   never named again.
# Correct: following Next: reaches the proposed code (or says what keeps it from it), reproduces there once, and brings
#   the whole change back; no step is named again after it ran without effect.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
PY="$here"/.venv/bin/python
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && printf 'def answer():\n    return 42\n' > app.py && printf '__pycache__/\n' > .gitignore \
  && harness init && git add -A && git commit -qm init && harness task new t \
  && harness requirement add "it works" --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build -- $PY -c pass && harness evidence unit_test -- $PY -c pass \
  && harness requirement set REQ-001 --status verified --evidence unit_test && harness transition REVIEWING ) \
  >"$T/setup.log" 2>&1 || { cat "$T/setup.log"; exit 2; }
mkdir -p "$T/inbox"; cat > "$T/inbox/f.yaml" <<EOY
type: suspected_defect
severity: major
category: correctness
title: answer() is off by one
claim: answer() returns 42 where the requirement says 41
location: {file: app.py, line: 2}
failure_scenario: [import app, call app.answer()]
expected_behavior: answer() returns 41
possible_actual_behavior: answer() returns 42
recommended_reproducer:
  type: unit_test
  description: assert the value
  command: [$PY, -c, "import app, sys; sys.exit(0 if app.answer() == 41 else 1)"]
EOY
harness finding propose --file "$T/inbox/f.yaml" >/dev/null 2>&1 || exit 2
# The agent's change: the fix, and a library cloned into the tree to read (a nested repository).
printf 'def answer():\n    return 41\n' > app.py
mkdir -p vendor/lib && ( cd vendor/lib && git init -q && echo x > x && git add x && git commit -qm x ) || exit 2
harness finding reproduce F-0001 >"$T/r.log" 2>&1
grep -q "only an attempt" "$T/r.log" || { echo "setup: first reproduce was not an attempt"; exit 2; }

ran=(); prev=""; repeats=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
  cmd=$(harness status --json | $PY -c 'import json,sys; d=json.load(sys.stdin); print(next((n["command"] for n in d["next"] if not n["command"].startswith("harness approve")), ""))')
  [ "$cmd" = "$prev" ] && repeats=$((repeats+1))
  prev=$cmd
  case "$cmd" in
    git\ *) ran+=("set-aside/back"); eval "$cmd" >/dev/null 2>&1 ;;
    "harness finding reproduce F-0001") ran+=("reproduce"); eval "$cmd" >/dev/null 2>&1 ;;
    *) break ;;
  esac
done
echo "steps followed: ${ran[*]}"
status=$(harness finding list 2>/dev/null | awk '/F-0001/{print $2}')
fixed=no; grep -q 'return 41' app.py && fixed=yes
echo "finding: $status; the same step named again right after it ran: $repeats time(s); app.py fix back: $fixed"
if [ "$status" = CONFIRMED ] && [ $fixed = yes ] && [ $repeats -eq 0 ]; then echo "OK"; exit 0; fi
echo "DEFECT: Next:'s set-aside never reaches the proposed code; it is named again and again and the change is dropped"
exit 1
