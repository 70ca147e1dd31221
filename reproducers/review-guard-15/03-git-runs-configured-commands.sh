#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# git runs some configured values as shell lines: the editor (EDITOR, VISUAL, GIT_EDITOR, core.editor,
# GIT_SEQUENCE_EDITOR), core.fsmonitor (on `git status`), diff.external, and a `!` credential.helper. The guard
# judges a `!` alias's line (`git -c alias.x='!sed …' x` is denied), but none of these: they are allowed as
# `EDITOR=… git commit`, `git -c core.editor=… commit`, `git -c core.fsmonitor=… status`, and the line they
# hold edits the ledger. Not new in this change (no rule for them in harness/agent/judge).
#   EDITOR='sed -i 1d .harness/tasks/T/events.jsonl' git commit -q --allow-empty
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "sed -i 1d $L" "git -c alias.x='!sed -i 1d $L' x"
echo b > b.txt
ledger_case "EDITOR='sed -i 1d $L' git commit -q --allow-empty"
ledger_case "git -c core.editor='sed -i 1d $L' commit -q --allow-empty"
ledger_case "GIT_SEQUENCE_EDITOR='sed -i 1d $L' git rebase -i HEAD"
ledger_case "git -c core.fsmonitor='sed -i 1d $L' status"
ledger_case "git -c diff.external='sed -i 1d $L' diff --no-index a.txt b.txt"
ledger_case "printf 'protocol=https\nhost=x\n\n' | git -c credential.helper='!sed -i 1d $L' credential fill"
[ $fail = 1 ] && echo "DEFECT: shell lines git runs from the editor/fsmonitor/diff/credential settings are not judged"
exit $fail
