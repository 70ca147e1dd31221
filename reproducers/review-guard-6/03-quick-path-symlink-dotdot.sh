#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# An edit of `x/../.harness/tasks/T/events.jsonl`, where `x` is a symlink the agent made to a folder deeper in
# the repository (`ln -s a/b x`, allowed). The full judge (run._judge_tool) judges a written path both by its
# real path and by its lexical name (normpath: `.harness/tasks/T/events.jsonl`, "the name it is written under",
# #25's F-0022) and DENIES it. quick_allow._writes_outside_guarded looks at os.path.realpath only (`a/.harness/...`,
# top folder `a`) and ALLOWS it before the judge runs. A host that resolves the path lexically (Node's
# path.resolve) writes the real ledger / the real .git/hooks/pre-commit.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"
( cd "$R" && git init -q && harness init && harness install && harness task new t && mkdir -p a/b && ln -s a/b x ) \
  >/dev/null 2>&1 || exit 2
ledger=$(cd "$R" && ls .harness/tasks/*/events.jsonl | head -1); [ -n "$ledger" ] || exit 2
hk() { # the guard's decision for a Write of $1 from $R; "full" as $2 disables the quick path
  python - "$R" "$1" "${2:-}" <<'PY'
import json, sys
from harness.agent import run, quick_allow
if sys.argv[3] == "full":
    quick_allow.surely_allowed = lambda *a, **k: False
out = run.run("claude", "pre-tool-use", json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
              "tool_name": "Write", "tool_input": {"file_path": sys.argv[2], "content": "{}\n"}}))
print("deny" if '"deny"' in str(out[0]) else "allow")
PY
}
[ "$(hk "$ledger")" = deny ] || { echo "setup: control not denied" >&2; exit 2; }
echo "lexically: $(python -c 'import os,sys; print(os.path.normpath(sys.argv[1]))' "$R/x/../$ledger")"
fail=0
for p in "x/../$ledger" "$R/x/../$ledger" "x/../.git/hooks/pre-commit"; do
  q=$(hk "$p"); f=$(hk "$p" full)
  echo "quick path: $q   full judge: $f   Write $p"
  [ "$q" = "$f" ] || fail=1
done
exit $fail
