#!/usr/bin/env bash
# Defect: when bashlex cannot parse a line (any `[[ … ]]` test or `case … esac` on it), the guard falls back to
#   harness/agent/judge/shell_commands.py:_fallback_commands, a shlex tokenizer that misreads bash:
#   (a) it turns every newline into ` ; ` before lexing, so a line continuation (backslash-newline) splits one
#       command in two: `git commit \<NL>--no-verify` is judged as `git commit ' '` and a command `--no-verify`;
#   (b) it splits `$(…)` at the parentheses, so `git commit $(printf %s -n)` is judged as `git commit $` plus a
#       separate `printf` — the substitution's output never reaches git's arguments (the bashlex path denies it);
#   (c) it does not decode ANSI-C quoting, so `$'\055n'` stays the word `$\055n` (bash passes `-n`);
#   (d) (a) also hides a redirect target: `echo x >\<NL>.harness/tasks/ID/events.jsonl` writes the ledger.
#   Each of these is allowed, and bash runs `git commit -n` / writes the ledger. docs/agents.md: "Shell commands
#   are parsed as shell"; the module promises the fallback "errs towards finding more commands, never fewer".
# Correct: the four lines are denied (as their spelling without `[[ … ]];` in front is), e.g. by joining
#   backslash-newlines before lexing, treating `$(`/`$'` in a fallback word as unresolved, or denying any line
#   neither parser reads exactly when it mentions what the guard covers.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

guard() {
  local payload out
  payload=$(python3 -c 'import json,sys; print(json.dumps({"session_id":"s","cwd":sys.argv[2],"hook_event_name":"PreToolUse",
    "tool_name":"Bash","tool_input":{"command":sys.argv[1]}}))' "$1" "$R") || exit 2
  out=$(printf '%s' "$payload" | harness hook agent claude pre-tool-use 2>/dev/null)
  case "$out" in *'"permissionDecision": "deny"'*) echo deny;; *) echo allow;; esac
}
show() { printf '%s' "$1" | tr '\n' '~'; }   # a newline shown as ~

ledger=$(ls .harness/tasks/*/events.jsonl) || exit 2
sed -i 's/unit_test: required/unit_test: optional/' .harness/gate.yaml || exit 2
git commit -qam loosen >/dev/null 2>&1 && { echo "setup: the hook did not refuse the loosening"; exit 2; }
NL=$'\n'
# Controls: the same commands without the `[[ … ]]` in front are denied; a plain `[[ … ]] && git commit` is allowed.
for c in "git commit \\${NL}--no-verify -qam loosen" "git commit \$(printf %s -n) -qam loosen" \
         "git commit \$'\\055n' -qam loosen" "echo x >\\${NL}$ledger"; do
  [ "$(guard "$c")" = deny ] || { echo "setup: control not denied: $(show "$c")"; exit 2; }
done
[ "$(guard "[[ -e a.txt ]] && git commit -qm ok")" = allow ] || { echo "setup: an ordinary line was denied"; exit 2; }

fail=0
for c in "[[ -e a.txt ]]; git commit \\${NL}--no-verify -qam loosen" \
         "[[ -e a.txt ]]; git commit \$(printf %s -n) -qam loosen" \
         "[[ -e a.txt ]]; git commit \$'\\055n' -qam loosen" \
         "[[ -e a.txt ]]; echo x >\\${NL}$ledger"; do
  v=$(guard "$c"); echo "guard: $v   $(show "$c")"
  [ "$v" = allow ] && fail=1
done
if [ $fail = 1 ]; then
  # End to end: run the first allowed commit line as the agent's shell would.
  c="[[ -e a.txt ]]; git commit \\${NL}--no-verify -qam loosen"
  if [ "$(guard "$c")" = allow ]; then
    bash -c "$c" >/dev/null 2>&1
    git show --stat HEAD | grep -q gate.yaml && echo "DEFECT: that line committed the loosened gate.yaml without the harness's hook"
  fi
  c="[[ -e a.txt ]]; echo x >\\${NL}$ledger"
  if [ "$(guard "$c")" = allow ]; then
    bash -c "$c"; [ "$(cat "$ledger")" = x ] && echo "DEFECT: that line overwrote the task ledger $ledger"
  fi
  echo "DEFECT: lines bashlex cannot parse are misread by the shlex fallback"; exit 1
fi
echo "OK: all fallback lines denied"; exit 0
