#!/usr/bin/env bash
# Defect: a GitHub token split by an invisible Unicode format character other than the five the redactor knows
#   (U+200B..U+200D, U+2060, U+FEFF in harness/core/redact.py _TERMINAL, "invisible on a terminal") is written to the
#   ledger and task.yaml in clear and passes the commit and push checks: U+200E LEFT-TO-RIGHT MARK, U+2063 INVISIBLE
#   SEPARATOR, U+2066..U+2069 (bidi isolates), U+00AD SOFT HYPHEN are as invisible (zero width, category Cf) and the
#   token reads whole on a terminal. The same title with U+200B is redacted.
# Correct: every default-ignorable format character (Unicode category Cf) is removed in the redactor's view, as U+200B
#   is, so the token is redacted wherever it is written (or the commit refused).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install && harness task new t \
  && echo a > a.txt && git add -A && git commit -qm init && git push -q origin main ) >/dev/null 2>&1 || exit 2
A=ghp_A1b2C3d4E5f6G7h8I9j0; B=K1l2M3n4O5p6Q7r8
# Control: split by U+200B ZERO WIDTH SPACE, the token is redacted.
harness task new "$(printf 'rotate %s\u200b%s' "$A" "$B")" >/dev/null 2>&1 || exit 2
if grep -rq "$B" .harness/tasks; then echo "setup: the U+200B control was not redacted"; exit 2; fi
bad=""
for cp in 200e 2063 2066; do
  harness task new "$(printf "rotate %s\\u$cp%s" "$A" "$B")" >/dev/null 2>&1 || exit 2
done
git add -A
if ! git commit -qm titles >"$T/out" 2>&1; then
  grep -q secret-in-harness-files "$T/out" && { echo "OK: the commit check refused it"; exit 0; }
  echo "setup: refused for another reason:"; cat "$T/out"; exit 2
fi
git push -q origin main >/dev/null 2>&1 || { echo "OK: the push was refused"; exit 0; }
n=$(git --git-dir="$T/remote.git" grep -h "$B" main -- '.harness/*/task.yaml' | wc -l)
if [ "$n" -eq 0 ]; then echo "OK: the token was redacted"; exit 0; fi
echo "DEFECT: $n task title(s) on the remote hold $A<U+200E|U+2063|U+2066>$B, a token that reads whole on a terminal:"
git --git-dir="$T/remote.git" grep -h "$B" main -- '.harness/*/task.yaml' | head -3
exit 1
