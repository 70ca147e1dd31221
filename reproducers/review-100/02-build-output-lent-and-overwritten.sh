#!/usr/bin/env bash
# Defect: harness/findings/checkout_env.py `is_environment` takes any top-level git-ignored folder with a `bin/`
#   for an "environment" and `lent` links it into --failing-at's throw-away checkout. A build output folder is
#   exactly that (make/CMake's `build/bin/`). A reproducer that builds before it runs (`make && build/bin/x`)
#   then builds the OLD commit's code through the link INTO THE WORKING TREE's build folder: after
#   `harness finding regression F --failing-at COMMIT`, the working tree's build/bin/answer is the pre-fix
#   program, newer than the fixed source, so `make` there says "up to date" and every later run in the working
#   tree (evidence, tests) runs the buggy binary. The docs promise "the working tree is never touched".
# Correct: nothing a --failing-at run does changes the working tree (its ignored files included): a build
#   output is not lent (or is lent read-only / copied), and the working tree's build/bin/answer still prints 41.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v make >/dev/null || exit 2
( git init -q -b main && harness init && harness install && harness task new t && mkdir src \
  && printf '#!/bin/sh\necho 42\n' > src/answer.sh \
  && printf 'build/bin/answer: src/answer.sh\n\tmkdir -p build/bin && cp src/answer.sh $@ && chmod +x $@\n' > Makefile \
  && printf '/build/\n' > .gitignore && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
make -s || exit 2
printf '%s\n' 'make -s >/dev/null && test "$(build/bin/answer)" = 41' > repro.sh
cat > "$T/f.yaml" <<'Y'
- type: suspected_defect
  severity: major
  category: correctness
  title: answer prints 42
  claim: build/bin/answer prints 42 where 41 is required
  location: {file: src/answer.sh, line: 2}
  failure_scenario: [make, run build/bin/answer]
  expected_behavior: "41"
  possible_actual_behavior: "42"
  recommended_reproducer: {type: unit_test, description: build and run, command: [sh, repro.sh]}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
harness finding reproduce F-0001 >/dev/null 2>&1 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: not confirmed"; exit 2; }
BEFORE=$(git rev-parse HEAD)
sleep 1; printf '#!/bin/sh\necho 41\n' > src/answer.sh
make -s && [ "$(build/bin/answer)" = 41 ] || exit 2          # the working tree built with the fix
git add -A && git commit -qm "fix answer" >/dev/null 2>&1 || exit 2
printf '%s\n' 'make -s >/dev/null && test "$(build/bin/answer)" = 41' > test_answer.sh
sleep 1
harness finding regression F-0001 test_answer.sh --failing-at "$BEFORE" -- sh test_answer.sh >"$T/out" 2>&1; RC=$?
echo "--- regression --failing-at the commit before the fix: rc=$RC"; grep -E "harness:|F-0001" "$T/out" | head -3
NOW=$(build/bin/answer); UPTODATE=$(make -q && echo "make says up to date" || echo "make would rebuild")
echo "working tree: src/answer.sh says $(sed -n 2p src/answer.sh); build/bin/answer prints $NOW; $UPTODATE"
[ "$(git worktree list | wc -l)" -eq 1 ] || echo "note: worktrees left behind"
if [ "$NOW" != 41 ]; then
  echo "DEFECT: the --failing-at run rebuilt the old commit's program into the working tree's build/ (through the lent link)"
  exit 1
fi
echo "ok: the working tree's build output is untouched"; exit 0
