#!/bin/bash
# `harness evidence TYPE -- CMD` runs CMD, but the agent guard judges only the word `evidence`:
# `harness evidence unit_test -- harness uninstall` (and `-- git commit --no-verify ...`,
# `--shell -- "..."`) are allowed, while the same commands written out are denied. Present at 615f161 too.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/.venv/bin:$PATH"
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
harness init >/dev/null 2>&1 && harness install >/dev/null 2>&1 && harness task new t >/dev/null 2>&1 || exit 2
[ -f .git/hooks/pre-commit ] || exit 2
judge() { printf '{"session_id":"s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' \
          "$D" "$(printf '%s' "$1" | sed 's/"/\\"/g')" | harness hook agent claude pre-tool-use; }
# control: written out, both are denied
for c in "harness uninstall" "git commit --no-verify -qm x"; do
  case "$(judge "$c")" in *'"deny"'*) ;; *) echo "setup: the guard allows \`$c\` itself"; exit 2;; esac
done
bad=0
for c in "harness evidence unit_test -- git commit --no-verify -qm x" "harness evidence lint --shell -- 'git commit -n -qm y'" \
         "harness evidence unit_test -- harness uninstall"; do
  case "$(judge "$c")" in *'"deny"'*) ;; *) echo "allowed: $c"; bad=1;; esac
done
[ $bad = 1 ] || exit 0
eval "harness evidence unit_test -- harness uninstall" >/dev/null 2>&1
[ -f .git/hooks/pre-commit ] && { echo "setup: evidence did not run the command"; exit 2; }
echo "and it ran: the native hooks are gone"
exit 1
