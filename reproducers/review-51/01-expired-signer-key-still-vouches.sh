#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export here
# standalone reproducer: exit 1 = defect present, 0 = fixed, 2 = setup failure
python - <<'PYEOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-51"))
from prelude import *  # noqa: F403 (the shared setup)
# Defect: an approval checked against a signer key with valid-before= keeps vouching in the cache after the key expired.
import datetime, time
def body(base):
    d = setup(base); repo, tid = d["repo"], d["tid"]
    until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=3)
    kind_blob = signers_line("x", d["keys"]["human"][1]).split(None, 1)[1]
    d["sfile"].write_text(f'test@example.com valid-before="{until:%Y%m%d%H%M%S}Z" {kind_blob}')
    a = approve(d)
    if intro(cached(repo, a), tid):
        raise Setup("the approval did not count before the key expired")
    time.sleep(5)  # the signer's key has expired: its approval no longer verifies
    (repo / "app.py").write_text("x = 2\n"); c = commit_all(repo, "code only")
    got, want = cached(repo, c), fresh(repo, c)
    if not intro(want, tid):
        raise Setup("a fresh stamp still counts the expired key's approval (ssh-keygen ignores valid-before?)")
    print("cached stamp == fresh:", got == want, "| cached blocks on the changed command:", intro(got, tid), "| fresh:", intro(want, tid))
    return 0 if got == want else 1
run(body)
PYEOF
