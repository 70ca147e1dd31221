#!/usr/bin/env bash
# Defect: harness/findings/checkout_env.py `lent` lends a top-level environment only when `is_ignored(name)` says
#   git ignores the folder NAME itself. A virtual environment made by uv (`uv venv`), virtualenv >= 20.23 or
#   Python >= 3.13's `venv` carries its own `.gitignore` holding `*`: every file in it is git-ignored (`git status`
#   is clean, nothing in it can be committed), but the folder's name matches no rule, so it is not lent. The
#   finding's reproducer (`"$here"/.venv/bin/python`, this project's own style) then exits 127 in the checkout and
#   the commit where the bug is is refused ("fails there with exit 127, not exit 1") — F-0350, the very case the
#   change fixes, is still there for the now-default way environments are made.
# Correct: a folder whose contents git ignores entirely (its own `.gitignore` `*`) is lent like one the root
#   .gitignore names; --failing-at the commit before the fix is accepted.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t \
  && printf 'def answer():\n    return 42\n' > app.py && printf '__pycache__/\n' > .gitignore \
  && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
/usr/bin/python3 -m venv --without-pip .venv || exit 2
printf '# created by virtualenv automatically\n*\n' > .venv/.gitignore   # what uv / virtualenv / Python 3.13 write
SP=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') || exit 2
echo "$R" > "$SP/__editable__.app-0.1.pth"                            # the project installed editable
[ -z "$(git status --porcelain -- .venv)" ] || { echo "setup: .venv is not ignored"; exit 2; }
cat > repro.sh <<'S'
here=$(cd "$(dirname "$0")" && pwd)
cd "${TMPDIR:-/tmp}" || exit 2
exec "$here/.venv/bin/python" -c "import app, sys; print('answer', app.answer()); sys.exit(0 if app.answer() == 41 else 1)"
S
cat > "$T/f.yaml" <<'Y'
- type: suspected_defect
  severity: major
  category: correctness
  title: answer() is off by one
  claim: answer() returns 42 where 41 is required
  location: {file: app.py, line: 2}
  failure_scenario: [call answer()]
  expected_behavior: "41"
  possible_actual_behavior: "42"
  recommended_reproducer: {type: unit_test, description: run it, command: [sh, repro.sh]}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
harness finding reproduce F-0001 >/dev/null 2>&1 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: not confirmed"; exit 2; }
BEFORE=$(git rev-parse HEAD)
printf 'def answer():\n    return 41\n' > app.py
git add -A && git commit -qm "fix answer" >/dev/null 2>&1 || exit 2
printf 'import app\nassert app.answer() == 41, app.answer()\n' > test_answer.py
harness finding regression F-0001 test_answer.py --failing-at "$BEFORE" -- /usr/bin/python3 test_answer.py >"$T/out" 2>&1; RC=$?
echo "--- regression --failing-at the commit before the fix: rc=$RC"; grep -E "harness:|F-0001|127" "$T/out" | head -3
if [ "$RC" -ne 0 ]; then
  echo "DEFECT: the commit where the bug is was refused: the git-ignored .venv (ignored by its own .gitignore) was not lent"
  exit 1
fi
echo "ok: accepted"; exit 0
