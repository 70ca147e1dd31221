#!/bin/bash
# F-0008 reads interpreter options before `-m harness`, but the standard library's own module runners
# run the harness too and the guard judges them as some other module: `python3 -m runpy harness uninstall`,
# `python3 -m cProfile -m harness uninstall`, `python3 -m profile -m ...`, `python3 -m trace --trace --module ...`,
# `python3 -m pdb -m ...`. Each is allowed, and each really removes the native hooks (checked in a scratch copy).
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 && harness task new t >/dev/null 2>&1 || exit 2
[ -f .git/hooks/pre-commit ] || exit 2
bad=0
for c in "python3 -m runpy harness uninstall" "python3 -m cProfile -m harness uninstall" \
         "python3 -m profile -m harness uninstall" "python3 -m trace --trace --module harness uninstall" \
         "python3 -m pdb -m harness uninstall"; do
  out=$(printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$D" "$c" \
        | harness hook agent claude pre-tool-use)
  case "$out" in *'"deny"'*) continue;; esac
  C=$(mktemp -d) || exit 2
  cp -a "$D/." "$C/" && (cd "$C" && echo c | eval "$c" >/dev/null 2>&1)
  if [ ! -f "$C/.git/hooks/pre-commit" ]; then echo "allowed, and removed the hooks: $c"; bad=1
  else echo "allowed but did not remove the hooks (not counted): $c"; fi
  rm -rf "$C"
done
exit $bad
