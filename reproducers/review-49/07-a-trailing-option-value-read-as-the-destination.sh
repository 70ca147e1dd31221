#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
. "$(dirname "$0")/../review-48/common.inc"
# GNU cp/mv/ln/install take options after operands; destination() reads the last non-dash word, so the value of a
# trailing `-S SUFFIX` / `--suffix SUFFIX` / install's `-m MODE` is taken for the destination.
mkdir -p a/b || exit 2
allowed 'ln -s ../.harness/tasks a/b/z'; ln -s ../.harness/tasks a/b/z || exit 2
[ "$(guard 'cp app.py .git/hooks/pre-commit')" = deny ] || { echo "setup: control not refused"; exit 2; }
check deny 'cp app.py .git/hooks/pre-commit -S .b'
check deny 'cp app.py .harness/tasks/T/events.jsonl --suffix .bak'
check deny 'install app.py .harness/tasks/T/events.jsonl -m 644'
check deny "cp -P a/b/z a -S '~'"
check deny "mv a/b/z a --suffix '~'"
exit $fail
