#!/usr/bin/env bash
# DEFECT: a stamp (the git note `harness stamp REV`, the post-* hooks and `harness audit` write) judges each task of
# commit REV from REV's own tree, but harness/history/stamp.py stamp_for builds that tree's reader as
# `TreeSource(git, tree, label)` without `rev=commit`. TreeSource.adoption (harness/gitio/tree_source.py) then asks
# first_holding(root, self.rev or "HEAD"): the adoption of whatever HEAD is checked out, not of the stamped commit.
# So the note for one commit says PASS or BLOCKED depending on which branch the person (or CI job) stamping it
# happens to stand on.
#   (a) A good commit - main's adoption, whose adopting task is DONE - stamped while HEAD is on a teammate's trial
#       branch that ran `harness init` with other commands: the note says BLOCKED (the trial's commands are taken
#       for main's adoption). With HEAD on main the same commit is stamped PASS.
#   (b) A bad commit B (committed without the hooks, as CI must judge it: custom.smoke added after the adoption,
#       its task based before the adoption) stamped while HEAD is an unborn orphan branch: first_holding(HEAD) is
#       None, "this change adopts", and B's note says PASS; with HEAD on B it says BLOCKED.
# CORRECT: the stamp of REV reads REV's history (TreeSource(..., rev=commit)), whatever HEAD is.
# Exit 1 while a stamp's verdict depends on HEAD, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.com
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
R="$T/repo"; git init -q -b main "$R" && cd "$R" || exit 2
commands() {  # $1 $2: the build and unit_test commands written into a fresh config.yaml (gate.yaml from them)
  python3 - "$1" "$2" <<'EOF'
import sys
p = ".harness/config.yaml"; t = open(p).read()
assert "evidence: {}\n" in t
open(p, "w").write(t.replace("evidence: {}\n", f'evidence:\n  build:\n    command: ["{sys.argv[1]}"]\n'
                                                 f'  unit_test:\n    command: ["{sys.argv[2]}"]\n', 1))
EOF
  rm .harness/gate.yaml && harness init >/dev/null 2>&1
}
to_done() {  # a must requirement verified by $1, through the gate to DONE
  harness requirement add R --priority must && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || return 1; done \
    && for e in build unit_test $1; do harness evidence $e || return 1; done \
    && harness requirement set REQ-001 --status verified --evidence "$1" && harness transition REVIEWING && harness transition GATING \
    && harness gate --advance && harness transition DONE
}
verdict() {  # the gate the note of $1 records for its task(s)
  harness stamp "$1" --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(",".join(str(v.get("gate")) for v in d["tasks"].values()))'
}
# main: pre -> A, which adopts the harness (build, unit_test = true) with its adopting task DONE (base: pre)
( echo 'x = 1' > app.py && git add -A && git commit -qm pre && harness init && commands true true && harness install \
  && harness task new adopt && to_done unit_test && git add -A && git commit -qm "adopt the harness (task DONE)" ) >/dev/null 2>&1 || exit 2
A=$(git rev-parse HEAD); pre=$(git rev-parse HEAD~1)
# a teammate's trial of `harness init` on a line from pre, with other commands
( git checkout -q -b try "$pre" && harness init && commands make pytest && git add -A && git commit -qm "trying the harness" \
  && git checkout -q -f main ) >/dev/null 2>&1 || exit 2

echo "(a) commit A (main's adoption, its adopting task DONE)"
a_main=$(verdict "$A"); echo "    stamped with HEAD on main:          $a_main"
git checkout -q -f try || exit 2
a_try=$(verdict "$A");  echo "    stamped with HEAD on branch 'try':   $a_try"
git checkout -q -f main || exit 2
[ "$a_main" = PASS ] || { echo "setup: A should stamp PASS on main"; exit 2; }

# (b) B on main: custom.smoke added after the adoption, its task based on pre; committed without the hooks
( git reset -q --soft "$pre" && harness task new smoke && git reset -q --soft "$A" \
  && python3 -c '
p = ".harness/config.yaml"; t = open(p).read(); open(p, "w").write(t.replace("evidence:\n", "evidence:\n  custom.smoke:\n    command: [\"true\"]\n", 1))
g = ".harness/gate.yaml"; t = open(g).read(); open(g, "w").write(t.replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n", 1))' \
  && harness requirement add R --priority must && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && for e in build unit_test custom.smoke; do harness evidence $e || exit 1; done \
  && harness requirement set REQ-001 --status verified --evidence custom.smoke && harness transition REVIEWING \
  && harness transition GATING ) >/dev/null 2>&1 || { echo "setup: task smoke"; exit 2; }
# (the task stays in GATING: the note still records the gate verdict of every open task; --no-verify stands for
# a commit made where no hook is installed, the kind CI's audit exists to judge)
git add -A && git commit -q --no-verify -m "B: custom.smoke, task based before the adoption" 2>/dev/null || exit 2
B=$(git rev-parse HEAD)
echo "(b) commit B (custom.smoke added after the adoption; its task's base is pre)"
b_head=$(verdict "$B"); echo "    stamped with HEAD on B:             $b_head"
git checkout -q --orphan scratch || exit 2
b_orphan=$(verdict "$B"); echo "    stamped with HEAD an unborn orphan:  $b_orphan"
git checkout -q -f main || exit 2
[ -n "$b_head" ] || { echo "setup: no verdict for B"; exit 2; }

if [ "$a_try" != "$a_main" ] || [ "$b_orphan" != "$b_head" ]; then
  echo "DEFECT: the same commit is stamped with different gate verdicts depending on where HEAD is"
  exit 1
fi
echo "fixed: each commit's stamp reads its own history"
exit 0
