#!/usr/bin/env bash
# DEFECT (the same as 01, in a repository with a protected test suite): with gate.yaml's `suite:` section,
# `harness task new` records the merge base of HEAD with the protected branch (origin/HEAD, main) as the task's
# base, so 01's side line begun at the pre-adoption commit gets the pre-adoption base, and the adoption lookup
# refuses. But when HEAD shares no history with the protected branch - an orphan commit R1 holding the project's
# files and a .harness/ with the agent's own custom.smoke = `true` (the pre-commit hook accepts it: a root commit
# "adopts the harness") - harness/gitio/revisions.py protected_base falls back to HEAD itself: the base is R1,
# which holds config.yaml, so harness/gate/facts.py introduced_types compares the commands with R1's and never asks
# where the project adopted the harness. The agent then moves HEAD back onto main (`git reset --soft main`) and the
# gate PASSes with custom.smoke verifying a must requirement (beside a real unit_test case, fail_to_pass and
# pass_to_pass evidence, which the suite requires).
# CORRECT: a base that is not on the published line's history (here: no common history at all) and holds its own
# adoption of the harness is not taken at its word: custom.smoke is BLOCKED as on main (control).
# Exit 1 while the gate PASSes, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=agent@example.com GIT_COMMITTER_NAME=agent GIT_COMMITTER_EMAIL=agent@example.com
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
setup() {  # $1: folder. main: pre -> A (adopts: build = true, unit_test = pytest with a JUnit report; gate.yaml has suite:)
  local R="$1"
  git init -q --bare -b main "$R.git" && git init -q -b main "$R" && cd "$R" || return 1
  mkdir tests && printf 'def f():\n    return 1\n' > app.py \
    && printf 'from app import f\n\n\ndef test_f():\n    assert f() == 1\n' > tests/test_f.py \
    && git add -A && git commit -qm pre && harness init >/dev/null 2>&1 || return 1
  python3 - <<'EOF' || return 1
p = ".harness/config.yaml"; t = open(p).read()
assert "evidence: {}\n" in t
open(p, "w").write(t.replace("evidence: {}\n", 'evidence:\n  build:\n    command: ["true"]\n  unit_test:\n    command: ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]\n    junit: .harness/local/junit.xml\n', 1))
EOF
  rm .harness/gate.yaml && harness init >/dev/null 2>&1 && grep -q "^  suite:" .harness/gate.yaml || return 1
  ( harness install && git add -A && git commit -qm "adopt the harness" && git remote add origin "$R.git" \
    && git push -q -u origin main && git remote set-head origin main ) >/dev/null 2>&1
}
smoke() {
  python3 - <<'EOF'
p = ".harness/config.yaml"; t = open(p).read()
open(p, "w").write(t.replace("evidence:\n", 'evidence:\n  custom.smoke:\n    command: ["true"]\n', 1))
g = ".harness/gate.yaml"; t = open(g).read()
open(g, "w").write(t.replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n", 1))
EOF
}
work() {  # the change (g() and its test) and a must requirement verified by unit_test (naming the case) and custom.smoke
  printf 'def f():\n    return 1\n\n\ndef g():\n    return 2\n' > app.py \
    && printf 'from app import g\n\n\ndef test_g():\n    assert g() == 2\n' > tests/test_g.py \
    && harness requirement add R --priority must \
    && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || return 1; done \
    && for e in build unit_test custom.smoke pass_to_pass fail_to_pass; do harness evidence $e || return 1; done \
    && harness requirement set REQ-001 --status verified --evidence unit_test --evidence custom.smoke --tests tests/test_g.py::test_g \
    && harness transition REVIEWING && harness transition GATING
}
base_of() { python3 -c 'import glob, json; print(json.loads(open(glob.glob(".harness/tasks/*/events.jsonl")[0]).readline())["data"]["base_commit"][:12])'; }

echo "== control: on main (base = main's tip), custom.smoke added in the working tree"
( setup "$T/c" && smoke && harness task new T >/dev/null 2>&1 && work >/dev/null 2>&1 ) || { echo "setup failed (control)"; exit 2; }
( cd "$T/c" && harness gate >"$T/c.out" 2>&1 ); c=$?
echo "    gate exit $c: $(head -1 "$T/c.out")"; grep -m1 "custom.smoke, whose" "$T/c.out" | cut -c1-140 | sed 's/^/    /'
[ $c = 1 ] && grep -q "custom.smoke, whose" "$T/c.out" || { echo "setup: the control should be BLOCKED by custom.smoke"; grep "^- " "$T/c.out"; exit 2; }

echo "== attack: orphan commit R1 (the project's files + .harness/ with custom.smoke), task new on it, HEAD back to main"
setup "$T/a" >/dev/null 2>&1 || { echo "setup failed (attack)"; exit 2; }
cd "$T/a" || exit 2
( git checkout -q --orphan r1 && smoke && git add -A && git commit -qm "r1: adopt on an orphan line" ) >/dev/null 2>"$T/hook.err" \
  || { echo "setup: the pre-commit hook refused R1"; cat "$T/hook.err"; exit 2; }
r1=$(git rev-parse HEAD)
echo "    R1 ${r1:0:12} committed through the pre-commit hook; adoption on main: $(git rev-parse --short=12 main)"
harness task new T >/dev/null 2>&1 || exit 2
echo "    task base recorded (suite: merge base with the protected branch, else HEAD): $(base_of)"
git reset -q --soft main || exit 2
echo "    HEAD now $(git rev-parse --short=12 HEAD) (main, = origin/main)"
work >/dev/null 2>&1 || { echo "setup: work"; exit 2; }
harness gate >"$T/a.out" 2>&1; a=$?
echo "    gate exit $a: $(head -1 "$T/a.out")  $(grep -m1 'Custom: smoke' "$T/a.out" | tr -s ' ')"
if [ $a = 0 ]; then
  echo "DEFECT: custom.smoke, added after the real adoption, verifies a must requirement with no approval"
  exit 1
fi
echo "fixed"
exit 0
