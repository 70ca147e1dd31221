#!/usr/bin/env bash
# Defect: a token hand-written into a task's own YAML files (task.yaml's description, a requirements.yaml or
#   invariants.yaml statement) wrapped over lines in a folded `>` block is committed in clear.
#   - `harness replay --write` (harness/store/tasks.py TaskStore.rewrite -> freeform) re-parses the hand-edited
#     files and re-renders their free-form text with neither the F-0546 unfolding (secrets_check.unfolded, applied
#     to findings' and contracts' YAML only) nor any redaction: the token's pieces come out joined by a space on one
#     line ('ghp_<20> <20>'), written to disk in clear. (A token on one line is carried in clear too: the commit
#     check then refuses it, though its own hint says to "re-render (`harness replay --write`)".)
#   - the commit check (secret-in-harness-files) reads a .harness YAML file by its parsed values, where the folded
#     block is already joined with a space, so it accepts both the hand-wrapped file and the re-rendered one,
#     although the harness's own redactor finds the token in the file's lines (Redactor.wrapped_secrets).
#   docs/threat-model.md: wrapped tokens are read joined, "in a finding's or a contract's YAML file too, where a
#   folded `>` block ... joins a token's lines with a space: the file's own lines are read, and the joined pieces
#   replaced"; the commit hook refuses a secret in what is committed.
# Correct: `replay --write` replaces the joined pieces by the marker (as F-0546 does for findings and contracts),
#   and/or the commit check refuses the file (read by its lines, as the redactor does): no piece of the token is
#   committed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# A GitHub-shaped token made here (random): no token in this file.
tok=$(python3 -c 'import random, string; r = random.Random(159); print("ghp_" + "".join(r.choice(string.ascii_letters + string.digits) for _ in range(36)))') || exit 2
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' > .harness/config.yaml \
  && { harness init && harness install && harness task new t && harness requirement add "Interrupted runs resume" --priority must \
       && git add -A && git commit -qm init; } >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
f=$(ls .harness/tasks/*/task.yaml) && rq=$(ls .harness/tasks/*/requirements.yaml) || exit 2
# Line 0 (control): the token on one line is refused by the commit check.
sed -i "s/  description: ''/  description: the CI token is $tok/" "$f"
git add -A && git commit -qm one-line >/dev/null 2>&1 && { echo "setup: a one-line token was committed"; exit 2; }
git checkout -q HEAD -- "$f" || exit 2
python3 - "$f" "$rq" "$tok" <<'PY' || exit 2
import sys
task, req, t = sys.argv[1:]
s = open(task).read()
s = s.replace("  description: ''\n", f"  description: >\n    the CI token is\n    {t[:20]}\n    {t[20:]}\n")
open(task, "w").write(s.replace("state: CREATED", "state: PLANNED"))  # a lifecycle field edited by hand too
r = open(req).read()
open(req, "w").write(r.replace("  statement: Interrupted runs resume\n",
                               f"  statement: >\n    Interrupted runs resume with\n    {t[:20]}\n    {t[20:]}\n"))
PY
python3 - "$f" <<'PY' || exit 2
import sys
from harness.store import secrets_check
text = open(sys.argv[1]).read()
if not list(secrets_check.redactor(()).wrapped_secrets(text)):
    print("setup: the harness's redactor does not see the wrapped token"); sys.exit(2)
PY
harness replay --write >/dev/null 2>&1
echo "task.yaml after replay --write:"; grep -A1 'description' "$f" | head -2
status=0
grep -qF "${tok:20}" "$f" && { echo "DEFECT 1: replay --write wrote the token's pieces in clear into task.yaml"; status=1; }
grep -qF "${tok:20}" "$rq" && { echo "DEFECT 1: replay --write wrote the token's pieces in clear into requirements.yaml"; status=1; }
if git add -A && git commit -qm "re-rendered" >/dev/null 2>&1; then
  for file in "$f" "$rq"; do
    if git show "HEAD:$file" | grep -qF "${tok:20}"; then echo "DEFECT 2: the commit check accepted $file with the token in clear"; status=1; fi
  done
else
  echo "ok: the commit check refused the re-rendered files"
fi
[ $status = 0 ] && echo "fixed: no piece of the token was written or committed"
exit $status
