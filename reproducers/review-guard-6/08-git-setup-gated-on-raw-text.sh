#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# hook_facts.start_git_setup decides from the RAW command text what git facts the judge gets: the repository's
# aliases only when the text contains "git" or "hook", the framework config of HEAD vs the index only when it
# contains "commit". The judge then reads WORDS (quotes removed, aliases expanded), so:
#  (a) with the everyday alias `ci = commit`, `git ci -m x` commits a staged .pre-commit-config.yaml that drops
#      the harness hook: ALLOWED, while `git commit -m x` is denied (framework-config);
#  (b) `git comm''it -m x` (bash runs `git commit`): ALLOWED for the same reason;
#  (c) `g''it cm -m x` with an alias `cm = commit --no-verify`: aliases never read, ALLOWED (`git cm` is denied).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"
( cd "$R" && git init -q && harness init && harness install && harness task new t \
  && printf 'repos:\n- repo: local\n  hooks:\n  - id: harness-commit\n    name: h\n    entry: harness\n    language: system\n' \
     > .pre-commit-config.yaml && git add -A && git commit -qm init \
  && printf 'repos: []\n' > .pre-commit-config.yaml && git add .pre-commit-config.yaml \
  && git config alias.ci commit && git config alias.cm 'commit --no-verify' ) >/dev/null 2>&1 || exit 2
hk() { # the guard's decision for a Bash command run in $R, through the hook's CLI
  python - "$R" "$1" <<'PY' | harness hook agent claude pre-tool-use 2>/dev/null | grep -q '"deny"' && echo deny || echo allow
import json, sys
print(json.dumps({"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}}))
PY
}
[ "$(hk "git commit -m x")" = deny ] && [ "$(hk "git cm -m x")" = deny ] || { echo "setup: controls not denied" >&2; exit 2; }
fail=0
for c in "git ci -m x" "git comm''it -m x" "g''it cm -m x"; do
  a=$(hk "$c"); echo "$a: $c"; [ "$a" = deny ] || fail=1
done
exit $fail
