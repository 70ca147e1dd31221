#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
[ "$(guard 'ln -s ../.harness/tasks w/tk')" = deny ] || { echo "setup: the guard does not refuse the plain ln -s"; exit 2; }
# A link that leads nowhere where it is: w/x/tk -> ../.harness/tasks (w/.harness/tasks). Moved up into w/ it names the record.
mkdir -p w/x && ln -s ../.harness/tasks w/x/tk || exit 2
fail=0
for cmd in 'cp -P -t w w/x/tk' 'cp -P --target-directory=w w/x/tk'; do   # controls: refused today
  [ "$(guard "$cmd")" = deny ] || { echo "setup: control not refused: $cmd"; exit 2; }
done
# GNU getopt takes any unambiguous prefix of a long option: --target=, --target-dir=, --t=
for cmd in 'cp -P --target=w w/x/tk' 'cp -a --target-dir=w w/x/tk' 'mv --target=w w/x/tk' 'mv --t w w/x/tk' 'ln --target=w w/x/tk' ; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
