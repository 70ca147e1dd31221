#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The evidence record's stdout_tail / stderr_tail (harness/evidence/outputcut.py stream_tails) are redacted
# stream by stream; a secret whose words are on one stream and its value on the other is found in the combined
# capture (_splits/_crossing, F-0154). When the combined output is longer than output.log_cap_bytes, _splits
# reads combined.tail alone: the words the value is known by may lie just before the combined ring's start, in
# combined.before_tail (kept since read 57's F-0123 for exactly that), which only log_text reads. Here stderr
# ends "> Authorization: Bearer ", stdout then writes the token (a short stdout: kept whole, no cut of its own),
# and the combined ring (the last 4 MiB) starts 3 bytes before the token. The log is redacted; stdout_tail keeps
# the token in clear in evidence/TYPE.yaml, and the commit holding it is accepted.
# Exit 1 while the token reaches .harness/ in clear; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
grep -q 'log_cap_bytes: 8388608' .harness/config.yaml || { echo "setup: default log_cap_bytes not found" >&2; exit 2; }
cat > "$T/gen.py" <<'PY'
import os, sys, time
ring, shift, tok = 4 * 1024 * 1024, int(sys.argv[1]), os.environ["GEN_WORD"].encode()
err, out = sys.stderr.buffer, sys.stdout.buffer
err.write((b"a" * 999 + b"\n") * 5000)
err.write(b"> Authorization: Bearer "); err.flush(); time.sleep(0.5)
out.write(tok + b"\n"); out.flush(); time.sleep(0.5)
left = ring - shift - len(tok) - 1                  # combined bytes after the token's line
err.write((b"b" * 99 + b"\n") * (left // 100) + b"c" * (left % 100 - 1) + b"\n"); err.flush()
PY
export GEN_WORD=Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS      # an opaque OAuth access token
rc=0
run() { # TYPE SHIFT LABEL
  harness evidence "$1" -- python "$T/gen.py" "$2" >/dev/null 2>&1 || { echo "setup: evidence $1 failed" >&2; exit 2; }
  ls .harness/tasks/*/evidence/"$1".* >/dev/null 2>&1 || { echo "setup: no evidence $1 written" >&2; exit 2; }
  local hits; hits=$(grep -rl -- "$GEN_WORD" .harness/tasks 2>/dev/null | sed "s|^$R/||" | tr '\n' ' ')
  [ -n "$hits" ] && hits="$hits(as: $(grep -rhoE -- "\"[a-z_]+\": \"[^\"]{0,20}$GEN_WORD" .harness/tasks | sed "s/$GEN_WORD/<token>/" | tr '\n' ' '))"
  if [ -n "$hits" ]; then echo "LEAK ($3): the token in clear in: $hits"; res=leak; else echo "ok ($3): not in clear"; res=ok; fi
}
run lint 40 "combined ring starts before 'Authorization'"; [ "$res" = ok ] || { echo "setup: control leaked" >&2; exit 2; }
run unit_test 3 "combined ring starts inside 'Bearer '"; [ "$res" = leak ] && rc=1
if [ $rc = 1 ]; then git add -A >/dev/null; git commit -qm ev >/dev/null 2>&1 && echo "   commit holding it: accepted" || echo "   commit holding it: refused"; fi
exit $rc
