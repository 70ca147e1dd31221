#!/usr/bin/env bash
# Defect: `harness task spec --design URL --plan URL` (TaskStore.set_spec, store/tasks.py) writes the links into
# task.yaml's `spec` as given: free text from the CLI that never passes the store's redaction boundary
# (redact_data), nor the write check (_no_secret_in). A link carrying a credential -- `?access_token=ghp_…`, or
# `https://user:PASSWORD@wiki…` -- is written to .harness/ in clear (the commit check then refuses task.yaml as
# "written by hand or by an older version", though the harness wrote it).
# Correct: the links are redacted as every other CLI free-text field is (titles, statements, findings).
# Exit 1 while a value is in task.yaml in clear, 0 when redacted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
# control: the same URL in a task's title is redacted
harness task new "design at https://wiki:Hq7pW2xZr9Lm@wiki.example.com/plan" >/dev/null 2>&1 || exit 2
grep -rqF "Hq7pW2xZr9Lm" .harness && { echo "setup: the title control kept the value" >&2; exit 2; }
harness task spec --design "https://docs.example.com/d/design?access_token=ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6" \
  --plan "https://wiki:Hq7pW2xZr9Lm@wiki.example.com/plan" >/dev/null 2>&1 || exit 2
if hits=$(grep -rnE "ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6|Hq7pW2xZr9Lm" .harness); then
  echo "DEFECT: spec links written in clear:"; echo "$hits"; exit 1
fi
echo "links redacted"; exit 0
