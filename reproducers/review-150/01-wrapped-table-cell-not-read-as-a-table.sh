#!/usr/bin/env bash
# Defect: a token in a table cell that a real tool wraps down its rows is kept in clear (all but its first row) in the
#   evidence log and the record's stdout_tail, and the commit hook lets the evidence through, when the table is not
#   one whose border characters stand at the same character index on every row:
#   1. tabulate's `grid` / `psql` formats (borders `|`), a CJK name in another column of the token's first row:
#      tabulate (wcwidth) and rich pad by display width, so that row holds fewer characters and its borders stand
#      at other indexes than the continuation rows';
#   2. tabulate's default `simple` and its `plain` format with `maxcolwidths` (no vertical border at all), the token
#      in a middle column: the continuation rows are not read as a wrapped line (the next column's cell ends the
#      first row), nor as a table (no border).
#   harness/core/wrapped_lines.py `_table_columns` starts a table only at rows of >= 2 border characters at equal
#   character offsets (`borders != layout`), and `_BREAK` joins a line only with the very next one; docs/threat-model.md
#   says a token in "a table whose cell wraps a long value down its rows, drawn with `|` or box-drawing borders" is
#   read joined and redacted in every line it spans (case 1 is drawn with `|`), and that secrets are redacted before
#   any output reaches disk.
# Correct: every row piece of the token is replaced (or the commit check refuses the file); nothing committed holds
#   the token's secret part once the table's borders, padding and line breaks are taken out.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
XOXB=xoxb-2718281828-3141592653-ZmFrZVNsYWNrVG9rZW4x   # a Slack bot token: a format the own rules know
printf '%s' "$XOXB" > "$HOME/xoxb"   # read from a file: no secret-named variable, only the rules can find it
mkdir ci && cat > ci/show.py <<'PY'
import os
tok = open(os.path.join(os.environ["HOME"], "xoxb")).read()
cells = [tok[i:i + 16] for i in range(0, len(tok), 16)]
def width(s):  # display width, as tabulate (wcwidth) and rich pad
    return sum(2 if 0x1100 <= ord(c) <= 0xFFDC else 1 for c in s)
def pad(s, w):
    return s + " " * (w - width(s))
# 1. tabulate(tablefmt="grid", maxcolwidths=[None, 16, None]), a Japanese service name (verbatim tabulate output shape)
print("+--------+------------------+---------+")
print("| " + pad("名前", 6) + " | token            | scope   |")
print("+========+==================+=========+")
for n, cell in enumerate(cells):
    print("| " + pad("日本語" if n == 0 else "", 6) + " | " + pad(cell, 16) + " | " + pad("admin" if n == 0 else "", 7) + " |")
print("+--------+------------------+---------+")
# 2. tabulate(..., maxcolwidths=[None, 16, None]) in its default "simple" format
print("name    token             scope")
print("------  ----------------  -------")
for n, cell in enumerate(cells):
    print(f"{'slack' if n == 0 else '':<6}  {cell:<16}  {'admin' if n == 0 else ''}".rstrip())
PY
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "scope" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the output was not recorded"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 \
  || { echo "OK: the commit check refused the evidence"; exit 0; }
secret=${XOXB#xoxb-2718281828-}    # the token past its type and team id: its secret part
found=$(git ls-files -z .harness | xargs -0 cat | python3 -c '
import re, sys
text = sys.stdin.read().replace("\\n", "\n")
flat = re.sub(r"[\s|+]", "", text)
secret = sys.argv[1]
print(len([secret[i:i + 8] for i in range(0, len(secret) - 7) if secret[i:i + 8] in flat]))' "$secret")
if [ "$found" != 0 ]; then
  echo "DEFECT: the committed evidence holds the Slack token's secret part ($found 8-character pieces of it), wrapped down a table's rows:"
  grep -n -A2 -F -e "[REDACTED:slack_token]" .harness/tasks/*/evidence/unit_test.log | sed -n 1,8p
  exit 1
fi
echo "OK: nothing committed holds the token"; exit 0
