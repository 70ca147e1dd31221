#!/usr/bin/env bash
# Defect: a token wrapped over lines under a prefix every line repeats (docker compose's `web-1  | `, a quote's `> `:
#   forms docs/threat-model.md says are read), whose piece on its first line is shorter than 8 characters (textwrap
#   fills what is left of a line with a long word, so this is any token that starts within 8 columns of the width),
#   is not redacted at all: the whole text is recorded with every later line of the key in clear (here 95 of an
#   OpenAI project key's 100 characters after `sk-pr`). Without the prefix, the same lines are redacted.
#   harness/core/wrapped_lines.py `_CANDIDATE` (the breaks `_joined_lines` considers) takes a break with 8 token
#   characters before it, or one before it and 8 "after the next line's indent" - `(?=[ \t]*[TOKEN]{8})` reads the
#   next line from its start, where the prefix is (`web-1  |`: 5 token characters, then a space; `> `: none), not
#   past the prefix `_wrap` strips. So the break is never offered to `_wrap`, and no view joins the key.
# Correct: the pieces after the prefix decide (as `_wrap` reads them): the key is redacted in every line it spans, as
#   it is without the prefix and as it is when its first piece is 8 characters or more.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# A key made here (random, mixed case with digits, as OpenAI project keys are): no key in this file.
python3 - "$HOME/sk" <<'PY' || exit 2
import random, string, sys
rnd = random.Random(153)
open(sys.argv[1], "w").write("sk-proj-" + "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(92)))
PY
mkdir ci && cat > ci/show.py <<'PY'
import os, textwrap
sk = open(os.path.join(os.environ["HOME"], "sk")).read()
for prefix in ("web-1  | ", "> ", ""):
    # a service's logger wraps its message at 57: the key starts 5 columns before the width
    for line in textwrap.wrap(f"E   RuntimeError: the upstream rejected the api key {sk}", 57, break_on_hyphens=False):
        print(prefix + line)
print("1 failed, 120 passed")
PY
python3 ci/show.py 2>/dev/null | grep -q 'api key sk-pr$' || { echo "setup: the key's first piece is not 5 characters"; exit 2; }
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
grep -q "failed, 120 passed" "$log" || { echo "setup: the output was not recorded"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || { echo "OK: the commit check refused the evidence"; exit 0; }
key=$(cat "$HOME/sk")
git show "HEAD:$log" | grep -v '^web-1  | \|^> ' | grep -qF -- "${key:5:50}" && { echo "setup: the unprefixed control is not redacted"; exit 2; }
echo "ok: the same lines without a prefix are redacted (the control)"
status=0
for prefix in "web-1  | " "> "; do
  if git show "HEAD:$log" | grep -F -- "$prefix" | grep -qF -- "${key:5:50}"; then
    echo "DEFECT: under the prefix '$prefix' the key's second line (50 of its characters) is committed in clear"; status=1
  else echo "ok: under the prefix '$prefix'"; fi
done
[ $status = 1 ] && { echo "--- the committed log:"; git show "HEAD:$log"; }
exit $status
