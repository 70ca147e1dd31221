#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A regression test that never ran is attached when pytest is started through a wrapper.
# `finding regression` refuses a failing run only when pytest exits 2-5 (collection error, usage,
# nothing collected) AND argv starts pytest itself (test_verdict.runs_pytest): `pytest`, `py.test`,
# `python -m pytest`. The same pytest run behind `timeout 60`, `env`, or `python -Im pytest` (the -I
# and -m folded together) exits 2 on a file with a syntax error, and is taken for a failing test: the
# finding goes FIXING with a "regression test" that never compiled, and after the real fix (the
# reviewer's reproducer passes) any passing content in that file carries it to VERIFIED and counts
# in metrics' "regression capture". docs/concepts.md: "a pytest run that reached no test (exit 2-5)
# neither attaches a regression test nor confirms a reproducer".
# Exit 1 while any wrapped form is accepted; 0 when all are refused like the bare form; 2 on setup failure.
source "$D"/common.inc
source "$D"/flow.inc
echo 'def test_double_negative(:' > tests/test_reg.py   # a syntax error: no test can run
git add -A; git commit -qm 'regression test (broken)' >/dev/null 2>&1 || exit 2
PT=(-m pytest -q -p no:cacheprovider tests/test_reg.py)
# control: the bare form is refused (exit 2 is no verdict), nothing recorded
harness finding regression F-0001 tests/test_reg.py -- "$PY" "${PT[@]}" >/dev/null 2>&1
[ "$(status F-0001)" = CONFIRMED ] || { echo "setup: bare pytest run with a syntax error was accepted" >&2; exit 2; }
echo "control: bare \`python -m pytest\` refused, F-0001 $(status F-0001)"
accepted=""
for form in "timeout 60 $PY" "env $PY" "$PY -I"; do
  git checkout -q HEAD -- .harness 2>/dev/null; git clean -fdq .harness 2>/dev/null
  [ "$(status F-0001)" = CONFIRMED ] || exit 2
  if [ "$form" = "$PY -I" ]; then cmd=("$PY" -Im pytest -q -p no:cacheprovider tests/test_reg.py)
  else read -ra pre <<<"$form"; cmd=("${pre[@]}" "${PT[@]}"); fi
  harness finding regression F-0001 tests/test_reg.py -- "${cmd[@]}" >/dev/null 2>&1; rc=$?
  st=$(status F-0001); echo "rc=$rc F-0001 $st : ${cmd[*]}"
  [ "$st" = FIXING ] && accepted="$accepted|${cmd[*]}"
done
[ -z "$accepted" ] && { echo "every wrapped form refused"; exit 0; }
# carry the last accepted one to VERIFIED: the real fix, and the test file made to pass
git checkout -q HEAD -- .harness; git clean -fdq .harness
harness finding regression F-0001 tests/test_reg.py -- timeout 60 "$PY" "${PT[@]}" >/dev/null 2>&1
printf 'def test_double_negative():\n    assert True\n' > tests/test_reg.py
to_verified >/dev/null 2>&1; echo "after fix + 'assert True': F-0001 $(status F-0001)"
exit 1
