#!/usr/bin/env bash
# Defect: a token printed wrapped over lines is kept in clear when each of its lines starts with what a real tool puts
#   before every line: an ANSI colour code (rich, with FORCE_COLOR or a terminal: `\e[31m…\e[0m` on each wrapped line),
#   a log-aggregator prefix (`docker compose logs`: `web-1  | `), a timestamp (GitHub Actions' raw log, `kubectl logs
#   --timestamps`), a diff's `+`, a quote's `> `. The evidence log and the record's stdout_tail keep it, and the commit
#   hook lets it through, also in a text file written by hand under .harness/.
#   harness/core/wrapped_lines.py `_BREAK` joins a line to the next only where a token character ends it and one starts
#   the next past its blanks (`[ \t]*`), and Redactor.redact (harness/core/redact.py) reads the escape-free view
#   (`_hidden`) without joining lines and the joined view (`_unwrapped`) with the escape codes still in it; so a prefix
#   or a colour code at each line's start (or a reset at its end) ends the join. docs/threat-model.md: secrets are
#   redacted "also right after an ANSI colour code", and "printed wrapped over lines"; its named limit is only a wrap
#   that breaks a token at a space or a punctuation mark, which none of these does.
# Correct: each line piece of the token is redacted (or the commit check refuses the file).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
GH=ghp_x7Kq2MvR9tLw4ZpN8sYb3Hc6Jd1Fg5Ae0Ui9     # a GitHub token: a format the own rules know
printf '%s' "$GH" > "$HOME/gh"   # read from a file: no secret-named variable, only the rules can find it
mkdir ci && cat > ci/show.py <<'PY'
import os
gh = open(os.path.join(os.environ["HOME"], "gh")).read()
pieces = [gh[i:i + 16] for i in range(0, len(gh), 16)]
# 1. rich.Console(width=30, force_terminal=True).print(f"[red]token rejected: {gh}[/red]"): verbatim shape
print("\x1b[31mtoken rejected: \x1b[0m")
for p in pieces:
    print(f"\x1b[31m{p}\x1b[0m")
# 2. docker compose logs: the service's wrapped line, each prefixed
print("web-1  | error: token rejected:")
for p in pieces:
    print(f"web-1  | {p}")
# 3. a CI log's timestamps
for p in pieces:
    print(f"2026-12-06T12:00:01.1234567Z {p}")
PY
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "web-1" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the output was not recorded"; exit 2; }
status=0
check() {  # $1: what, $2: a path; the committed files there hold a piece (12 characters past `ghp_`) of the token?
  left=$(git ls-files -z "$2" | xargs -0 cat | python3 -c '
import re, sys
flat = re.sub(r"\\u001b\[[0-9;]*m|\x1b\[[0-9;]*m|\\n|\s", "", sys.stdin.read())
gh = sys.argv[1]
print(len([gh[i:i + 12] for i in range(4, len(gh) - 11) if gh[i:i + 12] in flat]))' "$GH")
  if [ "$left" != 0 ]; then echo "DEFECT ($1): the commit holds $left 12-character pieces of the GitHub token"; status=1
  else echo "ok ($1)"; fi
}
if git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1; then
  check "evidence log and record" .harness/tasks
  grep -n -e "x7Kq2MvR9tLw" -e "3Hc6Jd1Fg5A" .harness/tasks/*/evidence/unit_test.log | cat -v | sed -n 1,6p
else echo "ok (evidence): the commit check refused it"; fi
# 4. a note written by hand under .harness/, the token quoted wrapped, as an e-mail or a markdown quote wraps it
{ echo "The deploy bot answered:"; for i in 0 16 32; do echo "> ${GH:$i:16}"; done; } > .harness/notes.md
if git add -A && git commit -qm "a note" >/dev/null 2>&1; then check "a hand-written .harness/notes.md" .harness/notes.md
else echo "ok (note): the commit check refused it"; fi
exit $status
