#!/bin/bash
# `harness evidence TYPE -- CMD` interrupted (Ctrl-C) while the use case runs but before the runner
# arms its own signal handling (taking the source tree, writing evidence.prepared, ...): the click
# command's stderr is "\nharness: interrupted\n" (click echoes a newline before turning
# KeyboardInterrupt into Abort), the fast path's is "harness: interrupted\n". The interrupt is
# simulated deterministically by making record_evidence raise KeyboardInterrupt in both paths
# (a real Ctrl-C ~0.3 s after start shows the same difference).
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export HARNESS_REPO="$here"
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness task new "t" >/dev/null 2>&1 || exit 2
run() {  # $1: fast|click
python - "$1" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["HARNESS_REPO"])
from harness.evidence import recording as uc
def boom(*a, **k):
    raise KeyboardInterrupt
uc.record_evidence = boom
args = ["evidence", "unit_test", "--", "true"]
if sys.argv[1] == "fast":
    from harness import context
    from harness.cli.evidence_fast import answer
    with context.command():
        code = answer(args[1:])
else:
    from harness.cli.main import main
    code = main(args)
sys.stderr.flush()
sys.exit(code)
PY
}
fast_err=$(run fast 2>&1 >/dev/null; echo "rc=$?")
click_err=$(run click 2>&1 >/dev/null; echo "rc=$?")
echo "fast:  $(printf %q "$fast_err")"
echo "click: $(printf %q "$click_err")"
case "$fast_err$click_err" in *Traceback*|"") exit 2;; esac
[ "$fast_err" == "$click_err" ] && exit 0 || exit 1
