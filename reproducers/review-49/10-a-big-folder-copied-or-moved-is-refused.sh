#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# Since 223357c a copy or move whose walk passes 20,000 entries is refused, though alone on its line, holding no link:
# `cp -r src build`, `mv src dist`, `mv node_modules node_modules.bak`, `cp -a .venv /tmp/v` in a project that size.
mkdir -p src || exit 2
python3 -c "
import os
for d in range(101):
    os.makedirs(f'src/d{d}', exist_ok=True)
    for f in range(200): open(f'src/d{d}/f{f}.py', 'w').close()
" || exit 2
check allow 'cp -r src build'
check allow 'mv src dist'
check allow 'cp -a src /tmp/elsewhere'
check allow 'rsync -a src/ dest/'
exit $fail
