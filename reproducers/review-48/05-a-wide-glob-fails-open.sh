#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
[ "$(guard 'ln -s ../.harness/tasks w/tk')" = deny ] || { echo "setup: the guard does not refuse the plain ln -s"; exit 2; }
# 70 plain files beside the link: the glob matches more than MAX_MATCHES (64), Links.moved answers None
# ("not known"), and the caller reads None as "no links".
# w/m/tk -> ../.harness/tasks leads to w/.harness/tasks where it is; moved up into w/ it names the record.
mkdir -p w/m && ln -s ../.harness/tasks w/m/tk && for i in $(seq 1 70); do : > "w/m/f$i"; done || exit 2
[ "$(guard 'mv w/m/tk w/')" = deny ] || { echo "setup: control not refused"; exit 2; }
[ "$(guard 'mv w/m/t* w/')" = deny ] || { echo "setup: control not refused (narrow glob)"; exit 2; }
fail=0
for cmd in 'mv w/m/* w/' 'cp -P w/m/* w/' 'cp -d w/m/?* w/'; do
  a=$(guard "$cmd"); echo "$a: $cmd"; [ "$a" = deny ] || fail=1
done
exit $fail
