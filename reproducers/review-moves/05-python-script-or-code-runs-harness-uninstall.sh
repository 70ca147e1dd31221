#!/bin/bash
# Python runs the harness's command line without `-m harness` in the words the guard reads:
# the console script handed to the interpreter (`python3 /abs/bin/harness uninstall`), the package's
# own __main__.py as a script, and code given inline (`python3 -c 'import runpy; runpy.run_module("harness", ...)' uninstall`).
# module_run() returns None for any script or -c, so all are allowed, and each removes the native hooks.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
H=$(command -v harness) || exit 2
M=$(python3 -c 'import harness, os; print(os.path.join(os.path.dirname(harness.__file__), "__main__.py"))') || exit 2
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 && harness task new t >/dev/null 2>&1 || exit 2
[ -f .git/hooks/pre-commit ] || exit 2
judge() { printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
          "$D" "$(printf '%s' "$1" | sed 's/"/\\"/g')" | harness hook agent claude pre-tool-use; }
bad=0
for c in "python3 $H uninstall" "python3 $M uninstall" \
         "python3 -c 'import runpy; runpy.run_module(\"harness\", run_name=\"__main__\")' uninstall"; do
  case "$(judge "$c")" in *'"deny"'*) continue;; esac
  C=$(mktemp -d) || exit 2
  cp -a "$D/." "$C/" && (cd "$C" && bash -c "$c" >/dev/null 2>&1)
  if [ ! -f "$C/.git/hooks/pre-commit" ]; then echo "allowed, and removed the hooks: $c"; bad=1; fi
  rm -rf "$C"
done
exit $bad
