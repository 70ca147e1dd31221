#!/usr/bin/env bash
# Defect: the commit check reads a `.json` file only through json.loads (secrets_check._json_values), with no pass
# over its text: a key given twice keeps only its last value, so the first value -- a GitHub token here -- is never
# read, and `git commit` lets the file through. (A `.jsonl` ledger line is read the same way.)
# Correct: every value the file's text holds is read (or the text itself); the commit is refused.
# Exit 1 while the commit is accepted, 0 when refused, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install \
  && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
printf '{"note": "deploy with ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}\n' > .harness/handover.json
git add -A >/dev/null 2>&1
git commit -qm control >/dev/null 2>&1 && { echo "setup: the control was not refused" >&2; exit 2; }
printf '{"note": "deploy with ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6", "note": "see the wiki"}\n' > .harness/handover.json
git add -A >/dev/null 2>&1
if out=$(git commit -qm handover 2>&1); then
  echo "DEFECT: committed:"; git show HEAD:.harness/handover.json; exit 1
fi
echo "refused:"; echo "$out" | grep handover.json; exit 0
