#!/usr/bin/env bash
# Found in this repository: `.ci/run` beside a second full suite failed once in
# test_the_rest_of_each_stream_is_kept_around_the_split_secret: a GitHub token a command wrote half to stdout and
# half to stderr was kept in the evidence record's tails, one half in each. The combined capture finds such a secret
# only where it reads the two streams' writes apart; a capture not scheduled while the command writes (a busy machine)
# reads several writes of a stream in one read, and the halves then sit inside two runs of the combined output, joined
# at no run boundary. This makes the capture late on demand: the command stops the harness (SIGSTOP to its parent),
# writes, and lets it go on.
# Exit 1 while a piece of the token is in the record; 0 when fixed; 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
cat > "$T/write.py" <<'PY'
import os, signal, sys, time
token = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"
def put(out, text):
    out.write(text); out.flush()
put(sys.stdout, "step 1 ok\nlogin with ")
time.sleep(0.5)
os.kill(os.getppid(), signal.SIGSTOP)  # the capture reads nothing now: each stream's writes wait in its pipe
time.sleep(0.3)  # a stop is delivered, not done, when kill() returns
try:
    put(sys.stderr, "warning: slow disk\n"); put(sys.stdout, token[:18]); put(sys.stderr, token[18:]); put(sys.stdout, "\nstep 2 ok\n"); put(sys.stderr, "\ndone\n")
finally:
    os.kill(os.getppid(), signal.SIGCONT)
time.sleep(0.5)
PY
harness evidence build -- python3 "$T/write.py" >/dev/null 2>&1 || { echo "setup: evidence did not run"; exit 2; }
record=$(cat .harness/tasks/*/evidence/build.json) || exit 2
if grep -q -e "Q7wErTy5UiOp3A" -e "sDfGh2JkLzXcVbNm4s1D9f" <<<"$record"; then
    echo "a piece of the token is in the record:"; python3 -c 'import json,sys; r=json.load(sys.stdin); print(repr(r["stdout_tail"])); print(repr(r["stderr_tail"]))' <<<"$record"
    exit 1
fi
echo "no piece of the token is in the record"; exit 0
