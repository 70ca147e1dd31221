#!/usr/bin/env bash
# Defect: secrets_check._yaml skips every node under a key named in STRUCTURAL (commit, head, tree, digest,
# signature, repository, binding, ...) whatever it holds: `if key in STRUCTURAL: continue`. The JSON reader skips
# such a value only when it has the shape of the harness's ids (_structural: hex ids, an SSH signature block). So a
# GitHub token as `commit: ghp_…`, or a whole mapping under `repository:` holding a URL with its password and a
# `password:` line, in a `.harness/` YAML file passes `git commit`; the same in JSON is refused.
# Correct: refused, as in JSON. Exit 1 while the commit is accepted, 0 when refused, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install \
  && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
# control: the same token under a structural key of a JSON file is refused
printf '{"commit": "ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}\n' > .harness/release.json
git add -A >/dev/null 2>&1
git commit -qm control >/dev/null 2>&1 && { echo "setup: the JSON control was not refused" >&2; exit 2; }
git rm -q --cached .harness/release.json >/dev/null 2>&1; rm -f .harness/release.json
cat > .harness/release.yaml <<'Y'
release:
  commit: ghp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6
  repository:
    url: https://ci:Hq7pW2xZr9Lm@git.example.com/app.git
    password: Hq7pW2xZr9Lm
Y
git add -A >/dev/null 2>&1
if out=$(git commit -qm release 2>&1); then
  echo "DEFECT: committed:"; git show HEAD:.harness/release.yaml; exit 1
fi
echo "refused:"; echo "$out" | grep release.yaml; exit 0
