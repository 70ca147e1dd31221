#!/usr/bin/env bash
# DEFECT: harness/gitio/adoption.py first_holding finds the adoption with the pathspec
# `:(top,literal).harness/config.yaml`, run through harness/gitio/environment.py git_env, which keeps the caller's
# GIT_LITERAL_PATHSPECS. With GIT_LITERAL_PATHSPECS=1 git parses no pathspec magic at all: the whole string
# ":(top,literal).harness/config.yaml" becomes a literal file name that no commit has, `git rev-list` exits 0 with
# no commit, and first_holding answers None - "no commit of this history holds config.yaml: this change adopts the
# harness", so every command configured in the working tree counts as adopted. (The hook shim already knows this
# variable: harness/gitio/fast_path.py HARNESS_STAGED spells `.harness` twice for it, #28's task F-0035.)
#
# Attack: the agent's task is based on the pre-adoption commit (`git reset --soft` around `harness task new`,
# F-0098's trick), HEAD is back on main (whose history and origin/main hold the real adoption), config.yaml gains
# custom.smoke = `true`, a must requirement cites it, and the agent runs `GIT_LITERAL_PATHSPECS=1 harness gate`
# (the agent guard allows the assignment): PASS, then --advance and DONE. No commit, ref or .git file is touched.
# CORRECT: the harness's git ignores the caller's pathspec globals (or the lookup uses a spelling that survives
# them and fails closed): the adoption stays main's and custom.smoke is BLOCKED. Control: without the variable the
# same working tree is BLOCKED.
# Exit 1 while the gate PASSes under the variable, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=agent@example.com GIT_COMMITTER_NAME=agent GIT_COMMITTER_EMAIL=agent@example.com
unset GIT_LITERAL_PATHSPECS GIT_GLOB_PATHSPECS GIT_NOGLOB_PATHSPECS GIT_ICASE_PATHSPECS
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
R="$T/repo"
git init -q --bare -b main "$R.git" && git init -q -b main "$R" && cd "$R" || exit 2
( echo 'x = 1' > app.py && git add -A && git commit -qm pre && harness init ) >/dev/null 2>&1 || exit 2
python3 - <<'EOF' || exit 2
p = ".harness/config.yaml"; t = open(p).read()
assert "evidence: {}\n" in t
open(p, "w").write(t.replace("evidence: {}\n", 'evidence:\n  build:\n    command: ["true"]\n  unit_test:\n    command: ["true"]\n', 1))
EOF
( rm .harness/gate.yaml && harness init && harness install && git add -A && git commit -qm "adopt the harness" \
  && git remote add origin "$R.git" && git push -q -u origin main && git fetch -q origin ) >/dev/null 2>&1 || exit 2
pre=$(git rev-parse HEAD~1); A=$(git rev-parse HEAD)
( git reset -q --soft "$pre" && harness task new T && git reset -q --soft "$A" \
  && python3 -c '
p = ".harness/config.yaml"; t = open(p).read(); open(p, "w").write(t.replace("evidence:\n", "evidence:\n  custom.smoke:\n    command: [\"true\"]\n", 1))
g = ".harness/gate.yaml"; t = open(g).read(); open(g, "w").write(t.replace("    unit_test: required\n", "    unit_test: required\n    custom.smoke: required\n", 1))' \
  && harness requirement add R --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && for e in build unit_test custom.smoke; do harness evidence $e || exit 1; done \
  && harness requirement set REQ-001 --status verified --evidence custom.smoke \
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || { echo "setup: task"; exit 2; }
lookup() {
  python3 - <<'EOF'
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
    print(getattr(found, "commit", "a commit")[:12] if found else "None (this change adopts the harness)")
except HarnessError as exc:
    print("refused:", exc.message[:90])
EOF
}
echo "real adoption ${A:0:12} (main = origin/main = HEAD); task base = pre ${pre:0:12}; working tree adds custom.smoke"
echo "control:                    FsSource.adoption() -> $(lookup)"
harness gate >"$T/c.out" 2>&1; c=$?
echo "control:                    harness gate exit $c: $(head -1 "$T/c.out")"
grep -m1 "custom.smoke, whose" "$T/c.out" | cut -c1-150 | sed 's/^/                            /'
[ $c = 1 ] || { echo "setup: the control should be BLOCKED"; exit 2; }
echo "GIT_LITERAL_PATHSPECS=1:    FsSource.adoption() -> $(GIT_LITERAL_PATHSPECS=1 lookup)"
GIT_LITERAL_PATHSPECS=1 harness gate >"$T/a.out" 2>&1; a=$?
echo "GIT_LITERAL_PATHSPECS=1:    harness gate exit $a: $(head -1 "$T/a.out") / $(grep -m1 'Custom: smoke' "$T/a.out")"
if [ $a = 0 ]; then
  GIT_LITERAL_PATHSPECS=1 harness gate --advance >/dev/null 2>&1; adv=$?
  GIT_LITERAL_PATHSPECS=1 harness transition DONE >/dev/null 2>&1; dn=$?
  echo "GIT_LITERAL_PATHSPECS=1:    harness gate --advance exit $adv; harness transition DONE exit $dn"
  echo "DEFECT: a command added after the adoption verifies a must requirement with no approval (the lookup found no adoption)"
  exit 1
fi
echo "fixed: the variable does not hide the adoption"
exit 0
