#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
[ "$(guard 'ln -s ../.harness/tasks w/tk')" = deny ] || { echo "setup: the guard does not refuse the plain ln -s"; exit 2; }
# q -> w/sub: `q/../x/tk` is w/x/tk to the kernel (q/.. is w), x/tk to the guard's text, which then takes the copy
# into x/ for one "in its own folder".
mkdir -p w/x w/sub x && ln -s ../.harness/tasks w/x/tk && ln -s w/sub q || exit 2
[ "$(guard 'mv w/x/tk x/')" = deny ] || { echo "setup: control not refused"; exit 2; }
fail=0
for cmd in 'mv q/../x/tk x/' 'cp -P q/../x/tk x/tk' 'cp -a q/../x/tk x/'; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
