#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# The code-only commit fast path (native shim and launch.py's staged_nothing_to_judge) passes a commit the
# full `hook validate` refuses: HEAD's .harness is a symlink (committed with --no-verify), the commit stages
# only code. validate_change refuses any non-folder .harness in the new tree (plain-files-only) before its
# "untouched" shortcut; the fast path only asks `git diff --cached -- .harness`, which is empty.
# Exit 1 while the fast answers differ from the full one, 0 once they agree.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
full_validate() { python -c 'import sys; from harness.cli.main import main; sys.argv=["harness", *sys.argv[1:]]; sys.exit(main())' hook validate; }
mv .harness ../h && ln -s ../h .harness && git rm -rq --cached .harness && git add .harness \
  && git commit -q --no-verify -m symlink >/dev/null 2>&1 || exit 2
echo z > z.txt; git add z.txt
full_validate >/dev/null 2>&1; full=$?
harness hook validate >/dev/null 2>&1; fast=$?
.git/hooks/pre-commit >/dev/null 2>&1; shim=$?
echo "full hook validate: $full; launch fast path: $fast; native shim: $shim"
[ "$full" = "$fast" ] && [ "$full" = "$shim" ] && exit 0 || exit 1
