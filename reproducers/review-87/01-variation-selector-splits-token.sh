#!/usr/bin/env bash
# Defect: a token split by a default-ignorable character that is not of category Cf (a variation selector U+FE0F,
#   the combining grapheme joiner U+034F, the Hangul filler U+3164, ...) is stored in clear in .harness/ and
#   committed: harness/core/redact.py _INVISIBLE (F-0287's fix) lists only the Cf default-ignorables, so the rules'
#   view keeps the character and no rule sees the token whole; the commit check reads the same view.
# Correct: every Default_Ignorable_Code_Point (a terminal shows nothing for it, docs/threat-model.md) is removed in
#   the rules' view: the title is stored as [REDACTED:github_token] (as it is for U+2061, the control), or the commit
#   is refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
HEAD_PART="ghp_A1b2C3d4E5f6G7h8"; TAIL="I9j0K1l2M3n4O5p6Q7r8"
leaked() {  # $1: the character splitting the token; 0 if the token's tail reached a commit in clear
  local ch; ch=$(python -c "import sys; sys.stdout.write(chr(int(sys.argv[1], 16)))" "$1") || return 2
  harness task new "rotate ${HEAD_PART}${ch}${TAIL} now" >/dev/null 2>&1 || return 2
  git add -A && git commit -qm "task" >/dev/null 2>&1
  git grep -q "$TAIL" HEAD -- .harness
}
leaked 2061; c=$?   # control: an invisible Cf character (F-0287's fix)
[ $c -eq 2 ] && exit 2
if [ $c -eq 0 ]; then echo "setup: the control (U+2061) leaked too"; exit 2; fi
bad=0
for cp in fe0f 034f 3164; do
  if leaked "$cp"; then echo "DEFECT: token split by U+$cp committed in clear in .harness/"; bad=1; fi
done
[ $bad -eq 1 ] && exit 1
echo "OK: every split token was redacted or refused"; exit 0
