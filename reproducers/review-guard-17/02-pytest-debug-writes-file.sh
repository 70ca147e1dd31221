#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# `pytest --debug=FILE` (or `--debug FILE`) writes pytest's debug log over FILE, truncating it. Neither the full
# judge (bypass_files.OUTPUT_OPTIONS lists pytest's --junitxml/--resultlog/--report-log only) nor the quick path
# (quick_allow.WRITING_OPTIONS) knows --debug writes: `pytest --debug=.harness/tasks/T/events.jsonl` is allowed
# and overwrites the ledger; with the session's cwd in .git/hooks (`cd .git/hooks` is allowed),
# `pytest --debug=post-commit` is answered "allow" by the quick path alone and replaces the harness's
# installed post-commit hook (the stamp) with a log. `pytest --log-file=FILE` truncates FILE the same way.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "pytest --junitxml=$L" "tee $L"
ledger_case "pytest --debug=$L"
ledger_case "python -m pytest -q --debug $L"
ledger_case "pytest -q --log-file=$L"   # the same gap: --log-file opens its file for writing
before=$(git hash-object .git/hooks/post-commit)
a=$(hk "pytest --debug=post-commit" "$R/.git/hooks"); echo "guard (cwd .git/hooks): $a : pytest --debug=post-commit"
[ "$a" = allow ] && ( cd .git/hooks && timeout 30 pytest --debug=post-commit ) >/dev/null 2>&1
after=$(git hash-object .git/hooks/post-commit)
[ "$a" = allow ] && [ "$before" != "$after" ] && { echo "post-commit hook overwritten: $(head -1 .git/hooks/post-commit)"; fail=1; }
[ $fail = 1 ] && echo "DEFECT: pytest --debug=FILE writes guarded files unjudged"
exit $fail
