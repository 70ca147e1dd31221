#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The venv's pytest is 9.x, which finds its configuration in `pytest.toml` and `.pytest.toml` first
# (_pytest/config/findpaths.py CONFIG_LOADERS_BY_NAME; a `[pytest]` table). The guard's list of pytest's
# configuration files (bypass_files.PYTEST_CONFIGS, quick_allow.PYTEST_CONFIGS) stops at pytest.ini,
# .pytest.ini, tox.ini, setup.cfg, pyproject.toml. So (a) a SHELL write of pytest.toml is not refused
# (rule pytest-config only knows the five names), and (b) a Write-tool pytest.toml is never judged for its
# content (run._pytest_config_edit returns None for any other name). Either way every later plain `pytest`
# (the quick path's everyday line) reads `log_file = LEDGER` / `addopts = --basetemp=.harness` from it.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
wd() { # PATH CONTENT: the guard's answer for a Write tool call
  python - "$R" "$1" "$2" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Write",
                  "tool_input": {"file_path": sys.argv[1] + "/" + sys.argv[2], "content": sys.argv[3]}}))
PY
}
control "printf '[pytest]\nlog_file = $L\n' > pytest.ini && pytest -q"
[ "$(wd pytest.ini $'[pytest]\nlog_file = '"$L"$'\n')" = deny ] || { echo "setup: pytest.ini Write control" >&2; exit 2; }
mkdir -p tests && printf 'def test_a():\n    pass\n' > tests/test_a.py
# (a) the shell writes pytest.toml, then plain pytest, on one line
ledger_case "printf '[pytest]\nlog_file = \"$L\"\n' > pytest.toml && pytest -q -p no:cacheprovider tests"
rm -f pytest.toml
# (b) the Write tool writes .pytest.toml (allowed unjudged), then the quick path's plain pytest
w=$(wd .pytest.toml $'[pytest]\naddopts = ["--debug='"$L"$'"]\n'); echo "Write .pytest.toml (addopts --debug=LEDGER): $w"
if [ "$w" = allow ]; then
  printf '[pytest]\naddopts = ["--debug=%s"]\n' "$L" > .pytest.toml
  ledger_case "pytest -q -p no:cacheprovider tests"
fi
[ $fail = 1 ] && echo "DEFECT: pytest 9's pytest.toml/.pytest.toml configuration is unguarded"
exit $fail
