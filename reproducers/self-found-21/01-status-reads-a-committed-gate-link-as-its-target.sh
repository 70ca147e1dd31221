#!/usr/bin/env bash
# Defect: harness/gitio/fast_path.py CommitFiles.read (status's and every recording's reader of HEAD's files, through
#   git processes) returns a committed symlink's blob, the link's target name, where the gate's reader (TreeSource)
#   reads a link as no file. With .harness/gate.yaml committed as a link, the gate compares the working gate.yaml
#   with init's policy and refuses a loosening; status compares it with the text "policy.yaml", which does not
#   validate, sees nothing loosened, and reports a verdict the gate does not give.
# Correct: status reads HEAD as the gate does and says INVALID_HARNESS_STATE too.
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
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null 2>&1 || return 1; done &&
  harness evidence build -- python3 -c pass >/dev/null 2>&1 &&
  git mv .harness/gate.yaml .harness/policy.yaml && ln -s policy.yaml .harness/gate.yaml &&
  git add .harness/gate.yaml && git commit -qm 'gate.yaml as a link' --no-verify &&
  [ "$(git ls-tree HEAD .harness/gate.yaml | cut -c1-6)" = 120000 ] &&
  rm .harness/gate.yaml && sed 's/major_allowed: 0/major_allowed: 5/' .harness/policy.yaml > .harness/gate.yaml &&
  ! cmp -s .harness/gate.yaml .harness/policy.yaml
}
setup || { echo "setup failed"; exit 2; }
gate=$(harness gate --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])') || exit 2
status=$(harness status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["gate_now"]["verdict"])') \
  || exit 2
echo "gate: $gate; status: $status"
[ "$gate" = INVALID_HARNESS_STATE ] || { echo "setup: the gate does not refuse the loosening"; exit 2; }
if [ "$status" != INVALID_HARNESS_STATE ]; then echo "DEFECT: status says $status where the gate refuses"; exit 1; fi
echo "OK: status says what the gate says"; exit 0
