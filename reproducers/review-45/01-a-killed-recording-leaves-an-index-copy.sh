#!/usr/bin/env bash
# The recording kept a copy of its throw-away index in .git/ from the measurement before the run to the one
# after it; a run killed in between (its command kills the recorder, a CI timeout, the OOM killer) left the
# copy there for good. Exit 1 while a harness-index.* file is left, 0 when none is, 2 on setup failure.
. "$(dirname "$0")/common.inc"
harness evidence custom -- sh -c 'kill -9 $PPID' >/dev/null 2>&1
left=$(ls .git | grep harness-index)
echo "left in .git: ${left:-none}"
[ -z "$left" ]
