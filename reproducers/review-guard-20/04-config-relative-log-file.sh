#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# An Edit/Write of pytest.ini & co is judged by run._pytest_config_edit -> bypass_files.check_pytest_config
# -> _judged, which resolves a relative log_file / --junitxml / --debug value from the SESSION's cwd (no
# bases: Reach() is empty). pytest resolves them from the folder it RUNS in (logging: os.path.abspath(log_file);
# junitxml, --debug: open(path)), and it finds the repository's pytest.ini from any folder below it. So
# `log_file = ../.harness/tasks/T/events.jsonl` written at the repository's top is judged as a file ABOVE the
# repository (allowed), and every later `cd tests && pytest` (or a session whose cwd is tests/) opens
# tests/../.harness/tasks/T/events.jsonl with mode "w": the ledger is truncated/overwritten.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
wd() { # PATH CONTENT: the guard's answer for a Write tool call
  python - "$R" "$1" "$2" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Write",
                  "tool_input": {"file_path": sys.argv[1] + "/" + sys.argv[2], "content": sys.argv[3]}}))
PY
}
[ "$(wd pytest.ini $'[pytest]\nlog_file = '"$L"$'\n')" = deny ] || { echo "setup: pytest.ini Write control" >&2; exit 2; }
mkdir -p tests && printf 'def test_a():\n    pass\n' > tests/test_a.py
c=$'[pytest]\nlog_file = ../'"$L"$'\n'
w=$(wd pytest.ini "$c"); echo "Write pytest.ini (log_file = ../$L): $w"
[ "$w" = allow ] || exit 0
printf '%s' "$c" > pytest.ini
ledger_case "cd tests && pytest -q -p no:cacheprovider"
# the same plain line, from a session whose cwd is tests/
git checkout -q HEAD -- "$L"; before=$(git hash-object "$L")
a=$(hk "pytest -q -p no:cacheprovider" "$R/tests"); ( cd tests && timeout 30 pytest -q -p no:cacheprovider ) >/dev/null 2>&1
after=$(git hash-object "$L"); echo "guard (cwd tests/): $a  ledger changed: $([ "$before" != "$after" ] && echo yes || echo no)"
[ "$a" = allow ] && [ "$before" != "$after" ] && fail=1
[ $fail = 1 ] && echo "DEFECT: a relative log_file in pytest.ini is judged from the wrong folder"
exit $fail
