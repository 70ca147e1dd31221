#!/usr/bin/env bash
# Defect: harness/agent/judge/framework_config.py patched_text()/_hunks_applied() work out the config Codex's
#   apply_patch leaves, but drop the `*** End of File` marker (rows starting with `***`) and always take the FIRST
#   match of a hunk's old lines. Codex (codex-rs/apply-patch: compute_replacements -> seek_sequence(..., eof=true))
#   matches an End-of-File hunk at the END of the file. With a line that occurs twice (here a `# ---` separator
#   comment), the guard places `args: [--help]` under another repository's hook (allowed), while Codex places it
#   under harness-validate: the commit check then runs `harness hook validate --help` (help, exit 0) and a forged
#   ledger is committed. (The commit-time check is fooled too: see the same line reader in 04.)
# Correct: an End-of-File hunk is sought from the end, as Codex seeks it (or any patch whose hunks match more than
#   one place is judged as reaching every hook in force); this patch is refused, and the same hunk without the
#   marker (which Codex too applies at the first separator) stays allowed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
# The harness as a pre-commit hook repository, `language: system` so the framework runs `harness hook …` from PATH.
mkdir "$T/hooks" && ( cd "$T/hooks" && git init -q -b main \
  && sed 's/language: python/language: system/' "$here"/.pre-commit-hooks.yaml > .pre-commit-hooks.yaml \
  && git add -A && git commit -qm hooks ) >/dev/null 2>&1 || exit 2
REV=$(git -C "$T/hooks" rev-parse HEAD) || exit 2
R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
cat > "$T/config" <<CFG
default_install_hook_types: [pre-commit, post-commit, pre-push]
repos:
  - repo: local
    hooks:
      - id: noop
        name: noop
        entry: "true"
        language: system
        always_run: true
        pass_filenames: false
  # ---
  - repo: $T/hooks
    rev: $REV
    hooks:
      - id: harness-stamp
      - id: harness-push-guard
      - id: harness-validate
  # ---
CFG
( git init -q -b main && harness init && harness task new t && echo a > a.txt && cp "$T/config" .pre-commit-config.yaml \
  && pre-commit install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2

PATCH='*** Begin Patch
*** Update File: .pre-commit-config.yaml
@@
+        args: [--help]
   # ---
*** End of File
*** End Patch'

codex_guard() {  # PATCH -> deny|allow (Codex's PreToolUse payload for apply_patch, as tests/test_guard_keeps_the_framework_hooks.py)
  python3 - "$PWD" "$1" <<'PY'
import json, subprocess, sys
cwd, patch = sys.argv[1], sys.argv[2]
call = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": cwd, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_use_id": "toolu_01", "model": "gpt-5-codex", "turn_id": "t1",
        "tool_name": "apply_patch", "tool_input": {"command": patch}}
p = subprocess.run(["harness", "hook", "agent", "codex", "pre-tool-use"], cwd=cwd, input=json.dumps(call),
                   capture_output=True, text=True)
print("deny" if '"deny"' in p.stdout else "allow")
PY
}
codex_apply() {  # PATCH: applied to .pre-commit-config.yaml as codex-rs/apply-patch does (one update chunk; an
  # End-of-File chunk is sought from the end: seek_sequence(lines, old, start, eof=true))
  python3 - "$1" <<'PY'
import sys
patch = sys.argv[1].splitlines()
body = patch[patch.index("@@") + 1:]
eof = "*** End of File" in body
rows = [r for r in body if not r.startswith("***")]
old = [r[1:] for r in rows if r[:1] in (" ", "-")]
new = [r[1:] for r in rows if r[:1] in (" ", "+")]
lines = open(".pre-commit-config.yaml").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
start = len(lines) - len(old) if eof else 0
at = next(i for i in range(start, len(lines) - len(old) + 1) if lines[i:i + len(old)] == old)
lines[at:at + len(old)] = new
open(".pre-commit-config.yaml", "w").write("\n".join(lines) + "\n")
PY
}

# Control: the forged ledger is refused while harness-validate runs as its repository defines it.
echo '{"forged":1}' >> .harness/tasks/*/events.jsonl; git add -A
if git commit -qm forged >/dev/null 2>&1; then echo "setup: the forged commit was not refused"; exit 2; fi
# Control: the same hunk without the marker lands under the local hook for Codex too; it must stay allowed.
PLAIN_HUNK=$(printf '%s\n' "$PATCH" | grep -v '^\*\*\* End of File$')
[ "$(codex_guard "$PLAIN_HUNK")" = allow ] || { echo "the harmless hunk (no End-of-File marker) is refused"; exit 1; }

answer=$(codex_guard "$PATCH")
echo "guard on the End-of-File patch: $answer"
[ "$answer" = deny ] && { echo "fixed: refused"; exit 0; }
codex_apply "$PATCH"
echo "--- config as Codex leaves it (tail):"; tail -5 .pre-commit-config.yaml
c=$(python3 - "$PWD" <<'PY'
import json, subprocess, sys
call = {"session_id": "s", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git commit -qam forged"}}
p = subprocess.run(["harness", "hook", "agent", "claude", "pre-tool-use"], cwd=sys.argv[1], input=json.dumps(call),
                   capture_output=True, text=True)
print("deny" if '"deny"' in p.stdout else "allow")
PY
)
echo "guard on git commit: $c (the commit-time check reads the file and holds; the edit check did not)"
if git commit -qam forged >"$T/out" 2>&1; then
  echo "DEFECT: the guard allowed a patch that put args: [--help] under harness-validate; with it, a forged-ledger"
  echo "commit made outside the agent (the user's, a script's) goes through"
  grep -m1 "harness — validate" "$T/out"; exit 1
fi
echo "the commit was refused"; exit 0
