#!/usr/bin/env bash
# Defect: a token known by its shape (OpenAI `sk-…`; also `xoxb-…`, `glpat-…`, a JWT broken in its signature), wrapped
#   over lines so that its first line already matches its rule (these rules take any length past a minimum), is
#   redacted on its first line only: the rest of the token, on the next line, is committed in clear in the evidence log.
#   Three forms docs/threat-model.md names as read ("`fold -w`, Python's textwrap, ... under a prefix every line
#   repeats — `web-1  | `"): `fold -w 64` of a 108-character project key (two lines), textwrap of a sentence holding the
#   key, and a key folded at 54 under compose's `web-1  | ` (two full lines of one length past the prefix).
#   harness/core/redact.py Redactor._wrapped_in (62f63d47, read 152's F-0536) now drops every joined-view finding that
#   carries on past where the same rule's plain finding ends at a line's end - for shape-known tokens too, not only
#   context-known values - unless `_full_lines` holds, and `_full_lines` asks for the two whole lines (prefix included)
#   to be token characters alone and of one length: never true of a two-line fold (its last line is shorter), of a
#   textwrap'd sentence, or of a prefixed wrap. Before 62f63d47 all three were redacted in every line they span.
# Correct: no piece of the key/token after its first line is kept in clear (as at 62f63d47^), while the F-0536 cases
#   (a whole token, then an unrelated next line) stay as printed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# Keys made here (random, mixed case with digits, as OpenAI project keys are): no key in this file.
python3 - "$HOME" <<'PY2' || exit 2
import random, string, sys
rnd = random.Random(153)
for n in (1, 2, 3):
    body = "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(100))
    open(f"{sys.argv[1]}/sk{n}", "w").write("sk-proj-" + body)
PY2
mkdir ci && cat > ci/show.py <<'PY2'
import os, textwrap
sk = [open(os.path.join(os.environ["HOME"], f"sk{n}")).read() for n in (1, 2, 3)]
print("the key, folded (fold -w 64):")
print("\n".join(sk[0][i:i + 64] for i in range(0, len(sk[0]), 64)))
print("\n".join(textwrap.wrap(f"the client was started with {sk[1]} as its key", 72)))
print("\n".join("web-1  | " + sk[2][i:i + 54] for i in range(0, len(sk[2]), 54)))
print("1 failed, 120 passed")
PY2
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
grep -q "failed, 120 passed" "$log" || { echo "setup: the output was not recorded"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || { echo "OK: the commit check refused the evidence"; exit 0; }
status=0
check() {  # $1: what; $2: a piece of the secret from its second line
  if git show "HEAD:$log" | grep -qF -- "$2"; then echo "DEFECT: $1: '$2' committed in clear"; status=1
  else echo "ok: $1"; fi
}
for n in 1 2 3; do
  key=$(cat "$HOME/sk$n"); rest=${key:72:24}  # a piece of each key's second line
  check "$(sed -n "${n}p" <<<'fold -w 64, the second line
textwrap of a sentence, the rest
under web-1 | , the second full line (54 + 54 past the prefix)')" "$rest"
done
[ $status = 1 ] && { echo "--- the committed log:"; git show "HEAD:$log"; }
exit $status
