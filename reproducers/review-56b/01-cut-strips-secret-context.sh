#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The output cut (harness/evidence/outputcut.py: tail_text, log_text) lands on the first separator
# (space, tab, newline) of the kept window, and redaction runs after the cut. A credential known only
# by the words before it — `Authorization: Bearer <opaque token>`, `--password <value>` — loses that
# context when the window starts inside it: the value is left as the first word of the kept tail, no
# rule recognises it, and it is written verbatim into evidence/TYPE.json (stdout_tail, committed) and
# into the ledger (`finding reproduce`'s output_tail). The commit check cannot see it either (no
# context is left), so the commit passes. The same output whole, or cut one byte earlier, is redacted.
# Exit 1 while any value reaches .harness/ in clear; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
# gen.py LIMIT [CUT]: prints "$GEN_LEAD $GEN_WORD" on a line, then filler, so that the last LIMIT bytes
# start one character before the space between key and value (the cut then drops that last key
# character and the space). The value comes from the environment, so no argv holds it.
cat > "$T/gen.py" <<'PY'
import os, sys
key, value, limit = os.environ["GEN_LEAD"], os.environ["GEN_WORD"], int(sys.argv[1])
rest = key[-1] + " " + value + "\n"
filler = "".join(f"progress line {i:05d} ok\n" for i in range(4000))[-(limit - len(rest)):]
filler = "\n" + filler[1:]
sys.stdout.write("start\n" + key + " " + value + "\n" + filler)
PY
B=Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS      # an opaque OAuth access token
P=Tr0ub4dor-and-3-horses                  # a password
rc=0
check() { # LABEL VALUE
  local hits; hits=$(grep -rl -- "$2" .harness/tasks 2>/dev/null | sed "s|^$R/||" | tr '\n' ' ')
  if [ -n "$hits" ]; then echo "LEAK ($1): the value in clear in: $hits"; rc=1; else echo "ok ($1): redacted"; fi
}
# control: the same lines in a short output (nothing cut) are redacted
GEN_LEAD="> Authorization: Bearer" GEN_WORD="$B" harness evidence unit_test -- python "$T/gen.py" 200 >/dev/null 2>&1 || exit 2
GEN_LEAD="+ deploy --password" GEN_WORD="$P" harness evidence lint -- python "$T/gen.py" 200 >/dev/null 2>&1 || exit 2
if grep -rq -- "$B\|$P" .harness/tasks; then echo "setup: control leaked" >&2; exit 2; fi
# 1. evidence stdout_tail (output.tail_bytes 8192): the window starts inside "Bearer"
GEN_LEAD="> Authorization: Bearer" GEN_WORD="$B" harness evidence unit_test -- python "$T/gen.py" 8192 >/dev/null 2>&1 || exit 2
check "evidence stdout_tail, Authorization: Bearer" "$B"
# 2. the same for a secret flag on a command line the command echoes (set -x style)
GEN_LEAD="+ deploy --password" GEN_WORD="$P" harness evidence lint -- python "$T/gen.py" 8192 >/dev/null 2>&1 || exit 2
check "evidence stdout_tail, --password" "$P"
git add -A >/dev/null; git commit -qm ev >/dev/null 2>&1 && echo "   commit holding them: accepted" || echo "   commit holding them: refused"
# 3. finding reproduce keeps 2000 bytes of combined output in the ledger (output_tail)
cat > "$T/f.yaml" <<Y
type: suspected_defect
severity: minor
category: correctness
title: t
claim: c
location: {file: a.txt}
failure_scenario: ["x"]
expected_behavior: y
recommended_reproducer: {type: custom, description: d, command: "true"}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || { echo "setup: propose failed" >&2; exit 2; }
F=$(ls .harness/tasks/*/findings/ | grep -o 'F-[0-9]*' | head -1)
GEN_LEAD="> Authorization: Bearer" GEN_WORD="$B" harness finding reproduce "$F" -- sh -c "python '$T/gen.py' 2000; exit 1" >/dev/null 2>&1
check "finding reproduce output_tail" "$B"
git add -A >/dev/null; git commit -qm repro >/dev/null 2>&1 && echo "   commit holding it: accepted" || echo "   commit holding it: refused"
exit $rc
