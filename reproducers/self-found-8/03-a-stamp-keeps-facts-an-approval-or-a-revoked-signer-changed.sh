#!/usr/bin/env bash
# The stamp's cache keyed a task's gate facts by the task folder, gate.yaml and config.yaml alone. The facts also
# depend on .harness/approvals.jsonl (a config-change approval vouches for a changed evidence command) and on the
# signers git config names (whose signature counts): a commit adding only an approval, or a code-only commit after
# a signer was removed from that file, got the note of the facts cached before. Runs
# tests/test_stamp_cache_keys_what_vouches.py (real commits, real SSH signatures; each note compared with a stamp
# computed without a cache). Exit 1 while a note differs, 0 once every one is what a fresh stamp says, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python -m pytest -q -p no:cacheprovider -n 0 tests/test_stamp_cache_keys_what_vouches.py
rc=$?
[ "$rc" -le 1 ] || exit 2
exit "$rc"
