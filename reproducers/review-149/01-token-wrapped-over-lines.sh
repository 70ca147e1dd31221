#!/usr/bin/env bash
# Defect: a token a command prints wrapped over lines (a message wrapped by Python's textwrap, which breaks long words,
#   `fold -w`, a table whose cell wraps a long value: rich, tabulate's maxcolwidths, `kubectl describe`) is kept in
#   clear in the evidence log and the record's tail, committed, and let through by the commit hook and the push guard.
#   harness/core/redact.py Redactor.redact joins wrapped lines only when they are an ENCODING (_WRAPPED/_blocks/_hides:
#   base64 or hex decoded joined); the plain text of the lines joined is never given to the rules, and each piece alone
#   is no token's shape (`ghp_` + 20 characters is under the 36 the github_token rule needs; a JWT's payload and
#   signature without their `eyJ` header match nothing). store/secrets_check.py reads the file whole the same way.
#   docs/threat-model.md: secrets "are redacted before any output reaches disk" (its one named split limit is a token
#   cut between stdout and stderr, not a line break inside one stream).
# Correct: the token is redacted in every line it spans (as a wrapped base64 block's lines are), or the commit / push
#   check refuses the file; nothing on the remote holds the token once its line breaks (and a table's borders) are
#   taken out.
# Exit 1 while the defect is present (the token is recoverable from what the remote holds), 0 when fixed, 2 on setup
# failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
GH=ghp_x7Kq2MvR9tLw4ZpN8sYb3Hc6Jd1Fg5Ae0Ui9     # a GitHub token: a format the own rules know
JWT=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZXBsb3ktYm90Iiwic2NvcGUiOiJhZG1pbiJ9.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U
XOXB=xoxb-2718281828-3141592653-ZmFrZVNsYWNrVG9rZW4x   # a Slack bot token
# Read from files: no secret-named variable in the environment, so only the rules can find them.
printf '%s' "$GH" > "$HOME/gh"; printf '%s' "$JWT" > "$HOME/jwt"; printf '%s' "$XOXB" > "$HOME/xoxb"
mkdir ci && cat > ci/show.py <<'PY'
import os, textwrap
read = lambda name: open(os.path.join(os.environ["HOME"], name)).read()
gh, jwt, xoxb = read("gh"), read("jwt"), read("xoxb")
# 1. a failure message wrapped by textwrap (break_long_words=True by default)
print("\n".join(textwrap.wrap(f"request rejected: the client sent Bearer {jwt} which the server refused", 40)))
# 2. `fold -w 20` of the token alone
print("\n".join(gh[i:i + 20] for i in range(0, len(gh), 20)))
# 3. a table whose value column wraps at 16 characters (rich, tabulate maxcolwidths)
cells = [xoxb[i:i + 16] for i in range(0, len(xoxb), 16)]
for n, cell in enumerate(cells):
    print(f"| {'slack' if n == 0 else '':<6}| {cell:<16} |")
PY
git init -q --bare "$T/remote.git" || exit 2
( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main ) \
  >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "request rejected" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the output was not recorded"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || echo "commit refused (hook)"
git push -q origin main >/dev/null 2>&1 || echo "push refused (guard)"
[ "$(git --git-dir "$T/remote.git" rev-parse -q --verify refs/heads/main)" = "$(git rev-parse HEAD)" ] \
  || { echo "OK: the evidence commit did not reach the remote (refused)"; exit 0; }
# Everything the remote holds, its line breaks (also a JSON tail's `\n` escapes) and table borders taken out.
found=$(git --git-dir "$T/remote.git" rev-list --objects --all | cut -d' ' -f1 | while read -r o; do
  git --git-dir "$T/remote.git" cat-file -p "$o" 2>/dev/null; done | python3 -c '
import re, sys
text = re.sub(r"\\n|[\s|]", "", sys.stdin.read())
gh, jwt, xoxb = sys.argv[1:]
payload, signature = jwt.split(".")[1:]
wanted = {"the whole github token": gh,
          # every JWT header and payload starts `eyJ` (`{"`): the rest of the payload and the signature are the token
          "the JWT payload (but its eyJ) and signature": payload[3:] + "." + signature,
          # a Slack token past its type and team id: its secret part
          "the secret part of the Slack token": xoxb.split("-", 3)[3]}
print(", ".join(name for name, s in wanted.items() if s in text))
' "$GH" "$JWT" "$XOXB")
if [ -n "$found" ]; then
  echo "DEFECT: the remote holds, wrapped over lines: $found"
  sed -n 1,12p .harness/tasks/*/evidence/unit_test.log
  exit 1
fi
echo "OK: no token on the remote, even with its line breaks taken out"; exit 0
