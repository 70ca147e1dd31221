#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# Since 223357c a move or link-keeping copy through a glob of more than 4,096 names is refused, though alone on its
# line and naming no link: `mv out/*.png logs/` in a folder of 5,000 images (allowed at a6a35ec).
mkdir -p out logs && (cd out && seq 5000 | sed 's/$/.png/' | xargs touch) || exit 2
[ "$(guard 'cp out/*.png logs/')" = allow ] || { echo "setup: control refused"; exit 2; }
check allow 'mv out/*.png logs/'
check allow 'cp -a out/*.png logs/'
exit $fail
