#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The commit check (harness/store/secrets_check.py flagged_values -> _yaml) reads a .yaml file under
# .harness/ through yaml.compose and looks only at its scalar nodes: a YAML comment is never read.
# config.yaml and gate.yaml are the files a person edits by hand (config.yaml ships with commented-out
# example commands to adapt), so a token left in a comment — an old command commented out, a note —
# is committed and pushed, while the same token as a value is refused.
# Exit 1 while a commit with a secret in a comment of .harness/config.yaml or gate.yaml passes; 0 when
# both are refused; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
base=$(git rev-parse HEAD)
GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
AK=AKIAQWERTYUIOPASDFGH
try() { # LABEL FILE: commit FILE as edited; report; back to base
  git add -A >/dev/null
  if git commit -qm edit >/dev/null 2>&1; then echo "$1: commit ACCEPTED ($(git show --stat --format= HEAD | head -1 | sed 's/|.*//'))"; res=accepted
  else echo "$1: commit refused"; res=refused; fi
  git reset -q --hard "$base"
}
# control: the token as a value is refused
sed -i "s|^  patterns: \[\]|  patterns: [\"$GH\"]|" .harness/config.yaml; grep -q "$GH" .harness/config.yaml || exit 2
try "control, token as a value in config.yaml"; [ "$res" = refused ] || { echo "setup: control accepted" >&2; exit 2; }
rc=0
# 1. an old command commented out in config.yaml's evidence section
printf '#  smoke:\n#    command: ["curl", "-fsS", "-H", "Authorization: Bearer %s", "https://api.github.com/user"]\n' "$GH" >> .harness/config.yaml
try "token in a comment of .harness/config.yaml"; [ "$res" = accepted ] && rc=1
# 2. an end-of-line comment in gate.yaml
sed -i "1s|\$|  # staging key $AK|" .harness/gate.yaml; grep -q "$AK" .harness/gate.yaml || exit 2
try "key in a comment of .harness/gate.yaml"; [ "$res" = accepted ] && rc=1
exit $rc
