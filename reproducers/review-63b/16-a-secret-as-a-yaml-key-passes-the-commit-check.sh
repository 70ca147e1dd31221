#!/usr/bin/env bash
# Defect: the commit check reads a YAML file's scalar values (secrets_check._yaml), its text outside every scalar
# (_in_comments / yaml_outside_scalars, which blanks keys too, being scalars), and a key only as the context of a
# one-word scalar value (_pair). A mapping KEY whose value is a mapping, a list, or text of more than one word is
# never read: a GitHub token or an AWS key id written as a key in a `.harness/` YAML file is committed. (The JSON
# reader yields every key; a key whose value is one word is caught, through _pair.)
# Correct: the commit is refused, naming the line. Exit 1 while the commit is accepted, 0 when refused, 2 on setup.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install \
  && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
# control: the same token as a one-word value is refused
printf 'deploy:\n  token: ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6\n' > .harness/notes.yaml
git add -A >/dev/null 2>&1
git commit -qm control >/dev/null 2>&1 && { echo "setup: the control value was not refused" >&2; exit 2; }
cat > .harness/notes.yaml <<'Y'
deploy credentials:
  ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6:
    scope: repo and packages
  AKIAIOSFODNN7EXAMPLQ: the CI user's key id
Y
git add -A >/dev/null 2>&1
if out=$(git commit -qm notes 2>&1); then
  echo "DEFECT: committed:"; git show HEAD:.harness/notes.yaml; exit 1
fi
echo "refused:"; echo "$out" | grep notes.yaml; exit 0
