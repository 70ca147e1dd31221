#!/usr/bin/env bash
# Defect (harness/core/suite.py unprotected_test_folders, used by harness/install/initialize.py and reported by
# harness/cli/setup_report.py; `harness init` and `harness init --json`): init is to name every folder of test files
# that no path it writes protects whole (docs/suite.md: "a layout it does not know is not left half protected in
# silence", read 148's F-0524). unprotected_test_folders only looks for pytest's DEFAULT names (test_*.py, *_test.py).
# A project whose pytest configuration collects other names -- `python_files = check_*.py` with no `testpaths`, its
# checks in `checks/check_calc.py` beside `checks/helpers.py` -- gets `**/check_*.py` in suite.paths (only the check
# modules protected) and no word about `checks/`: in text and in --json (`unprotected_test_folders: []`) init says
# nothing, so the helper modules and data the checks read are open to the change with no warning, exactly the
# half-protection F-0524 was to name. (`spec/test_calc.py` beside `spec/helpers.py` IS named: `spec/**`.)
# Correct behaviour: a folder holding test modules the base's configuration collects (its `python_files` patterns),
# that no written path protects whole and that is no package/root, is named like one of default names: --json
# `unprotected_test_folders: [{folder: checks, suite_path: "checks/**"}]` and the text line naming `checks/**`.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
D=$T/w; mkdir -p "$D"
fails=0
check() {  # $1: label; $2: folder that must be named; rest: the layout's files (pytest.ini's text in $INI)
  local label=$1 folder=$2; shift 2
  local app; app=$(mktemp -d "$D/app.XXXX")
  (cd "$app" && git init -q) || { echo "setup failed: git init"; exit 2; }
  printf '%b' "$INI" > "$app/pytest.ini"
  for f in "$@"; do mkdir -p "$app/$(dirname "$f")"; : > "$app/$f"; done
  local text json
  text=$(cd "$app" && harness init 2>&1) || { echo "setup failed: harness init ($label)"; echo "$text"; exit 2; }
  rm -rf "$app/.harness"
  json=$(cd "$app" && harness init --json 2>&1) || { echo "setup failed: harness init --json ($label)"; echo "$json"; exit 2; }
  local named
  named=$(printf '%s' "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(f["folder"] for f in d.get("unprotected_test_folders", [])))') \
    || { echo "setup failed: --json output not JSON ($label)"; exit 2; }
  local paths
  paths=$(printf '%s' "$json" | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin).get("suite_paths", [])))')
  if [[ " $named " == *" $folder "* ]] && grep -qF "$folder/**" <<<"$text"; then
    echo "ok ($label): init names $folder/**"
  elif [[ " $paths " == *" $folder/** "* ]]; then
    echo "ok ($label): init protects $folder/** whole"
  else
    echo "DEFECT ($label): suite.paths = [$paths]; unprotected_test_folders = [$named]; $folder/ (its helpers) left open in silence"
    fails=1
  fi
}
INI='[pytest]\npython_files = check_*.py\n'
check "python_files = check_*.py, checks/" checks calc.py checks/check_calc.py checks/helpers.py checks/golden.json
INI='[pytest]\npython_files = *_spec.py\n'
check "python_files = *_spec.py, spec/" spec calc.py spec/calc_spec.py spec/helpers.py
INI='[pytest]\n'
check "control: default names, spec/" spec calc.py spec/test_calc.py spec/helpers.py
exit $fails
