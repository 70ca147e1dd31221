#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# `cd DIR && apply_patch <<'EOF'`: patch_commands._CANONICAL takes DIR's word literally; its character class lets
# through glob and tilde characters (`[ ] ? * ~`), which bash expands. `cd .harnes[s]` is the worst: tree-sitter
# parses `.harnes[s]` as a concatenation, so Codex does NOT intercept the line; its shell runs it, bash globs the
# word to `.harness`, and Codex's apply_patch program writes tasks/T/events.jsonl there. The guard judged the
# literal folder `.harnes[s]/tasks/…` and allowed it. `?`, `*` and `~/..` are the same for any host whose shell
# runs the line (Claude's and Gemini's Bash; Codex when it does not intercept). Stand-in program on PATH.
source "$D"/common.inc
source "$D"/work/stub.inc
P=$'*** Begin Patch\n*** Add File: tasks/'"$TID"$'/events.jsonl\n+forged\n*** End Patch'
H="<<'EOF'"$'\n'"$P"$'\nEOF'
Q=$'*** Begin Patch\n*** Add File: '"$L"$'\n+forged\n*** End Patch'
control "cd .harness && apply_patch $H"
ledger_case "cd .harnes[s] && apply_patch $H"
ledger_case "cd .harnes? && apply_patch $H"
ledger_case "cd .h*ss && apply_patch $H"
ledger_case "cd ~/../repo && apply_patch <<'EOF'"$'\n'"$Q"$'\nEOF'   # HOME is $T/home; the repository is $T/repo
exit $fail
