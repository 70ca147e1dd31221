#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The evidence log (harness/evidence/outputcut.py log_text) of an output longer than output.log_cap_bytes
# (default 8 MiB) keeps the capture's head and its tail, a ring buffer of the last log_cap_bytes/2 bytes
# (harness/runner.py _Bounded). The tail starts wherever the ring buffer starts: cut_start drops its first,
# partial word, and across_cut (F-0114's fix) looks for the words a secret is known by only in the bytes of
# cap.tail before the cut — the partial word itself. The context before the ring buffer's start was never
# kept, so when the ring starts inside `Bearer` of `Authorization: Bearer <opaque token>` the token is the
# kept tail's first word, no rule knows it, and it is written in clear to evidence/TYPE.log (committed).
# The same line one byte further from the ring's start is redacted.
# Exit 1 while the token reaches .harness/ in clear; 0 when fixed; 2 on setup failure.
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q && echo a > a.txt && git add -A && git commit -qm init && harness init && harness install \
  && harness task new t && git add -A && git commit -qm harness ) >/dev/null 2>&1 || exit 2
grep -q 'log_cap_bytes: 8388608' .harness/config.yaml || { echo "setup: default log_cap_bytes not found" >&2; exit 2; }
# gen.py SHIFT: 5 MB of 1000-byte lines, then "> Authorization: Bearer TOKEN", then filler so that the last
# 4 MiB (the ring buffer) start SHIFT bytes before the space after "Bearer". The token comes from the environment.
cat > "$T/gen.py" <<'PY'
import os, sys
ring, shift, tok = 4 * 1024 * 1024, int(sys.argv[1]), os.environ["GEN_WORD"]
out = sys.stdout.buffer
out.write((b"a" * 999 + b"\n") * 5000)
line = b"> Authorization: Bearer " + tok.encode() + b"\n"
out.write(line)
after = len(line) - (len(b"> Authorization: Bearer") - shift)   # bytes of the line inside the ring
left = ring - after
out.write((b"b" * 99 + b"\n") * (left // 100) + b"c" * (left % 100 - 1) + b"\n")
PY
export GEN_WORD=Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS      # an opaque OAuth access token
rc=0
run() { # TYPE SHIFT LABEL
  harness evidence "$1" -- python "$T/gen.py" "$2" >/dev/null 2>&1 || { echo "setup: evidence $1 failed" >&2; exit 2; }
  local hits; hits=$(grep -rl -- "$GEN_WORD" .harness/tasks 2>/dev/null | sed "s|^$R/||" | tr '\n' ' ')
  if [ -n "$hits" ]; then echo "LEAK ($3): the token in clear in: $hits"; res=leak; else echo "ok ($3): not in clear"; res=ok; fi
}
# control: the ring starts 30 bytes earlier, before "Authorization": the whole line is kept and redacted
run lint 30 "ring starts before the header"; [ "$res" = ok ] || { echo "setup: control leaked" >&2; exit 2; }
run unit_test 2 "ring starts inside 'Bearer'"; [ "$res" = leak ] && rc=1
if [ $rc = 1 ]; then git add -A >/dev/null; git commit -qm ev >/dev/null 2>&1 && echo "   commit holding it: accepted" || echo "   commit holding it: refused"; fi
exit $rc
