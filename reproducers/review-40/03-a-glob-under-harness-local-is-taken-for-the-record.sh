#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Noticed by read 40. harness/agent/judge/git_pathspecs.py means to leave a glob under .harness/local/ (the
# clone's untracked state: lock, caches) alone, but its prefix is spelled `.harness/.harness/local/`
# (guarded_paths.LOCAL already starts with `.harness`), so `git checkout REV -- '.harness/local/*.txt'` is
# denied as restoring the record from another revision.
# Exit 1 while such a glob is taken for the record; 0 when it is not.
python - <<'PY'
import sys
from harness.agent.judge import guarded_paths
from harness.agent.judge.git_pathspecs import may_name_harness
w = guarded_paths.Where("/r", "/r")
if not may_name_harness(".harness/tasks/*", w):
    sys.exit(2)  # the control: a glob over the record is one
got = may_name_harness(".harness/local/*.txt", w)
print(f"'.harness/local/*.txt' names the record: {got}")
sys.exit(1 if got else 0)
PY
