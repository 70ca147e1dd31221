#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
[ "$(guard 'ln -s ../.harness/tasks w/tk')" = deny ] || { echo "setup: the guard does not refuse the plain ln -s"; exit 2; }
# z/y/L -> ../../w: a folder reached through a link. From z/y/L the guard reads `..` as z/y; the kernel as the repository root.
mkdir -p w/x z/y && ln -s ../.harness/tasks w/x/tk && ln -s ../../w z/y/L || exit 2
[ "$(guard 'mv w/x/tk w/')" = deny ] || { echo "setup: control not refused"; exit 2; }
fail=0
for cmd in 'mv w/x/tk z/y/L/' 'cp -P w/x/tk z/y/L/' 'cp -a w/x/tk z/y/L/tk' 'rsync -a w/x/tk z/y/L/'; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
