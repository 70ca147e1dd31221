#!/usr/bin/env bash
# Defect: `harness approve config-change` shows a list command's arguments joined by single spaces, so where one
#   argument ends and the next begins is not shown: the approver cannot tell `sh -c 'python3 -m pytest -q tests'`
#   from `["sh", "-c", "python3", "-m", "pytest", "-q", "tests"]`. The agent changes the unit_test command to the
#   latter; the prompt reads `'python3 -m pytest -q tests' → 'sh -c python3 -m pytest -q tests'` (a harmless-looking
#   wrap in a shell), but `sh -c python3 ...` runs `python3` alone (the rest become $0, $1, ...), which reads the
#   empty stdin the runner gives it and exits 0: pytest never runs, and the evidence passes with a failing suite.
#   harness/approvals/approve.py _spelling (and _shown_command) return `" ".join(redact_argv(argv, red))`, and
#   harness/core/policy.py command_changes prints it with !r: a string, not the argument list. The approval is valid
#   at every check (it signs what it showed, in the same spelling).
# Correct: what the approver reads keeps argument boundaries (shlex.join-style quoting, or the list itself), so a
#   command that means something else than it reads cannot be approved unseen.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=h GIT_AUTHOR_EMAIL=h@x GIT_COMMITTER_NAME=h GIT_COMMITTER_EMAIL=h@x
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2
R="$T/repo"; mkdir "$R" && cd "$R" || exit 2
mkdir .harness tests && printf '%s\n' 'version: 1' 'evidence:' '  unit_test:' \
  '    command: ["python3", "-m", "pytest", "-q", "tests"]' 'redaction:' '  patterns: []' > .harness/config.yaml
printf 'def test_critical():\n    assert False\n' > tests/test_x.py
( git init -q -b main && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && harness task new t && git add -A && git commit -qm adopt ) \
  >/dev/null 2>&1 || exit 2
python3 -m pytest -q tests >/dev/null 2>&1 && exit 2   # the suite fails
# The agent's edit: the same words, split into other arguments.
sed -i 's/command: \["python3", "-m", "pytest", "-q", "tests"\]/command: ["sh", "-c", "python3", "-m", "pytest", "-q", "tests"]/' \
  .harness/config.yaml
grep -q '"sh", "-c", "python3", "-m"' .harness/config.yaml || exit 2
script -qec "harness approve config-change --key $T/human" /dev/null <<<"approve" > "$T/shown" 2>&1
grep -q "evidence.unit_test" "$T/shown" || { cat "$T/shown"; exit 2; }
echo "--- what the approver is shown:"; tr -d '\r' < "$T/shown" | grep -v '^approve$' | sed 's/type "approve".*/type "approve" .../'
committed=0; git add -A && git commit -qm "unit_test in a shell (approved)" >"$T/commit.log" 2>&1 && committed=1
echo "--- the commit with the approval accepted: $committed"
passed=0
if [ $committed = 1 ]; then
  harness evidence unit_test >"$T/ev.log" 2>&1
  grep -q '"exit_code": 0' .harness/tasks/*/evidence/unit_test.json 2>/dev/null && passed=1
  echo "--- harness evidence unit_test with a failing suite: exit_code 0 recorded: $passed"
fi
if ! grep -q "→ 'sh -c python3 -m pytest -q tests'" "$T/shown"; then
  echo "ok: the prompt shows the argument boundaries"; exit 0; fi
[ $committed = 1 ] && [ $passed = 1 ] || { echo "the approved command did not pass (setup?)"; cat "$T/commit.log" "$T/ev.log" 2>/dev/null; exit 2; }
echo "DEFECT: approved as 'sh -c python3 -m pytest -q tests'; what runs is python3 alone (pytest never runs), and it passes"
exit 1
