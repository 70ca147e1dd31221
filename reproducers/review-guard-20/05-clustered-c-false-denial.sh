#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# False denial. The fix reads `-c FILE` "in a cluster too (`-qc FILE`)" (line_facts._option_file_values), but
# the adapter only reads option files when line_facts._names_pytest_files(command) sees the substring "-c",
# "@" or "--config-file" in the line. `pytest -qc pytest.ini` / `pytest -vvc ci.ini` contain none of them
# ("-qc"), so the adapter reads nothing, pytest_writes._valued finds the -c file unread and the judge refuses
# (rule pytest-options: "missing, too large, or on a line that may write it first") an ordinary first-command
# pytest line naming a harmless, committed ini that `pytest -q -c pytest.ini` is allowed with.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p tests && printf 'def test_a():\n    pass\n' > tests/test_a.py && printf '[pytest]\naddopts = -ra\n' > pytest.ini \
  && cp pytest.ini ci.ini && git add -A && git commit -qm cfg || exit 2
for c in "pytest -q -c pytest.ini" "pytest -v -c ci.ini tests"; do   # controls: the same files, unclustered
  [ "$(hk "$c")" = allow ] || { echo "setup: control not allowed: $c" >&2; exit 2; }
done
for c in "pytest -qc pytest.ini" "pytest -vvc ci.ini tests"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a clustered -c (-qc FILE) is refused although the same file is allowed with -q -c"
exit $fail
