#!/usr/bin/env bash
# Defect: a reader that went away (a pipe closed early, `harness status | head -1`) is answered 0 by the
# fast paths, and 1 by the click path. harness/cli/status_fast.py answer() catches BrokenPipeError and
# returns 0 "as main() answers a reader that went away", and harness/cli/evidence_fast.py answer() hands it
# to harness.cli.main.failure_code, which returns 0 for BrokenPipeError. But in the click path the
# BrokenPipeError never reaches failure_code: click's BaseCommand.main catches EPIPE (OSError) itself, even
# with standalone_mode=False, and calls sys.exit(1). So `harness status` and `harness evidence TYPE -- CMD`
# exit 0 where the same command through click exits 1 (`harness status --help`, `harness evidence ... --shell`,
# or harness.cli.main.main). For evidence this turns a failed recorded command (exit 3) into exit 0.
# Correct: the fast paths exit with the code the click path exits with for the same arguments and streams.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@example.com
unset HARNESS_LOCK_TIMEOUT
cd "$T" && git init -q repo && cd repo || exit 2
echo x > a && git add a && git commit -qm init || exit 2
harness init >/dev/null 2>&1 || exit 2
harness task new "one" >/dev/null 2>&1 || exit 2
# Runs the command with stdout (and, for evidence, stderr) on a pipe whose reader is already gone; its exit code.
cat > "$T/closed.py" <<'PY'
import os, subprocess, sys
both = sys.argv[1] == "both"
r, w = os.pipe(); os.close(r)
p = subprocess.run(sys.argv[2:], stdout=w, stderr=w if both else subprocess.DEVNULL)
print(p.returncode)
PY
FULL=(python -c 'import sys; from harness.cli.main import main; sys.exit(main())')
fail=0
s_fast=$(python "$T/closed.py" out harness status) || exit 2
s_full=$(python "$T/closed.py" out "${FULL[@]}" status) || exit 2
echo "status, stdout closed early: fast path exit $s_fast, click path exit $s_full"
[ "$s_fast" = "$s_full" ] || fail=1
e_fast=$(python "$T/closed.py" both harness evidence unit_test -- sh -c 'exit 3') || exit 2
e_full=$(python "$T/closed.py" both "${FULL[@]}" evidence unit_test -- sh -c 'exit 3') || exit 2
echo "evidence of a command exiting 3, stderr closed early: fast path exit $e_fast, click path exit $e_full"
[ "$e_fast" = "$e_full" ] || fail=1
[ "$fail" = 0 ] && { echo "OK: same exit codes"; exit 0; }
echo "DEFECT: the fast path's exit code differs from click's"
exit 1
