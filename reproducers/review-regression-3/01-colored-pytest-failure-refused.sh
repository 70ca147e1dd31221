#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# test_verdict.no_verdict reads pytest's output tail to tell a failed test from an error: the SUMMARY regex
# (`^=*\s*(\d+ [a-z]+...) in N.NNs ...$`) and the `^FAILED \S` fallback both assume plain text. With colour on
# (`--color=yes` in a project's pytest addopts, or PY_COLORS=1 / FORCE_COLOR=1 as CI sets them), pytest wraps
# the summary and the FAILED word in ANSI escapes (`\x1b[31mFAILED\x1b[0m`, `\x1b[31m\x1b[1m1 failed\x1b[0m`), so
# neither matches and a run whose test genuinely FAILED on an assertion is called "no summary that names a
# failed test ... No test ran to a verdict". HONEST flows are refused:
#   (a) `finding regression` of a real failing test in a project whose pytest.ini has addopts = --color=yes;
#   (b) `finding reproduce` of a major finding whose reviewer's reproducer runs pytest under PY_COLORS=1:
#       the finding cannot be CONFIRMED (stays PROPOSED, counting against the gate) and only the reviewer's
#       unchanged command may decide it.
# Control: the same runs without colour are accepted. Exit 1 while a coloured run is refused; 0 when fixed; 2 setup.
source "$D"/common.inc
source "$D"/flow.inc
printf 'import app\n\ndef test_double_negative():\n    assert app.double(-3) == -6\n' > tests/test_double.py
git add -A && git commit -qm test >/dev/null 2>&1 || exit 2
RUN=("$PY" -m pytest -q -p no:cacheprovider tests/test_double.py)
# control: the plain run attaches (then undone by restoring the ledger and the finding's YAML)
cp -a .harness "$T/h0" || exit 2
harness finding regression F-0001 tests/test_double.py -- "${RUN[@]}" >/dev/null 2>&1 || { echo "setup: control refused" >&2; exit 2; }
[ "$(status F-0001)" = FIXING ] || exit 2
rm -rf .harness && cp -a "$T/h0" .harness && [ "$(status F-0001)" = CONFIRMED ] || exit 2
# (a) the same test, the project colouring pytest's output
printf '[pytest]\naddopts = --color=yes\n' > pytest.ini; git add pytest.ini && git commit -qm 'colour' >/dev/null 2>&1 || exit 2
out=$(harness finding regression F-0001 tests/test_double.py -- "${RUN[@]}" 2>&1); a=$(status F-0001)
echo "(a) addopts=--color=yes: F-0001 $a"; grep -m1 '^harness:' <<<"$out"
git rm -q pytest.ini && git commit -qm 'no colour' >/dev/null 2>&1 || exit 2
# (b) a reviewer's pytest reproducer under PY_COLORS=1
sed -e 's/^title: .*/title: double drops negatives (pytest)/' \
    -e "s|^recommended_reproducer: .*|recommended_reproducer: {type: unit_test, description: d, command: [\"$PY\", \"-m\", \"pytest\", \"-q\", \"-p\", \"no:cacheprovider\", \"tests/test_double.py\"]}|" prop.yaml > prop2.yaml
harness finding propose --file prop2.yaml >/dev/null 2>&1 || exit 2
out=$(PY_COLORS=1 harness finding reproduce F-0002 2>&1); b=$(status F-0002)
echo "(b) PY_COLORS=1 reproducer: F-0002 $b"; grep -m1 '^harness:' <<<"$out"
[ "$a" = FIXING ] && [ "$b" = CONFIRMED ] && exit 0
exit 1
