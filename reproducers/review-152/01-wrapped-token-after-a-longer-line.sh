#!/usr/bin/env bash
# Defect: a token printed wrapped over lines (`fold -w`, as docs/threat-model.md names) is kept in clear in the
#   evidence log and the record's stdout_tail, and the commit check passes it when written by hand into a `.harness/`
#   text file, whenever the line printed just before it is longer than the wrap's width and ends in a token character
#   (a word, a path, a version, a sentence's full stop: "Your new token is below.").
#   harness/core/wrapped_lines.py `_joined_lines`/`_wrap`: the break between that line and the token's first line is a
#   wrap candidate (one token character before it, eight after), so the earlier line starts the run and sets its
#   width; the token's first line is shorter than it, so the token's own first break is read as "the last line of a
#   wrap" (`len(a) < width`) and never joined. Neither piece alone is a token to the rules (a `ghp_` token is 36
#   characters after its prefix, a JWT needs its three parts), so nothing is redacted.
# Correct: every line piece of the wrapped token is replaced (or the commit check refuses the file), whatever line
#   comes before it; a line that is no part of the token must not make the token's own wrap unreadable.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
GHP=ghp_x7Kq2MvR9tLw4ZpN8sYb3Hc6Jd1Fg5Ae0Ui9        # a GitHub token: a format the own rules know
JWT=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZXBsb3ktYm90Iiwic2NvcGUiOiJhZG1pbiJ9.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U
printf '%s' "$GHP" > "$HOME/ghp"; printf '%s' "$JWT" > "$HOME/jwt"   # read from files: only the rules can find them
mkdir ci && cat > ci/show.sh <<'SH'
echo "Your new token is below."
fold -w 20 "$HOME/ghp"; echo
echo "Issued a service account token for deploy-bot"
fold -w 40 "$HOME/jwt"; echo
SH
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["bash", "ci/show.sh"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "deploy-bot" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the output was not recorded"; exit 2; }
status=0
check() {  # stdin: text. Prints each token whose secret part (a JWT: its signature) it holds, line breaks out.
  python3 -c '
import re, sys
flat = re.sub(r"\\n|\s", "", sys.stdin.read())
for name in ("ghp", "jwt"):
    tok = open(sys.argv[1] + "/" + name).read()
    secret = tok[4:] if name == "ghp" else tok.rsplit(".", 1)[1]  # a JWT: its signature
    if secret in flat:
        print(name)' "$HOME"
}
if git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1; then
  for f in .harness/tasks/*/evidence/unit_test.log .harness/tasks/*/evidence/unit_test.json; do
    left=$(git show "HEAD:$f" | check)
    if [ -n "$left" ]; then echo "DEFECT: $f (committed) holds in clear:" $left; status=1; fi
  done
  [ $status = 1 ] && { echo "--- the log:"; cat .harness/tasks/*/evidence/unit_test.log; }
else
  echo "ok: the commit check refused the evidence"
fi
# Written by hand into a .harness/ text file: the commit check must refuse it.
{ echo "Your new token is below."; fold -w 20 "$HOME/ghp"; echo; } > .harness/notes.txt
git add .harness/notes.txt
if git commit -qm notes >/dev/null 2>&1; then
  echo "DEFECT: the commit check let .harness/notes.txt through with a fold -w 20 GitHub token:"; cat .harness/notes.txt; status=1
else echo "ok: the commit check refused .harness/notes.txt"; fi
exit $status
