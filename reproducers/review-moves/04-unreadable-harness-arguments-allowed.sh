#!/bin/bash
# The guard denies an unresolvable word in a git command ("write the value out literally"), but a
# harness command whose subcommand it cannot read is allowed: `harness ${X:-uninstall}`,
# `python3 -m harness ${X:-uninstall}` and `echo uninstall | xargs harness` all run `harness uninstall`.
# (`echo --no-verify | xargs git commit -m x` is allowed the same way.) Present at 615f161 too.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 && harness task new t >/dev/null 2>&1 || exit 2
[ -f .git/hooks/pre-commit ] || exit 2
judge() { printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
          "$D" "$(printf '%s' "$1" | sed 's/"/\\"/g')" | harness hook agent claude pre-tool-use; }
case "$(judge 'git commit ${X:---no-verify} -m x')" in *'"deny"'*) ;; *) echo "setup: unresolved git word allowed"; exit 2;; esac
bad=0
for c in 'harness ${X:-uninstall}' 'python3 -m harness ${X:-uninstall}' 'echo uninstall | xargs harness' 'echo uninstall | xargs python3 -m harness'; do
  case "$(judge "$c")" in *'"deny"'*) continue;; esac
  C=$(mktemp -d) || exit 2
  cp -a "$D/." "$C/" && (cd "$C" && unset X && bash -c "$c" >/dev/null 2>&1)
  if [ ! -f "$C/.git/hooks/pre-commit" ]; then echo "allowed, and removed the hooks: $c"; bad=1; fi
  rm -rf "$C"
done
exit $bad
