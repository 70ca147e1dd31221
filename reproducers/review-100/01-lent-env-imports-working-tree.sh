#!/usr/bin/env bash
# Defect: `harness finding regression F --failing-at COMMIT` lends the repository's git-ignored .venv to the
#   throw-away checkout (harness/findings/checkout_env.py `lent`, used by before_fix.py `_run_at`), but only
#   puts the checkout's root and src/ first on PYTHONPATH (pass_to_pass.py `inside`). An editable install of a
#   workspace package (`packages/lib/src` named in the venv's `__editable__.lib-0.1.pth`, as pip/setuptools,
#   hatchling and uv workspaces write it) is therefore still imported from the WORKING TREE, not the checkout.
#   The evidence path already handles exactly this (tree_imports.worktree_env: F-0300/F-0301/F-0307: put the
#   worktree's counterpart `packages/lib/src` first, or refuse); _run_at does not use it.
#   Result: (a) with the fix reverted in the working tree (uncommitted), `--failing-at HEAD` — a commit that
#   already holds the fix — is accepted: the finding's confirming reproducer "fails there with the same exit
#   code" because it runs the working tree's buggy code; the F-0325 guard is fooled and the ledger records a
#   regression test "failing at" a fixed commit. (b) honest use: --failing-at the real commit before the fix is
#   refused with the false claim "passes there, so that commit already holds the fix".
# Correct: code run in the checkout imports the checkout's packages (the checkout's packages/lib/src first,
#   as worktree_env does), or the run is refused as importing the repository's checkout; never recorded.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t \
  && mkdir -p packages/lib/src/lib && printf 'def answer():\n    return 42\n' > packages/lib/src/lib/__init__.py \
  && printf '[project]\nname = "lib"\nversion = "0.1"\n' > packages/lib/pyproject.toml \
  && printf '__pycache__/\n.venv/\n' > .gitignore && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
# the project's environment, with lib installed editable (the static .pth line pip/uv write for a src layout)
/usr/bin/python3 -m venv --without-pip .venv || exit 2
SP=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') || exit 2
echo "$R/packages/lib/src" > "$SP/__editable__.lib-0.1.pth"
# the reviewer's reproducer, in this project's style: runs the project's environment from another folder
cat > repro.sh <<'S'
here=$(cd "$(dirname "$0")" && pwd)
cd "${TMPDIR:-/tmp}" || exit 2
exec "$here/.venv/bin/python" -c "import lib, sys; print('lib from', lib.__file__, 'answer', lib.answer()); sys.exit(0 if lib.answer() == 41 else 1)"
S
cat > "$T/f.yaml" <<'Y'
- type: suspected_defect
  severity: major
  category: correctness
  title: lib.answer() is off by one
  claim: lib.answer() returns 42 where 41 is required
  location: {file: packages/lib/src/lib/__init__.py, line: 2}
  failure_scenario: [call lib.answer()]
  expected_behavior: "41"
  possible_actual_behavior: "42"
  recommended_reproducer: {type: unit_test, description: run it, command: [sh, repro.sh]}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
harness finding reproduce F-0001 >/dev/null 2>&1 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: not confirmed"; exit 2; }
BEFORE=$(git rev-parse HEAD)
printf 'def answer():\n    return 41\n' > packages/lib/src/lib/__init__.py
git add -A && git commit -qm "fix lib.answer" >/dev/null 2>&1 || exit 2
FIXED=$(git rev-parse HEAD)
mkdir -p tests
printf 'import lib\nassert lib.answer() == 41, lib.answer()\n' > tests/test_answer.py
# both the test and the reproducer say where they import lib from
printf 'import lib\nprint("lib from", lib.__file__)\nassert lib.answer() == 41, lib.answer()\n' > tests/test_answer.py
ledger() { cat .harness/tasks/*/events.jsonl 2>/dev/null | md5sum; }

# (b) honest use: --failing-at the commit before the fix
OUT_B=$(harness finding regression F-0001 tests/test_answer.py --failing-at "$BEFORE" -- .venv/bin/python tests/test_answer.py 2>&1); RC_B=$?
echo "--- (b) --failing-at $BEFORE (before the fix): rc=$RC_B"
echo "$OUT_B" | grep -E "lib from|harness:|F-0001" | head -4
# (a) the attack: the fix reverted in the working tree only, --failing-at a commit that holds the fix
printf 'def answer():\n    return 42\n' > packages/lib/src/lib/__init__.py
L0=$(ledger)
OUT_A=$(harness finding regression F-0001 tests/test_answer.py --failing-at "$FIXED" -- .venv/bin/python tests/test_answer.py 2>&1); RC_A=$?
L1=$(ledger)
git checkout -q packages/lib/src/lib/__init__.py
echo "--- (a) --failing-at $FIXED (holds the fix), fix reverted in the working tree: rc=$RC_A"
echo "$OUT_A" | grep -E "lib from|harness:|F-0001" | head -4
[ "$(git worktree list | wc -l)" -eq 1 ] || echo "note: worktrees left behind"
bad=0
if printf '%s\n%s\n' "$OUT_A" "$OUT_B" | grep -q "lib from $R/"; then
  echo "DEFECT: code run in the checkout of an old commit imported the WORKING TREE's lib ($R/packages/lib/src)"; bad=1
fi
if [ "$RC_A" -eq 0 ] || [ "$L0" != "$L1" ]; then
  echo "DEFECT: a commit that already holds the fix was accepted as one where the bug is"; bad=1
fi
exit $bad
