#!/usr/bin/env bash
# DEFECT (legitimate workflow misjudged): harness/gitio/adoption.py published_line takes every remote's
# HEAD/main/master as "the published line HEAD stands for", whatever project that remote holds. A repository that
# keeps a remote of ANOTHER project - a vendored library fetched for `git subtree`, an organisation template, a
# sibling service - whose history adopted the harness with its own commands, then reads that project's adoption as
# its own: first_holding() over HEAD + origin/main + vendor/main names vendor's adopting commit (its history is the
# only one holding config.yaml).
# Scenario: the team adopts the harness (the adopting task: base = main's tip, no config.yaml; unit_test = `true`)
# while `vendor/main` (an unrelated history whose own adoption configured unit_test = `make`) is fetched. The
# adopting change should configure every command itself (gate PASS, as it does once the vendor remote is removed);
# instead every cited command is compared with the vendor's config.yaml and the gate is BLOCKED ("not the one
# config.yaml configured at the task's base ... until a human approves"), with no hint that another project's
# remote is the cause.
# CORRECT: a remote-tracking ref whose history shares nothing with HEAD's (no merge base) is not HEAD's published
# line; the adopting task PASSes with or without the vendor remote.
# Exit 1 while the adopting task is BLOCKED only because of the other project's remote, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.com
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
commands() {  # $1: the unit_test command written into a fresh config.yaml (build = true), gate.yaml from them
  python3 - "$1" <<'EOF'
import sys
p = ".harness/config.yaml"; t = open(p).read()
assert "evidence: {}\n" in t
open(p, "w").write(t.replace("evidence: {}\n", f'evidence:\n  build:\n    command: ["true"]\n  unit_test:\n    command: ["{sys.argv[1]}"]\n', 1))
EOF
  rm .harness/gate.yaml && harness init >/dev/null 2>&1
}
# another project, with the harness adopted in its own history
( git init -q -b main "$T/vendor" && cd "$T/vendor" && echo 'lib' > lib.txt && git add -A && git commit -qm lib \
  && harness init && commands make && git add -A && git commit -qm "vendor adopts the harness" ) >/dev/null 2>&1 || exit 2
# this project: published on origin, the vendor project fetched as a second remote
git init -q --bare -b main "$T/app.git" && git init -q -b main "$T/app" && cd "$T/app" || exit 2
( echo 'x = 1' > app.py && git add -A && git commit -qm "app" && git remote add origin "$T/app.git" \
  && git push -q -u origin main && git remote add vendor "$T/vendor" && git fetch -q vendor ) >/dev/null 2>&1 || exit 2
# the adopting change: harness init, commands, the adopting task (its base, main's tip, holds no config.yaml)
( harness init && commands true && harness install && harness task new "adopt the harness" \
  && harness requirement add R --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && for e in build unit_test; do harness evidence $e || exit 1; done \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || { echo "setup: task"; exit 2; }
lookup() {
  python3 - <<'EOF'
from pathlib import Path
from harness.errors import HarnessError
from harness.store.source import FsSource
try:
    found = FsSource(Path(".").resolve()).adoption()
    print(getattr(found, "commit", "?")[:12] if found else "None (this change adopts the harness)")
except HarnessError as exc:
    print("refused:", exc.message[:90])
EOF
}
echo "remote-tracking refs: $(git for-each-ref --format='%(refname:short)' refs/remotes | tr '\n' ' ')"
echo "vendor's adopting commit: $(git rev-parse --short=12 vendor/main); merge base with HEAD: $(git merge-base HEAD vendor/main || echo none)"
echo "with the vendor remote:    FsSource.adoption() -> $(lookup)"
harness gate >"$T/a.out" 2>&1; a=$?
echo "with the vendor remote:    harness gate exit $a: $(head -1 "$T/a.out")"
grep -m1 "REQ-001 cites" "$T/a.out" | cut -c1-170 | sed 's/^/                           /'
git remote remove vendor || exit 2
echo "vendor remote removed:     FsSource.adoption() -> $(lookup)"
harness gate >"$T/c.out" 2>&1; c=$?
echo "vendor remote removed:     harness gate exit $c: $(head -1 "$T/c.out")"
[ $c = 0 ] || { echo "setup: the adopting task should PASS without the vendor remote"; exit 2; }
if [ $a != 0 ]; then
  echo "DEFECT: the adopting change is judged against another project's adoption (read from its remote)"
  exit 1
fi
echo "fixed"
exit 0
