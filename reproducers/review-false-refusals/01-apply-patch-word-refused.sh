#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# An honest agent that only MENTIONS the word apply_patch/applypatch is refused as if it ran Codex's
# apply_patch program with an unreadable patch ("this line runs Codex's `apply_patch` with a patch the guard
# cannot read"). patch_commands._RUN counts any quote character, `(`, and every line start (also inside a
# here-document's body or a commit message) as a command position, and `(?:\S*/)?` lets `'s/` stand for a
# program's folder. So searching the code for the word, a sed rename of it, a commit message or a note whose
# line starts with it, or a Python one-liner calling a function of that name are all denied. hosts'
# _shell_action applies this to every host's shell tool (Claude Code's Bash too), not only Codex's.
# Exit 1 while any of these (none of which runs apply_patch) is denied; 0 when all are allowed.
source "$D"/common.inc
control 'rm -rf .harness'
mkdir -p src; printf 'def apply_patch(p):\n    return p\n' > src/tool.py
for c in 'grep -rn "apply_patch" .' "rg 'applypatch' src" "sed -i 's/apply_patch/apply_diff/g' src/tool.py" \
         "git log --oneline --grep='apply_patch'" 'git commit -qm "apply_patch: support heredoc"' \
         $'cat > NOTES.md <<EOF\napply_patch is the patch tool of Codex\nEOF' \
         "python -c 'import sys; sys.path.insert(0, \"src\"); from tool import apply_patch; print(apply_patch(1))'"; do
  a=$(hk "$c"); echo "$a : $c"; [ "$a" = deny ] && fail=1
done
exit $fail
