#!/usr/bin/env bash
# Defect: `harness agent install --host claude --scope user` always writes ~/.claude/settings.json
#   (harness/agent/hook_settings.py::settings_path; the claude Host in harness/agent/hosts/claude.py names no
#   home_env), although Claude Code reads its user settings from $CLAUDE_CONFIG_DIR when that is set (how people
#   run several accounts side by side). The install prints "installed: 3 harness hook(s) in ~/.claude/settings.json"
#   and the agent started in that environment runs with no harness hook at all. Codex's CODEX_HOME is honoured
#   the same way (home_env="CODEX_HOME"), so this is an omission, not a choice. (The user-scope skills land in
#   ~/.claude/skills for the same reason.)
# Correct: with CLAUDE_CONFIG_DIR set, the user-scope install (and uninstall) use $CLAUDE_CONFIG_DIR/settings.json
#   (and $CLAUDE_CONFIG_DIR/skills), as they use $CODEX_HOME for Codex.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
export CLAUDE_CONFIG_DIR="$T/claude-work"; mkdir -p "$CLAUDE_CONFIG_DIR" || exit 2
printf '{\n  "model": "opus"\n}\n' > "$CLAUDE_CONFIG_DIR/settings.json"
# control: Codex's own home variable is honoured
export CODEX_HOME="$T/codex-home"; mkdir -p "$CODEX_HOME" || exit 2
harness agent install --host codex --scope user >/dev/null 2>&1 || exit 2
grep -q 'harness hook agent codex' "$CODEX_HOME/hooks.json" 2>/dev/null || { echo "setup: CODEX_HOME not honoured either"; exit 2; }
out=$(harness agent install --host claude --scope user 2>&1) || { echo "install failed: $out"; exit 2; }
echo "$out" | head -1 | sed 's/^/  /'
if grep -q 'harness hook agent claude pre-tool-use' "$CLAUDE_CONFIG_DIR/settings.json"; then
  echo "OK: the hooks are in \$CLAUDE_CONFIG_DIR/settings.json, the file Claude Code reads"; exit 0
fi
echo "DEFECT: Claude Code reads \$CLAUDE_CONFIG_DIR/settings.json, which holds no harness hook; install wrote $(ls "$HOME"/.claude/settings.json 2>/dev/null)"
exit 1
