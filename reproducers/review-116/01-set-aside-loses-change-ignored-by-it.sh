#!/usr/bin/env bash
# Defect: after a `harness finding reproduce` that was only an attempt on other code, `Next:` (harness/core/next_step.py
#   Detour/detour, commands from harness/core/finding_binding.py source_at) sets the change aside with
#   `git clean -fdq -e .harness -- . && git restore --source=<proposed> ...` and brings it back with the same command for
#   the attempt's tree. When the change added a .gitignore entry for a file it keeps on disk (a .env, a build dir, a
#   venv), the set-aside restores the proposal's .gitignore, so that file becomes untracked: the reproduce on the
#   "proposed code" is an attempt again (tree = proposal + that file), `detour` then takes THAT run's tree as the one to
#   come back to, and the agent following Next: ends with the change itself gone (app.py fix and .gitignore edit
#   reverted), the formerly ignored file brought back as an untracked, un-ignored file; the change's tree is never
#   named again.
# Correct: following Next: step by step reproduces the finding on the proposed code and brings the whole change back
#   (app.py as the agent left it, its .gitignore, its ignored file), with no repeated set-aside.
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

# The agent's change, made before reproducing: the fix, and a local file its .gitignore entry keeps out of git.
printf 'def answer():\n    return 41\n' > app.py
printf 'secret.env\n' >> .gitignore
echo 'TOKEN=local-only' > secret.env
harness finding reproduce F-0001 >"$T/r.log" 2>&1
grep -q "only an attempt" "$T/r.log" || { echo "setup: first reproduce was not an attempt"; cat "$T/r.log"; exit 2; }

# Follow Next: as an agent does (git lines and `harness finding reproduce`), until it names no git step.
ran=()
for _ in 1 2 3 4 5 6 7 8; do
  cmd=$(harness status --json | $PY -c 'import json,sys; d=json.load(sys.stdin); print(next((n["command"] for n in d["next"] if not n["command"].startswith("harness approve")), ""))')
  case "$cmd" in
    git\ *) ran+=("set-aside/back"); eval "$cmd" || { echo "step failed: $cmd"; exit 1; } ;;
    "harness finding reproduce F-0001") ran+=("reproduce"); eval "$cmd" >/dev/null 2>&1 ;;
    *) break ;;
  esac
done
echo "steps followed: ${ran[*]}"
status=$(harness finding list 2>/dev/null | awk '/F-0001/{print $2}')
fixed=no; grep -q 'return 41' app.py && fixed=yes
ign=no; grep -qx 'secret.env' .gitignore && ign=yes
env=no; [ -f secret.env ] && env=yes
echo "finding: $status; app.py fix back: $fixed; .gitignore entry back: $ign; secret.env present: $env"
if [ "$status" = CONFIRMED ] && [ $fixed = yes ] && [ $ign = yes ] && [ $env = yes ]; then
  echo "OK: the change came back whole"; exit 0
fi
echo "DEFECT: following Next:'s set-aside/restore lost the agent's change (tree of the first attempt never named again)"
exit 1
