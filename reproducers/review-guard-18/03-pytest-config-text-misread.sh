#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# pytest_writes.config_reach reads pytest's configuration text (an Edit/Write of pytest.ini & co, and the
# ini `-c FILE` names) with two regexes that miss forms pytest accepts:
#  - ini `key: value` (iniconfig takes `:` as well as `=`): `log_file: LEDGER` (KEY_IN_TEXT wants `=`);
#  - TOML's quoted key `"log_file" = "LEDGER"` under [tool.pytest.ini_options];
#  - `addopts = @opts.txt`: pytest's argparse expands an @FILE in the ini's addopts too, and the file it names
#    is never read (neither by the Edit check nor by `pytest` itself: the line names no `@`/`-c`).
# Each Write is allowed, and every later plain `pytest` (the quick path's everyday line) overwrites the ledger.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
wd() { # PATH CONTENT: the guard's answer for a Write tool call
  python - "$R" "$1" "$2" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Write",
                  "tool_input": {"file_path": sys.argv[1] + "/" + sys.argv[2], "content": sys.argv[3]}}))
PY
}
[ "$(wd pytest.ini $'[pytest]\nlog_file = '"$L"$'\n')" = deny ] || { echo "setup: pytest.ini control" >&2; exit 2; }
try() { # FILE CONTENT: Write it if allowed, then run plain pytest for real
  local w; w=$(wd "$1" "$2"); echo "Write $1 ($(head -c 60 <<<"${2//$'\n'/ | }")): $w"
  [ "$w" = allow ] || return 0
  printf '%s' "$2" > "$1"; ledger_case "pytest -q -p no:cacheprovider"; rm -f "$1"
}
try pytest.ini $'[pytest]\nlog_file: '"$L"$'\n'
try pyproject.toml $'[tool.pytest.ini_options]\n"log_file" = "'"$L"$'"\n'
printf -- '--debug=%s\n' "$L" > opts.txt        # an arguments file: any name, any content, written freely
try pytest.ini $'[pytest]\naddopts = @opts.txt\n'
printf '[pytest]\nlog_file: %s\n' "$L" > ci.ini; ledger_case "pytest -q -p no:cacheprovider -c ci.ini"
[ $fail = 1 ] && echo "DEFECT: pytest configuration forms config_reach misreads make plain pytest write the ledger"
exit $fail
