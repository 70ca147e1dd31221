#!/usr/bin/env bash
# Defect: what `harness approve config-change` shows the human - the one thing they decide on - can be hidden by the
#   change itself. The agent edits the test command (adds `-k "not test_critical"`, deselecting the test that fails)
#   and, in the same edit, adds a redaction pattern matching that text (adding a pattern needs no approval and is not
#   listed). harness/approvals/approve.py _shown_command redacts with the working config's patterns, so the prompt
#   reads `evidence.unit_test.command changed: ... -k [REDACTED:custom]` - a secret's mark - and nothing says the
#   change itself added the pattern that hides it. The human approves a command they were not shown; the approval
#   is valid for every check.
# Correct: the change being approved cannot hide its own content from the approver: the terminal shows what the
#   command becomes (patterns the change adds not applied to what is displayed, or at least the added pattern named
#   as part of the change, with its effect on the shown command), while the signed, committed line may stay redacted.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=h GIT_AUTHOR_EMAIL=h@x GIT_COMMITTER_NAME=h GIT_COMMITTER_EMAIL=h@x
ssh-keygen -q -t ed25519 -N '' -f "$T/human" -C human >/dev/null || exit 2
R="$T/repo"; mkdir "$R" && cd "$R" || exit 2
mkdir .harness && printf '%s\n' 'version: 1' 'evidence:' '  unit_test:' '    command: ["python3", "-m", "pytest", "-q", "tests"]' \
  'redaction:' '  patterns: []' > .harness/config.yaml
( git init -q -b main && echo a > a.txt && harness init && echo "h@x $(cut -d' ' -f1,2 "$T/human.pub")" \
    > .harness/allowed_signers && harness install && git add -A && git commit -qm adopt ) >/dev/null 2>&1 || exit 2
grep -q '"tests"]' .harness/config.yaml || exit 2
# The agent's edit: the command deselects the failing test, and a new pattern masks exactly that.
sed -i 's/"-q", "tests"]/"-q", "tests", "-k", "not test_critical"]/; s/patterns: \[\]/patterns: ["not test_\\\\w+"]/' \
  .harness/config.yaml
grep -q 'not test_critical' .harness/config.yaml && grep -q 'patterns: \["not' .harness/config.yaml || exit 2
# What the human is shown before typing "approve" (answered "no" here: nothing is recorded).
script -qec "harness approve config-change --key $T/human" /dev/null <<<"no" > "$T/shown" 2>&1
grep -q "evidence.unit_test" "$T/shown" || { cat "$T/shown"; exit 2; }
echo "--- what the approver is shown:"; tr -d '\r' < "$T/shown" | grep -v '^no$' | sed 's/type "approve".*/type "approve" .../'
if grep -q "not test_critical" "$T/shown" || grep -qi "pattern" "$T/shown"; then
  echo "ok: the approver sees what the command becomes (or the pattern the change adds)"; exit 0; fi
echo "DEFECT: the command's new arguments are shown as [REDACTED], hidden by a pattern the same change adds, unmentioned"
exit 1
