#!/usr/bin/env bash
# Defect: gate/facts._judged_against now asks where the history adopted the harness (src.adoption()) for every
# task base, also one that holds .harness/config.yaml. In a history where two lines each ran `harness init` and
# were merged, first_holding refuses ("cannot tell where this history adopted the harness"), and the refusal's
# own remedy -- "start the task from a commit that holds .harness/config.yaml (check it out, then `harness task
# new`): the commands are then compared with that commit's" (F-0109's documented way out) -- no longer works: a
# task started at the merge, which holds config.yaml and is where both lines meet, is INVALID_HARNESS_STATE in
# `harness gate`, `status`, the stamp and the commit check alike, so no task of the project can ever be gated
# short of rewriting published history. At 35c53c4 such a base was judged against its own commands (the gate
# evaluated; here BLOCKED only for the task's state).
# Correct: a base that holds config.yaml and descends from every commit that adds it (here the merge of both
# adoptions) is judged against its own commands, as the hint promises; or the hint names a remedy that works.
# Exit 1 while the gate is INVALID_HARNESS_STATE for the task started at the merge, 0 when it is judged, 2 on setup
# failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q -b main && echo a > a.txt && git add a.txt && git commit -qm start || exit 2
adopt() { # two colleagues each run `harness init` and configure the same unit_test command
  harness init >/dev/null 2>&1 || exit 2
  python3 - <<'EOF' || exit 2
p = ".harness/config.yaml"; t = open(p).read()
t = t.replace("evidence: {}", "evidence:\n  unit_test:\n    command: [\"python3\", \"-c\", \"pass\"]", 1)
open(p, "w").write(t)
EOF
  git add -A && git commit -qm "$1" >/dev/null 2>&1 || { echo "setup: $1 refused" >&2; exit 2; }
}
git checkout -q -b side; adopt "adopt the harness (side)"
git checkout -q main; adopt "adopt the harness (main)"
harness install >/dev/null 2>&1 || exit 2
git merge -q --no-edit side >/dev/null 2>&1 || { echo "setup: merge failed" >&2; exit 2; }
git log --oneline --graph | sed 's/^/  /'
# the remedy the refusal names: a task started from a commit that holds config.yaml (the merge)
harness task new t >/dev/null 2>&1 || exit 2
git cat-file -e HEAD:.harness/config.yaml || exit 2
harness requirement add "it works" --priority must >/dev/null 2>&1 || exit 2
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed" >&2; exit 2; }
harness requirement set REQ-001 --status verified --evidence unit_test >/dev/null 2>&1 || exit 2
out=$(harness gate 2>&1); rc=$?
echo "harness gate (task base = the merge, which holds config.yaml): exit $rc"; echo "$out" | sed -n '1,5p' | sed 's/^/  /'
if grep -q "INVALID_HARNESS_STATE" <<<"$out" && grep -q "cannot tell where this history adopted" <<<"$out"; then
  echo "DEFECT: a task started where the refusal says to start it is INVALID_HARNESS_STATE"; exit 1
fi
echo "ok: the task's base is judged against its own commands"; exit 0
