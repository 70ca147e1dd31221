#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Slack tokens are one of the kinds docs/threat-model.md promises to redact, but the own slack_token
# rule (harness/core/redact.py) knows only `xox[abprs]-` and detect-secrets' only `xox[aboprs]-` and
# webhooks. Slack's app-level token (`xapp-1-…`, what every Socket Mode bot holds as SLACK_APP_TOKEN)
# and its refresh token of token rotation (`xoxe-1-…`) are recognised by nothing: written in clear in
# a requirement statement, a finding and a command's output (evidence/TYPE.json, TYPE.log), and the
# commit check lets the commit through. (A value in a secret-named variable of the recording shell is
# redacted as that variable's: the leak is of a token read from a file or quoted in free text.)
# Exit 1 while any token reaches .harness/ in clear; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
XAPP=xapp-1-A04QWERTY12-6712345098765-9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0
XOXE=xoxe-1-My0xLTU1NTU1NTU1NTUtNjcxMjM0NTA5ODc2NS04NzY1NDMyMTAxMjM0LTlmOGU3ZDZjNWI0YTM5MjgxNzA2ZjVlNGQzYzJiMWEw
XOXB=xoxb-5555555555-6712345098765-AbCdEfGhIjKlMnOpQrStUvWx   # control: a bot token is redacted
printf 'SLACK_BOT=%s\nSLACK_APP=%s\nSLACK_REFRESH=%s\n' "$XOXB" "$XAPP" "$XOXE" > "$T/slack.env"
harness requirement add "socket mode connects with $XOXB" --priority must >/dev/null 2>&1 || exit 2
grep -rq -- "$XOXB" .harness/tasks && { echo "setup: control (xoxb-) leaked" >&2; exit 2; }
harness requirement add "socket mode connects with app token $XAPP" --priority must >/dev/null 2>&1 || exit 2
harness requirement add "the token rotation stores refresh token $XOXE" --priority must >/dev/null 2>&1 || exit 2
harness evidence unit_test -- cat "$T/slack.env" >/dev/null 2>&1 || exit 2
rc=0
for v in XOXB XAPP XOXE; do
  hits=$(grep -rl -- "${!v}" .harness/tasks | sed "s|^$R/||" | tr '\n' ' ')
  if [ -n "$hits" ]; then echo "LEAK: ${!v:0:7}… in clear in: $hits"; rc=1; else echo "ok: ${!v:0:7}… redacted"; fi
done
git add -A >/dev/null; git commit -qm x >/dev/null 2>&1 && echo "commit holding them: accepted" || echo "commit holding them: refused"
exit $rc
