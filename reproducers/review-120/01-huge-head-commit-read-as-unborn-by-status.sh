#!/usr/bin/env bash
# Defect: harness/gitio/fast_path.py CommitFiles.of_head asks `HEAD^{commit}` through _Batch.ask with the folder-listing
# cap (LISTING_CAP, 64 MiB) and treats an answer over that cap (content None) exactly like `HEAD^{commit} missing`:
# it returns None, "an unborn branch". A HEAD commit object over 64 MiB (a long message; git itself writes it with
# `git commit -F`) therefore makes status, every recording's `Next:` and the session context judge the working
# gate.yaml against init's defaults instead of HEAD's committed policy (loosening.refuse_unapproved_now ->
# committed_onto). The gate reads HEAD through TreeSource and still sees HEAD's policy. Result: a working gate.yaml
# that loosens HEAD's (here max_iterations 2 -> 5, no approval) makes `harness gate` answer INVALID_HARNESS_STATE
# while `harness status --json` says gate_now.verdict PASS ("nothing blocks the gate now").
# Before this change (55fb6c1a) of_head read the commit whatever its size and status agreed with the gate.
# Correct: HEAD's commit is found whatever its size (the cap is for a folder listing, not a commit; or a commit over
# it is refused with a reason), never taken for an unborn branch; status and the gate give the same verdict.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML' || exit 2
version: 1
evidence:
  build:
    command: ["true"]
  unit_test:
    command: ["true"]
YAML
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || { echo "setup failed (init)"; exit 2; }
( harness requirement add r1 --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence build \
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || { echo "setup failed (task)"; exit 2; }
verdict() { python3 -c 'import json,sys
try: d = json.load(sys.stdin)
except ValueError: print("NO-ANSWER"); sys.exit()
print(d["gate_now"]["verdict"] if "gate_now" in d else d["verdict"])'; }
# A committed policy stricter than init's defaults (a tightening: no approval needed).
grep -q 'max_iterations: 5 ' .harness/gate.yaml || { echo "setup: gate.yaml has no max_iterations: 5"; exit 2; }
sed -i 's/max_iterations: 5 /max_iterations: 2 /' .harness/gate.yaml || exit 2
( git add -A && git commit -qm "tighten the gate" ) >/dev/null 2>&1 || { echo "setup failed (commit)"; exit 2; }
[ "$(harness gate --json 2>/dev/null | verdict)" = PASS ] || { echo "setup: the task does not pass the gate"; exit 2; }
# The working gate.yaml loosened back to the default, never approved.
sed -i 's/max_iterations: 2 /max_iterations: 5 /' .harness/gate.yaml || exit 2
g0=$(harness gate --json 2>/dev/null | verdict); s0=$(harness status --json 2>/dev/null | verdict)
echo "ordinary HEAD:  gate=$g0 status=$s0"
[ "$g0" = INVALID_HARNESS_STATE ] && [ "$s0" = INVALID_HARNESS_STATE ] || { echo "setup: loosening not seen"; exit 2; }
# HEAD moved to a commit of the same tree whose message makes the commit object larger than 64 MiB.
python3 -c 'import sys; sys.stdout.write("a long message\n\n" + ("x" * 1000 + "\n") * 70000)' > "$T/msg" || exit 2
c=$(git commit-tree -p HEAD -F "$T/msg" 'HEAD^{tree}') && git update-ref HEAD "$c" || { echo "setup failed (commit-tree)"; exit 2; }
echo "HEAD commit object: $(git cat-file -s HEAD) bytes"
g=$(harness gate --json 2>/dev/null | verdict); s=$(harness status --json 2>/dev/null | verdict)
echo "huge HEAD:      gate=$g status=$s"
[ "$g" = INVALID_HARNESS_STATE ] || { echo "setup: the gate no longer sees the loosening ($g)"; exit 2; }
if [ "$s" != "$g" ]; then
  echo "DEFECT: status reads HEAD as an unborn branch (init's defaults) and says $s; the gate says $g"
  exit 1
fi
echo "OK: status and the gate agree"
exit 0
