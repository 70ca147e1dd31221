#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The quick path (harness/agent/quick_allow.surely_allowed) allows an edit whose path lies inside the
# session's repository and outside its top-level .harness/.git; but a NESTED repository with its own harness
# (a linked worktree under .claude/worktrees/, a vendored clone) keeps its ledger at SUB/.harness/...
# The full judge (_outside_writes -> guarded_root) refuses that write; the quick path answers first and allows it.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"
( cd "$R" && git init -q && harness init && harness install && harness task new t \
  && git add -A && git commit -qm init \
  && git worktree add -q .claude/worktrees/feat -b feat \
  && mkdir -p vendor/lib && cd vendor/lib && git init -q && harness init && harness task new t2 ) >/dev/null 2>&1 || exit 2
W="$R/.claude/worktrees/feat"; ledger_wt=$(cd "$W" && ls .harness/tasks/*/events.jsonl | head -1)
ledger_v=$(cd "$R/vendor/lib" && ls .harness/tasks/*/events.jsonl | head -1)
[ -n "$ledger_wt" ] && [ -n "$ledger_v" ] || exit 2
hk() { # the guard's decision for a Write of $2 from cwd $1; "full" as $3 disables the quick path
  python - "$1" "$2" "${3:-}" <<'PY'
import json, sys
from harness.agent import run, quick_allow
if sys.argv[3] == "full":
    quick_allow.surely_allowed = lambda *a, **k: False
out = run.run("claude", "pre-tool-use", json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
              "tool_name": "Write", "tool_input": {"file_path": sys.argv[2], "content": "{}\n"}}))
print("deny" if '"deny"' in str(out[0]) else "allow")
PY
}
[ "$(hk "$R" "$R/.harness/tasks/x/events.jsonl")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
fail=0
for p in ".claude/worktrees/feat/$ledger_wt" "vendor/lib/$ledger_v" "$R/vendor/lib/$ledger_v"; do
  q=$(hk "$R" "$p"); f=$(hk "$R" "$p" full)
  echo "quick path: $q   full judge: $f   Write $p"
  [ "$q" = deny ] || fail=1
done
exit $fail
