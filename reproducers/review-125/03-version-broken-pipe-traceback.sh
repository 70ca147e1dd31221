#!/usr/bin/env bash
# Defect: `harness --version` answered before click (harness/cli/launch.py, _version) prints with print();
# on a pipe whose reader has gone (`harness --version | true`, a closed pipe) the BrokenPipeError escapes
# fast_answer and entry() re-raises it: a Python traceback on stderr. The click path
# (click.version_option through harness.cli.main.main) catches EPIPE and exits 1 with nothing on stderr.
# Correct: the same answer as click: exit 1, stderr empty.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@example.com
cd "$T" || exit 2
command -v harness >/dev/null || exit 2
cat > "$T/closed.py" <<'PY'
import os, subprocess, sys
r, w = os.pipe(); os.close(r)
p = subprocess.run(sys.argv[2:], stdout=w, stderr=subprocess.PIPE)
open(sys.argv[1], "wb").write(p.stderr)
print(p.returncode)
PY
fast=$(python "$T/closed.py" "$T/fast.err" harness --version) || exit 2
full=$(python "$T/closed.py" "$T/full.err" python -c 'import sys; from harness.cli.main import main; sys.exit(main())' --version) || exit 2
echo "fast path: exit $fast, stderr $(wc -c <"$T/fast.err") bytes; click path: exit $full, stderr $(wc -c <"$T/full.err") bytes"
if [ "$fast" = "$full" ] && cmp -s "$T/fast.err" "$T/full.err"; then echo "OK: same answer"; exit 0; fi
echo "DEFECT: the fast path's answer differs:"; head -c 600 "$T/fast.err"
exit 1
