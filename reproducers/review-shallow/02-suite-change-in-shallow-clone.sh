#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# `harness approve suite-change` is exempt from the shallow-clone refusal (harness/approvals/approve.py
# pending_approval: `kind != "suite-change"`), and both it and its check (harness/evidence/pass_to_pass.py
# approved_cases) take the repository id from `git rev-list --max-parents=0 BASE` with no shallow check. In a
# shallow clone that is the clone's boundary, not the repository's first root commit. docs/approvals.md says
# a shallow clone "cannot name the repository: `harness approve gate-change` (and every kind) refuses there".
# So a human's suite-change approval made in a `--depth` clone is signed for a repository id that exists only
# in that clone: it counts there, and is refused once the clone is deepened (CI's audit deepens first) or on
# the server; and an approval made in a full clone does not count in the shallow one.
# Exit 1 while the defect exists (the approval is signed, naming the boundary), 0 when fixed, 2 on setup failure.
source "$D"/common.inc
ssh-keygen -q -t ed25519 -N "" -C h -f "$T/key" || exit 2
echo "a@b $(cut -d' ' -f1,2 "$T/key.pub")" > .harness/allowed_signers
git add -A && git commit -qm approvers --no-verify && git commit -qm more --allow-empty --no-verify || exit 2
ROOT=$(git rev-list --max-parents=0 HEAD)
git clone -q --depth 1 "file://$R" "$T/shallow" || exit 2
cd "$T/shallow" || exit 2; git config user.signingKey "$T/key"
[ "$(git rev-parse --is-shallow-repository)" = true ] || exit 2
BOUNDARY=$(git rev-parse HEAD)
harness task new t2 >/dev/null 2>&1 || exit 2
TID2=$(ls -t .harness/tasks | head -1)
BASE=$(python - "$TID2" <<'PY'
import json, sys, pathlib
for line in pathlib.Path(f".harness/tasks/{sys.argv[1]}/events.jsonl").read_text().splitlines():
    e = json.loads(line); b = json.dumps(e)
    if "base_commit" in b:
        import re; m = re.search(r'"base_commit": "([0-9a-f]{40})"', b)
        if m: print(m.group(1)); break
PY
)
[ -n "$BASE" ] || { echo "setup: no base commit recorded" >&2; exit 2; }
out=$(python "$D"/pty_approve.py suite-change tests/test_x.py::test_a --task "$TID2" 2>&1); rc=$?
echo "approve suite-change in a shallow clone: exit $rc"
if [ $rc != 0 ]; then
  grep -q "shallow" <<<"$out" && { echo "refused as a shallow clone: fixed"; exit 0; }
  echo "$out" | tail -8; exit 2
fi
digest=$(tail -1 .harness/approvals.jsonl | python -c 'import json,sys; print(json.load(sys.stdin)["digest"])')
as=$(python - "$digest" "$BASE" "$ROOT" "$BOUNDARY" <<'PY'
import hashlib, json, sys
d, base, root, boundary = sys.argv[1:]
subj = lambda r: json.dumps({"repository": r, "base": base, "cases": ["tests/test_x.py::test_a"]},
                            sort_keys=True, separators=(",", ":")).encode()
print("root" if hashlib.sha256(subj(root)).hexdigest() == d else
      "boundary" if hashlib.sha256(subj(boundary)).hexdigest() == d else "neither")
PY
)
echo "the signed digest binds the repository as: $as (first root ${ROOT:0:12}, boundary ${BOUNDARY:0:12})"
[ "$as" = boundary ] && exit 1
[ "$as" = root ] && exit 0
exit 2
