#!/usr/bin/env bash
# Defect: where the record's stdout_tail is cut just after the words a secret is known by (`Bearer `, `"access_token":"`,
#   `--token=`, `TOKEN='`) and the secret is a token wrapped over lines, only the token's first line is hidden
#   ([REDACTED:cut_secret]); its later lines - here 100 of an OpenAI project key's 120 characters - are committed in
#   clear. The same lines uncut are redacted in full, and so are they when the window starts a few bytes earlier.
#   harness/evidence/outputcut.py tail_text (and log_text) hides what across_cut flags *before* redacting the kept
#   part: across_cut's flagged span is the context rule's value, which ends at the line's end (a wrapped view's finding
#   that runs on past it is dropped by Redactor._wrapped_in: F-0529/F-0536), and once that first piece is a marker,
#   redact_bytes reads the key's later lines alone - no rule knows them without `sk-proj-`. The window starts where
#   tail_bytes puts it: any start inside `Bearer ` (7 positions here; 17 for `"access_token":"`) does this.
#   docs/threat-model.md: "every rule reads the text as written, so one rule's marker never hides the context another
#   needs" and, for a cut, "none of its lines is kept alone". Not a named limit (no table, no `/` or `+`).
# Correct: the kept lines of the wrapped key are redacted too (e.g. redact the kept part as written and hide the
#   flagged bytes after, or extend the flagged span over the wrap's lines as cut_start does).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# A key made here (random, mixed case with digits, as OpenAI project keys are): no key in this file.
python3 - "$HOME/sk" <<'PY' || exit 2
import random, string, sys
rnd = random.Random(1)
open(sys.argv[1], "w").write("sk-proj-" + "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(112)))
PY
mkdir ci && cat > ci/show.py <<'PY'
import os, textwrap
sk = open(os.path.join(os.environ["HOME"], "sk")).read()
for n in range(120):
    print(f"tests/test_login.py::test_step_{n:03d} PASSED")
print("\n".join(textwrap.wrap(f"E   RuntimeError: unexpected reply from the provider Bearer {sk}", 40, break_on_hyphens=False)))
print("=========================== short test summary info ============================")
for n in range(4):
    print(f"FAILED tests/test_login.py::test_refresh_{n} - RuntimeError: unexpected reply")
print("1 failed, 120 passed")
PY
# tail_bytes: the window starts at the space between `Bearer` and the key (any start inside `Bearer ` does the same)
tail=$(python3 ci/show.py | python3 -c 'import sys; d=sys.stdin.buffer.read(); print(len(d) - d.index(b" sk-proj-"))') || exit 2
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       'output:' "  tail_bytes: $tail" > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
rec=$(ls .harness/tasks/*/evidence/unit_test.json 2>/dev/null | head -1)
grep -q "failed, 120 passed" "$rec" || { echo "setup: the tail was not recorded"; exit 2; }
log=${rec%.json}.log
grep -qF "$(cut -c 30-60 "$HOME/sk")" "$log" && { echo "setup: the uncut log already leaks the key"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || { echo "OK: the commit check refused the evidence"; exit 0; }
left=$(git show "HEAD:$rec" | python3 -c '
import json, sys
tail = json.load(sys.stdin)["stdout_tail"]
flat = "".join(tail.split())
key = open(sys.argv[1]).read()
runs = [key[i:j] for i in range(len(key)) for j in range(i + 16, len(key) + 1) if key[i:j] in flat]
print(max(map(len, runs), default=0))' "$HOME/sk")
if [ "${left:-0}" -gt 0 ]; then
  echo "DEFECT: the committed stdout_tail holds $left of the key's characters in clear (the uncut log holds none):"
  git show "HEAD:$rec" | python3 -c 'import json,sys; print(json.load(sys.stdin)["stdout_tail"])'; exit 1
fi
echo "ok: no piece of the key in stdout_tail"; exit 0
