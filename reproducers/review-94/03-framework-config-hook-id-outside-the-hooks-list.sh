#!/usr/bin/env bash
# Defect: harness/agent/judge/framework_config.py reads .pre-commit-config.yaml line by line: harness_hooks() counts
#   every line matching HOOK_ID (`- id: harness-…`) wherever it stands, so a harness hook "kept" in text the
#   framework never reads as a hook passes the Edit/Write check (framework_edit_dropped) and the commit check
#   (hook_facts.start_git_setup -> dropped): a second `repos:` key (YAML: the last one wins), the ids parked under an
#   unknown top-level key (pre-commit only warns), or a duplicate `id:` key under the hook (the last, `harness-gate`,
#   a manual-stage hook, wins). pre-commit then runs no harness-validate and a forged ledger is committed.
# Correct: the guard judges the config as pre-commit loads it (a YAML parse, last duplicate key winning, only
#   repos[*].hooks[*]); each of these edits is refused as dropping harness-validate, at the Write and at the commit,
#   while an ordinary edit (bumping the harness repo's rev, adding another repo's hook) stays allowed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

# The harness as a pre-commit hook repository: its own .pre-commit-hooks.yaml with `language: system` (so the
# framework runs the `harness hook …` entries from PATH instead of pip-installing the package; nothing else changed).
mkdir "$T/hooks" && ( cd "$T/hooks" && git init -q -b main \
  && sed 's/language: python/language: system/' "$here"/.pre-commit-hooks.yaml > .pre-commit-hooks.yaml \
  && git add -A && git commit -qm hooks ) >/dev/null 2>&1 || exit 2
REV=$(git -C "$T/hooks" rev-parse HEAD) || exit 2
HARNESS_REPO="default_install_hook_types: [pre-commit, post-commit, pre-push]
repos:
  - repo: $T/hooks
    rev: $REV
    hooks:
      - id: harness-validate
      - id: harness-stamp
      - id: harness-push-guard"
R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness task new t && echo a > a.txt \
  && printf '%s\n' "$HARNESS_REPO" > .pre-commit-config.yaml && pre-commit install && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
cp -a "$R" "$T/pristine" || exit 2

guard() {  # TOOL JSON_INPUT -> prints deny|allow (Claude Code's PreToolUse payload, as tests/support/agent_guard.py)
  python3 - "$PWD" "$1" "$2" <<'PY'
import json, subprocess, sys
cwd, tool, inp = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
call = {"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": inp}
p = subprocess.run(["harness", "hook", "agent", "claude", "pre-tool-use"], cwd=cwd, input=json.dumps(call),
                   capture_output=True, text=True)
print("deny" if '"deny"' in p.stdout else "allow")
PY
}
write_input() { python3 -c 'import json,sys; print(json.dumps({"file_path": sys.argv[1], "content": sys.argv[2]}))' "$PWD/.pre-commit-config.yaml" "$1"; }
fresh() { rm -rf "$R"; cp -a "$T/pristine" "$R"; cd "$R" || exit 2; }
hv() {  # HARNESS_REPO with the `- id: harness-validate` line replaced by $1 (a literal text)
  python3 -c 'import sys; print(sys.argv[1].replace("      - id: harness-validate", sys.argv[2], 1))' "$HARNESS_REPO" "$1"; }

# Control: with the config as committed, a forged ledger is refused by harness-validate.
fresh; echo '{"forged":1}' >> .harness/tasks/*/events.jsonl; git add -A
if git commit -qm forged >/dev/null 2>&1; then echo "setup: the forged commit was not refused by the hooks"; exit 2; fi
# Control: ordinary edits stay allowed (a fix must not refuse these).
fresh
BUMP=$(python3 -c 'import sys; print(sys.argv[1].replace("rev: "+sys.argv[2], "rev: v0.2.0"))' "$HARNESS_REPO" "$REV")
ADD="$HARNESS_REPO
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.6.0
    hooks:
      - id: ruff
        args: [--fix]"
for ok in "$BUMP" "$ADD"; do
  [ "$(guard Write "$(write_input "$ok")")" = allow ] || { echo "an ordinary edit of the config is refused"; exit 1; }
done

declare -A V
V[a second repos: key]="$HARNESS_REPO
repos: []"
V[the ids under an unknown top-level key]="default_install_hook_types: [pre-commit, post-commit, pre-push]
x-kept:
  - id: harness-validate
  - id: harness-stamp
  - id: harness-push-guard
repos: []"
V[a duplicate id: key]="$(hv '      - id: harness-validate
        id: harness-gate')"

status=0
for name in "${!V[@]}"; do
  fresh; new="${V[$name]}"
  w=$(guard Write "$(write_input "$new")")
  printf '%s\n' "$new" > .pre-commit-config.yaml
  echo '{"forged":1}' >> .harness/tasks/*/events.jsonl
  c=$(guard Bash '{"command": "git commit -qam forged"}')
  if git commit -qam forged >/dev/null 2>&1; then effect="the forged-ledger commit went through"; else effect="commit refused"; fi
  echo "$name: Write $w, git commit $c; run: $effect"
  if [ "$effect" = "the forged-ledger commit went through" ] && { [ "$w" = allow ] || [ "$c" = allow ]; }; then status=1; fi
done
[ $status = 1 ] && echo "DEFECT: harness-validate no longer runs, yet the guard counted it as kept"
exit $status
