#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# pytest (>= 8.2) reads arguments from a file named with `@`: `pytest @args.txt`. The guard refuses
# `pytest --basetemp=.harness` (pytest empties its basetemp) and refuses writing `--basetemp=.harness` into
# pytest.ini/setup.cfg/... (check_config_basetemp), but an arguments file of any other name is written freely
# (a plain Write), and `pytest @args.txt` is allowed by the quick path (quick_allow: `@` is in PLAIN, pytest is
# a READER) and by the full judge alike. pytest then rm -rf's the whole .harness/ folder: ledger, approvals,
# evidence. (`pytest -c other.ini` with addopts holding --basetemp is the same hole.)
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest --basetemp=.harness" "pytest -q --basetemp .harness"
write_decision() { # PATH CONTENT: the guard's answer for a Write tool call
  python - "$R" "$1" "$2" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Write",
                  "tool_input": {"file_path": sys.argv[1] + "/" + sys.argv[2], "content": sys.argv[3]}}))
PY
}
[ "$(write_decision pytest.ini $'[pytest]\naddopts = --basetemp=.harness\n')" = deny ] || { echo "setup: pytest.ini control" >&2; exit 2; }
printf 'def test_t(tmp_path):\n    pass\n' > test_t.py           # an ordinary test using tmp_path
w=$(write_decision args.txt $'--basetemp=.harness\n'); echo "Write args.txt: $w"
[ "$w" = allow ] && printf -- '--basetemp=.harness\n' > args.txt
ledger_case "pytest -q -p no:cacheprovider @args.txt"
[ -f "$L" ] || echo "ledger file is gone: $(ls -A .harness)"
[ $fail = 1 ] && echo "DEFECT: pytest @ARGFILE empties .harness/ (basetemp) unjudged"
exit $fail
