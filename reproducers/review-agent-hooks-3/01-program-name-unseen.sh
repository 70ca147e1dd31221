#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# Codex's `apply_patch` program run under a spelling the guard does not recognise as it. The guard looks for the
# literal substring `apply_patch` and, with _RUN, for it at a command's start after ; & | ( newline ` " ' $( .
# The shell still runs the program for `ap''ply_patch`, `a\pply_patch`, `{ apply_patch; }` and `if apply_patch`.
# The line then falls through to "a patch's headers anywhere in the line", joined with the workdir only.
# That path ignores `cd .harness &&`, so `*** Add File: tasks/T/events.jsonl` is judged as ./tasks/…, allowed.
# Codex does not intercept these (tree-sitter: command_name is a concatenation/compound), so its shell runs
# the apply_patch program on its PATH, and the ledger is overwritten. A stand-in program is used here.
source "$D"/common.inc
source "$D"/work/stub.inc
P=$'*** Begin Patch\n*** Add File: tasks/'"$TID"$'/events.jsonl\n+forged\n*** End Patch'
H="<<'EOF'"$'\n'"$P"$'\nEOF'
control "cd .harness && apply_patch $H" "cd .harness && applypatch $H"
ledger_case "cd .harness && ap''ply_patch $H"
ledger_case "cd .harness && a\\pply_patch $H"
ledger_case "cd .harness && { apply_patch; } $H"
ledger_case "cd .harness && if apply_patch $H"$'\nthen :; fi'
ledger_case "cd .harness && \"apply\"_patch $H"
exit $fail
