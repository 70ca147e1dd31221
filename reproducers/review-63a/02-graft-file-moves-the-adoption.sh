#!/usr/bin/env bash
# DEFECT: the adoption lookup (harness/gitio/adoption.py first_holding, run through harness/gitio/environment.py
# git_env) reads history through git's graft file. git_env turns off replace refs and the commit-graph (read 56a's
# F-0120: "every git the harness starts reads what is stored") but not grafts: git 2.39 still applies
# `.git/info/grafts`, and the file named by the GIT_GRAFT_FILE environment variable, even with
# GIT_NO_REPLACE_OBJECTS=1 and core.commitGraph=false. git_env passes GIT_GRAFT_FILE through, and the agent guard
# allows `GIT_GRAFT_FILE=/tmp/g harness gate` (it denies only a shell write to .git/info/grafts).
#
# Attack (F-0120's, with a graft file in place of a forged commit-graph): the agent commits S, a line from before
# the adoption that adds .harness/ with its own custom.smoke = `true` (the pre-commit hook accepts it as an
# adoption), starts its task on the pre-adoption commit (`git reset --soft`, F-0098's trick), returns HEAD to main
# and grafts "A S" (the real adoption A gets S as its parent). first_holding then names S, A "descends" from it,
# and S's commands count as adopted: custom.smoke verifies a must requirement, the gate PASSes.
#
# CORRECT: the harness's git reads parents as stored (drop GIT_GRAFT_FILE and disable grafts, or refuse to judge
# through one as harness/history/stored_parents.py does for the push guard): the adoption stays A and custom.smoke
# is BLOCKED. Control: the same working tree without the graft is BLOCKED.
# Exit 1 while a grafted gate PASSes (or the lookup names S), 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=agent@example.com GIT_COMMITTER_NAME=agent GIT_COMMITTER_EMAIL=agent@example.com
unset GIT_GRAFT_FILE
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
R="$T/repo"
git init -q --bare -b main "$R.git" && git init -q -b main "$R" && cd "$R" || exit 2
( echo 'x = 1' > app.py && git add -A && git commit -qm pre && harness init >/dev/null 2>&1 ) || exit 2
python3 - <<'EOF' || exit 2
p = ".harness/config.yaml"; t = open(p).read()
assert "evidence: {}\n" in t
open(p, "w").write(t.replace("evidence: {}\n", 'evidence:\n  build:\n    command: ["true"]\n  unit_test:\n    command: ["true"]\n', 1))
EOF
( rm .harness/gate.yaml && harness init && harness install && git add -A && git commit -qm "adopt the harness" \
  && git remote add origin "$R.git" && git push -q -u origin main && git fetch -q origin ) >/dev/null 2>&1 || exit 2
pre=$(git rev-parse HEAD~1); A=$(git rev-parse HEAD)
add_smoke() {
  python3 - <<'EOF'
p = ".harness/config.yaml"; t = open(p).read()
open(p, "w").write(t.replace("evidence:\n", 'evidence:\n  custom.smoke:\n    command: ["true"]\n', 1))
g = ".harness/gate.yaml"; t = open(g).read()
open(g, "w").write(t.replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n", 1))
EOF
}
# S: the agent's line from before the adoption, adopting with custom.smoke (through the pre-commit hook)
( git checkout -q -b side "$pre" && git checkout -q main -- .harness && add_smoke && git add -A \
  && git commit -qm "side: adopt with a smoke command" ) >/dev/null 2>"$T/hook.err" || { cat "$T/hook.err"; exit 2; }
S=$(git rev-parse HEAD)
git checkout -q -f main || exit 2
# the task's base: the pre-adoption commit; HEAD back on main; the working tree adds custom.smoke
( git reset -q --soft "$pre" && harness task new T && git reset -q --soft "$A" && add_smoke \
  && harness requirement add R --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && for e in build unit_test custom.smoke; do harness evidence $e || exit 1; done \
  && harness requirement set REQ-001 --status verified --evidence custom.smoke \
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || { echo "setup: task"; exit 2; }
echo "adoption A=${A:0:12} (main, published); agent's side adoption S=${S:0:12}; task base = pre ${pre:0:12}"
lookup() {
  python3 - <<'EOF'
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
    print(getattr(found, "commit", None)[:12])
except HarnessError as exc:
    print("refused:", exc.message[:90])
EOF
}
gate() { harness gate >"$T/gate.out" 2>&1; local rc=$?; echo "gate exit $rc: $(head -1 "$T/gate.out")"; return $rc; }

echo "control (no graft): adoption lookup -> $(lookup)"
echo -n "control (no graft): "; gate; c=$?
[ $c = 1 ] || { echo "setup: the control should be BLOCKED"; grep -m2 custom.smoke "$T/gate.out"; exit 2; }

echo "$A $S" > "$T/grafts"   # a file outside the repository: no guarded path is written
echo "GIT_GRAFT_FILE=$T/grafts (\"A S\"): adoption lookup -> $(GIT_GRAFT_FILE="$T/grafts" lookup 2>/dev/null)"
echo -n "GIT_GRAFT_FILE=... harness gate: "; GIT_GRAFT_FILE="$T/grafts" gate 2>/dev/null; a1=$?
grep -m1 "Custom: smoke" "$T/gate.out"

cp "$T/grafts" .git/info/grafts   # the same graft in the repository's own graft file (written by hand here)
echo "with .git/info/grafts: adoption lookup -> $(lookup 2>/dev/null)"
echo -n "with .git/info/grafts: "; gate; a2=$?
rm -f .git/info/grafts

if [ $a1 = 0 ] || [ $a2 = 0 ]; then
  echo "DEFECT: through a graft the agent's own side adoption S is read as the adoption; its custom.smoke counts (gate PASS)"
  exit 1
fi
echo "fixed: grafts do not move the adoption"
exit 0
