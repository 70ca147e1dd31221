#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A token put in .harness/config.yaml where the schema wants something else (a mapping of variables
# under recorded_env, which takes names; an unknown key) is refused by the commit check without being
# shown ("line 22 holds what looks like a secret (github_token)") — but the schema check's message in
# the same refusal quotes the offending value (jsonschema's "{'API_TOKEN': 'ghp_…'} is not of type
# 'array'", "unknown field(s) ghp_…"): the commit hook prints the token to the terminal and the
# agent's transcript, the post-commit warning and `harness audit` print it again (CI logs), and so does
# `harness status`. Messages about a .harness/ file should pass through the redactor like everything
# else the harness writes.
# Exit 1 while any of these outputs holds the token; 0 when none does; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
base=$(git rev-parse HEAD)
GH=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5
rc=0
shows() { # LABEL OUTPUT
  if grep -q -- "$GH" <<<"$2"; then echo "LEAK: $1 prints the token: $(grep -- "$GH" <<<"$2" | head -1 | sed "s/$GH/<the token>/g" | cut -c1-160)"; rc=1
  else echo "ok: $1 does not print it"; fi
}
echo "recorded_env: {API_TOKEN: $GH}" >> .harness/config.yaml
git add -A
out=$(git commit -qm x 2>&1); c=$?
[ $c = 0 ] && { echo "setup: the commit was accepted" >&2; exit 2; }
grep -q "secret-in-harness-files" <<<"$out" || { echo "setup: no secret refusal: $out" >&2; exit 2; }
shows "the commit refusal (recorded_env mapping)" "$out"
shows "harness status" "$(harness status 2>&1)"
git commit -qm x --no-verify >/dev/null 2>&1 || exit 2
shows "harness audit (CI)" "$(harness audit --from "$base" --to HEAD 2>&1)"
git reset -q --hard "$base"
printf '%s: 1\n' "$GH" >> .harness/gate.yaml
git add -A; out=$(git commit -qm y 2>&1)
shows "the commit refusal (unknown key in gate.yaml)" "$out"
exit $rc
