#!/usr/bin/env bash
# Defect (harness/findings/steps.py reopen): a reviewer's reproducer given as one string a shell could split
# (`python -c "..."`), which `finding reproduce` splits into arguments before it runs it, is handed to the runner
# as the string itself by `finding reopen`; the runner runs no string without a shell, so a fixed finding whose fix
# was reverted cannot be reopened (noticed by the helper that fixed F-0566).
# Correct: `finding reopen` runs the reviewer's reproducer as `finding reproduce` does (a string split into its
# arguments), and a failing run reopens the finding.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
mkdir -p "$T/home" "$T/repo" && cd "$T/repo" || exit 2
git init -q -b main . && printf '__pycache__/\n' > .gitignore && printf 'def answer():\n    return 42\n' > app.py
git add -A && git commit -qm base || exit 2
harness init >/dev/null 2>&1 && harness task new "answer" >/dev/null 2>&1 || { echo "setup failed: init"; exit 2; }
cat > "$T/f.yaml" <<'YAML'
type: defect
severity: major
category: correctness
title: answer() is off by one
claim: app.py answer() returns 42 where 41 is asked
location: {file: app.py, line: 2}
failure_scenario: [import app, call answer()]
expected_behavior: answer() returns 41
possible_actual_behavior: answer() returns 42
recommended_reproducer: {type: unit_test, description: exits 1 while wrong, command: "python -c 'import app, sys; sys.exit(0 if app.answer() == 41 else 1)'"}
YAML
harness finding propose --file "$T/f.yaml" >/dev/null && harness finding reproduce F-0001 >/dev/null 2>&1
printf 'import app\n\ndef test_answer():\n    assert app.answer() == 41\n' > test_answer.py
harness finding regression F-0001 test_answer.py -- python -m pytest -q test_answer.py >/dev/null 2>&1 \
  || { echo "setup failed: regression"; exit 2; }
printf 'def answer():\n    return 41\n' > app.py
harness finding fixed F-0001 >/dev/null || { echo "setup failed: fixed"; exit 2; }
printf 'def answer():\n    return 42\n' > app.py   # the fix reverted
harness finding reopen F-0001 >"$T/reopen.log" 2>&1 || tail -3 "$T/reopen.log"
status=$(harness finding list --json | python -c 'import json,sys; print([f["status"] for f in json.load(sys.stdin)["findings"]][0])')
echo "F-0001 with its fix reverted: $status"
[ "$status" = CONFIRMED ] && exit 0 || exit 1
