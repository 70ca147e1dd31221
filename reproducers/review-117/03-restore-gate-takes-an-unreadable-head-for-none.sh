#!/usr/bin/env bash
# Defect: restore_gate (harness/install/initialize.py) takes any failure of CommitFiles.of_head (`git rev-parse
# --verify -q HEAD^{commit}`, which returns None on any error) for "HEAD holds none": it deletes .harness/gate.yaml
# first and then runs initialize(). Where git cannot read HEAD in the caller's environment (a variable git_env()
# keeps and the harness itself lists as pointing git elsewhere: GIT_COMMON_DIR, GIT_OBJECT_DIRECTORY; or a
# repository git refuses as of "dubious ownership", checked by hand as root), it either
#   - deletes gate.yaml and then fails in initialize() (exit 2, "git ls-files failed"), leaving no gate.yaml; or
#   - writes init's defaults over it and prints "restored .harness/gate.yaml as `harness init` writes it (HEAD
#     holds none)" although HEAD holds a stricter policy, which the gate then refuses as a loosening.
# Correct: HEAD that cannot be read is not an unborn branch: refuse (nothing touched), or read HEAD as the gate
# does; a failed restore leaves gate.yaml as it was, a successful one leaves HEAD's file.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR GIT_OBJECT_DIRECTORY
mkdir -p "$HOME" "$T/repo" "$T/empty" && cd "$T/repo" || exit 2
setup() {
  git init -q -b main && echo 'x = 1' > app.py && git add . && git commit -qm init &&
  harness init >/dev/null && grep -q 'max_iterations: 5' .harness/gate.yaml &&
  sed -i 's/max_iterations: 5/max_iterations: 4/' .harness/gate.yaml &&   # HEAD's policy: stricter than init's
  git add -A && git commit -qm 'adopt the harness, a stricter policy' --no-verify &&
  git show HEAD:.harness/gate.yaml > "$T/heads.yaml"
}
setup || { echo "setup failed"; exit 2; }
defect=0
for var in GIT_COMMON_DIR GIT_OBJECT_DIRECTORY; do
  git checkout -q HEAD -- .harness/gate.yaml || exit 2
  sed -i 's/max_iterations: 4/max_iterations: 3/' .harness/gate.yaml   # an uncommitted tightening
  cp .harness/gate.yaml "$T/before.yaml"
  out=$(env "$var=$T/empty" harness init --restore-gate 2>&1); rc=$?
  echo "$var: exit $rc: $out"
  if [ $rc -eq 0 ]; then
    if ! cmp -s .harness/gate.yaml "$T/heads.yaml"; then
      echo "  DEFECT: reported success, gate.yaml is not HEAD's: $(grep -o 'max_iterations: [0-9]*' .harness/gate.yaml)"; defect=1
    fi
  elif ! cmp -s .harness/gate.yaml "$T/before.yaml"; then
    echo "  DEFECT: refused, yet gate.yaml was changed: $(ls .harness/gate.yaml 2>&1)"; defect=1
  fi
done
exit $defect
