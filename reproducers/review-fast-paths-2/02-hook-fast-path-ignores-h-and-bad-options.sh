#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# launch.py `_answer` hands a hook call to click only when the literal "--help" is in argv, and answers every
# other argument list of `hook validate|merge-guard|run pre-commit` (code-only commit) and `hook stamp|run
# post-commit` itself. But click's help option names are ["-h", "--help"] (main.py's group context_settings,
# inherited by every subcommand), and click refuses an unknown option with a usage error (exit 2). So:
#   * `harness hook validate -h` (and `hook run pre-commit -h`) prints nothing and exits 0 instead of the help;
#   * `harness hook validate --bogus` exits 0 (the commit goes through) where the full path exits 2
#     ("No such option"), e.g. with `args: [--bogus]` in a .pre-commit-config.yaml entry;
#   * `harness hook stamp -h` WRITES a git note on HEAD (refs/notes/harness changes) where the full path only
#     prints the help.
# Exit 1 while any of these differs from the click path, 0 once the fast path answers as click does.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
full() { python -c 'import sys; from harness.cli.main import main; sys.argv=["harness", *sys.argv[1:]]; sys.exit(main())' "$@"; }
echo z > z.txt && git add z.txt || exit 2   # a code-only commit being made
fail=0
for args in "hook validate -h" "hook run pre-commit -h" "hook validate --bogus" "hook merge-guard --bogus"; do
  full $args >"$T/fo" 2>"$T/fe"; fr=$?
  harness $args >"$T/po" 2>"$T/pe"; pr=$?
  same=yes; { [ "$fr" = "$pr" ] && cmp -s "$T/fo" "$T/po" && cmp -s "$T/fe" "$T/pe"; } || { same=no; fail=1; }
  echo "harness $args: full exit $fr ($(wc -c <"$T/fo")+$(wc -c <"$T/fe") bytes), fast exit $pr ($(wc -c <"$T/po")+$(wc -c <"$T/pe") bytes): same: $same"
done
# the stamp: the full path prints help and writes nothing; the fast path writes a note
for r in $(git for-each-ref --format='%(refname)' refs/notes); do git update-ref -d "$r"; done
full hook stamp -h >/dev/null 2>&1
[ -z "$(git for-each-ref refs/notes)" ] || { echo "setup: the full path wrote a note" >&2; exit 2; }
harness hook stamp -h >/dev/null 2>&1
notes=$(git for-each-ref --format='%(refname)' refs/notes)
echo "harness hook stamp -h: notes written by the fast path: ${notes:-none}"
[ -n "$notes" ] && fail=1
exit $fail
