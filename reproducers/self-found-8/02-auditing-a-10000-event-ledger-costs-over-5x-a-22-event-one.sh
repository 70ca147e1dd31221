#!/usr/bin/env bash
# #28 item 4: `harness audit` over a range adding 10 events costs at most 5x on a 10,000-event ledger what
# it costs on a 22-event one. Since 03ccd4a the audit trusts no machine-local list of valid digests, so it
# validates the long ledger once per run, and walking the event schema for every valid event made that
# validation most of the audit: `bash bench/run --only hot` measured 5.74x / 5.37x. Runs the benchmark's
# history section (audit and metrics, interleaved, both bytecode settings, medians of 3); exit 1 when a
# ratio is over its target, 0 when every one is met, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
cd "$here/bench" || exit 2
env -u PYTHONDONTWRITEBYTECODE python hot_history.py "$work/history" > "$work/out.txt" 2>&1
rc=$?
grep -E "^history (audit|metrics)" "$work/out.txt" || { tail -20 "$work/out.txt"; exit 2; }
[ "$rc" -le 1 ] || exit 2
exit "$rc"
