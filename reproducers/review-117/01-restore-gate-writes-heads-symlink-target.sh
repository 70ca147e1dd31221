#!/usr/bin/env bash
# Defect: `harness init --restore-gate` (harness/install/initialize.py restore_gate) reads HEAD's
# .harness/gate.yaml with CommitFiles.read, which returns a symlink's blob (the link's target NAME). Where HEAD
# commits gate.yaml as a symlink, it writes that name ("policy.yaml") as the policy, prints "restored
# .harness/gate.yaml as HEAD (...) holds it" and exits 0; the gate still answers INVALID_HARNESS_STATE
# (now "top level: 'policy.yaml' is not of type 'object'") and its Next: names `harness init --restore-gate`
# again: a loop. The gate itself (TreeSource.read) takes a committed symlink for no policy at all and compares
# with the defaults `harness init` writes.
# Correct: --restore-gate puts back the policy the gate compares with (here init's, as where HEAD holds none),
# or refuses, saying HEAD's gate.yaml is a symlink; following the gate's first Next: clears INVALID_HARNESS_STATE.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
setup() {
  git init -q -b main && echo 'x = 1' > app.py && git add . && git commit -qm init &&
  harness init >/dev/null && git add -A && git commit -qm 'adopt the harness' --no-verify &&
  harness task new "T" >/dev/null 2>&1 && harness requirement add "R" --priority must >/dev/null 2>&1 &&
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null || return 1; done &&
  harness evidence build -- python3 -c pass >/dev/null 2>&1 &&
  # an unlucky user commits gate.yaml as a link to the real policy (git commits the link)
  git mv .harness/gate.yaml .harness/policy.yaml && ln -s policy.yaml .harness/gate.yaml &&
  git add .harness/gate.yaml && git commit -qm 'gate.yaml as a link' --no-verify &&
  [ "$(git ls-tree HEAD .harness/gate.yaml | cut -c1-6)" = 120000 ]
}
setup || { echo "setup failed"; exit 2; }
verdict() { harness gate --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verdict"]); print((d.get("next") or [{}])[0].get("command",""))'; }
before=$(verdict)
echo "before: $before"
[ "$(echo "$before" | head -1)" = INVALID_HARNESS_STATE ] || { echo "setup: gate not INVALID"; exit 2; }
[ "$(echo "$before" | tail -1)" = "harness init --restore-gate" ] || { echo "Next: no longer names --restore-gate"; exit 0; }
out=$(harness init --restore-gate 2>&1); rc=$?
echo "restore-gate (exit $rc): $out"
echo "gate.yaml now: $(head -c 80 .harness/gate.yaml 2>/dev/null)"
after=$(verdict)
echo "after: $after"
if [ "$(echo "$after" | head -1)" = INVALID_HARNESS_STATE ]; then
  if [ $rc -eq 0 ]; then echo "DEFECT: --restore-gate reported success, the gate still refuses gate.yaml"; exit 1; fi
  echo "DEFECT: the gate's first Next: (--restore-gate) does not clear the state"; exit 1
fi
exit 0
