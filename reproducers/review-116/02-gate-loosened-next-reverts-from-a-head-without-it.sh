#!/usr/bin/env bash
# Defect: under a gate.yaml loosening no human approved, status/gate's Next: (harness/core/next_step.py out_of_invalid,
#   kind GATE_LOOSENED, added by be1b1555) always names `git checkout HEAD -- .harness/gate.yaml` as the revert. When
#   HEAD holds no gate.yaml - the harness adopted in an existing repository and not committed yet, or an unborn branch
#   - harness/gate/loosening.py refuse_unapproved compares with the defaults `harness init` writes (committed=None),
#   but the named step fails (`error: pathspec '.harness/gate.yaml' did not match any file(s) known to git`), so the
#   agent's first Next: step is refused and the gate stays INVALID_HARNESS_STATE.
# Correct: Next:'s first step clears the cause where it is run: when HEAD has no gate.yaml, a revert to the default
#   policy (e.g. `rm .harness/gate.yaml && harness init`, which restores it), not a checkout of HEAD.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
PY="$here"/.venv/bin/python
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# An existing project adopts the harness; the task starts before .harness/ is committed (init's Next: is `task new`).
( git init -q -b main && echo a > a.txt && git add -A && git commit -qm "existing project" \
  && harness init && harness task new t && harness requirement add "it works" --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build -- $PY -c pass ) >"$T/setup.log" 2>&1 || { cat "$T/setup.log"; exit 2; }
sed -i 's/major_allowed: 0/major_allowed: 5/' .harness/gate.yaml
harness gate >"$T/gate.log" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q INVALID_HARNESS_STATE "$T/gate.log" || { echo "setup: gate did not refuse the loosening"; cat "$T/gate.log"; exit 2; }
first=$(harness status --json 2>/dev/null | $PY -c 'import json,sys; print(json.load(sys.stdin)["next"][0]["command"])') \
  || exit 2
echo "Next: $first"
if ! bash -c "$first" >"$T/step.log" 2>&1; then
  echo "DEFECT: the first Next: step fails: $(cat "$T/step.log")"; exit 1
fi
harness gate >"$T/gate2.log" 2>&1
if grep -q INVALID_HARNESS_STATE "$T/gate2.log"; then
  echo "DEFECT: after the Next: step the gate still refuses the loosening"; exit 1
fi
echo "OK: the named step cleared the loosening"; exit 0
