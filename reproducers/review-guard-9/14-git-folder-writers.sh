#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Files of .git the guard does not know, and writers that reach the guarded ones unseen:
# - `.git/commondir` (in the main git folder too, git reads it: hooks, config and refs then come from the folder it
#   names): `echo OTHER/.git > .git/commondir` is ALLOWED and git runs OTHER's hooks (none) from then on;
# - folder contents copied into .git/info (`cp -r d/. .git/info/`, `cp -rT d .git/info`): the written names
#   are taken as `.git/info/.` and `.git/info/d`, so `.git/info/grafts` (guarded since F-0048) is ALLOWED;
# - `tar -x` into .git/hooks of an archive made on the same line (not listable when judged): ALLOWED, replaces the
#   pre-commit hook (extraction is judged only into .harness/ or a folder holding it).
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
control "echo x > .git/info/grafts" "echo x > .git/hooks/pre-commit" "cp d/grafts .git/info/"
O="$T/other"; git init -q "$O" || exit 2
harness requirement add "second" --priority must >/dev/null 2>&1; git add -A; git commit -qm two >/dev/null 2>&1 || exit 2
mkdir d && echo "$(git rev-parse HEAD)" > d/grafts && echo 'exit 0' > pre-commit && chmod +x pre-commit || exit 2
c="echo $O/.git > .git/commondir"; a=$(hk "$c"); ( eval "$c" )
w=$(git rev-parse --git-path hooks); rm -f .git/commondir
echo "guard: $a  hooks folder now: $w : $c"; [ "$a" = allow ] && [ "$w" = "$O/.git/hooks" ] && fail=1
for c in "cp -r d/. .git/info/" "cp -rT d .git/info"; do
  a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1; p=$(git rev-parse 'HEAD^@' 2>/dev/null | wc -l); rm -f .git/info/grafts
  echo "guard: $a  HEAD's parents seen: $p (1 without grafts) : $c"; [ "$a" = allow ] && [ "$p" = 0 ] && fail=1
done
before=$(git hash-object .git/hooks/pre-commit)
c="tar -cf h.tar pre-commit && tar -xf h.tar -C .git/hooks"; a=$(hk "$c"); ( eval "$c" ) >/dev/null 2>&1
w=$([ "$(git hash-object .git/hooks/pre-commit)" != "$before" ] && echo yes || echo no)
echo "guard: $a  pre-commit hook replaced: $w : $c"; [ "$a" = allow ] && [ "$w" = yes ] && fail=1
[ $fail = 1 ] && echo "DEFECT: git's machinery is rewritten by a write the guard does not see; it allows it"
exit $fail
