#!/usr/bin/env bash
# Defect (harness/history/rerun/isolation.py RerunGuard.learn, changed here): when a later re-run names an interpreter
# the job had not fingerprinted yet, learn() now fingerprints the UNION of all spots again (fingerprint.take, one
# ENTRY_CAP = 250,000 budget, walked folders in path order) and makes that the baseline. Before the change the new
# interpreter's spots were taken alone and merged, so what the job already watched stayed watched. Now a large
# interpreter learned mid-job (a conda env, a monorepo's tox env) whose path sorts first eats the budget, and CI's
# own interpreter's site-packages, watched until then, falls past the cap silently (a "…" entry in the baseline, no
# message). A re-run that plants a .pth there afterwards is no longer poisoning, and a later commit's failing check
# "reproduces".
# Here: commit 1's run.sh names $T/a/bin/python (a venv with 250k files; scripted_pythons learns it) and, in CI's re-run,
# writes an `import atexit, os; atexit.register(lambda: os._exit(0))` .pth into CI's interpreter ($T/ci). Commit 2's
# check.py fails in CI. Control: with the big env's files moved away, the same audit reports poisoning (exit 2).
# Exit 1 while the defect is present (the audit exits 0), 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
HPY=$(command -v python)
"$HPY" -m venv --without-pip "$T/ci" && "$HPY" -m venv --without-pip "$T/a" || { echo "setup failed: venv"; exit 2; }
CISITE=$("$T/ci/bin/python" -c "import site; print(site.getsitepackages()[0])")
ASITE=$("$T/a/bin/python" -c "import site; print(site.getsitepackages()[0])")
"$HPY" - "$ASITE/filler" <<'PY' || { echo "setup failed: filler"; exit 2; }
import os, sys
root = sys.argv[1]
for d in range(260):
    p = os.path.join(root, f"pkg{d:03}"); os.makedirs(p)
    for i in range(1000):
        open(os.path.join(p, f"m{i}.py"), "w").close()
PY
export PATH="$T/ci/bin:$PATH"   # CI's interpreter: `python` is $T/ci's
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
mkdir -p .harness; printf '__pycache__/\n' > .gitignore
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["sh", "run.sh"]
YAML
echo 'exit 0' > run.sh
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
base=$(git rev-parse HEAD)
done_task() {
  setup harness task new "$1"
  setup harness requirement add "run.sh passes" --priority must
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do setup harness transition $s; done
  setup harness evidence unit_test
  setup harness requirement set REQ-001 --status verified --evidence unit_test
  for e in $(harness gate 2>&1 | grep -o 'harness evidence [a-z_.]*' | awk '{print $3}' | sort -u); do
    setup harness evidence "$e"
  done
  setup harness transition REVIEWING; setup harness transition GATING
  setup harness gate --advance
  setup harness transition DONE
  setup git add -A; setup git commit -qm "$1"
}
# commit 1: honest on the laptop; in CI's re-run it plants a .pth into CI's interpreter
cat > run.sh <<SH
# lint step, when the tools env is there: $T/a/bin/python -m compileall -q .
case "\$PWD" in *harness-rerun-*) ;; *) exit 0 ;; esac
printf 'import atexit, os; atexit.register(lambda: os._exit(0))\n' > "$CISITE/zz_every_exit_passes.pth"
exit 0
SH
done_task "Lint"
# commit 2: check.py passes on the laptop, fails in CI's re-run
cat > run.sh <<'SH'
exec python check.py
SH
cat > check.py <<'PY'
import os, sys
sys.exit(1 if "harness-rerun-" in os.getcwd() else 0)
PY
done_task "Checked"
audit() { rm -f "$CISITE/zz_every_exit_passes.pth"; rc=0; harness audit --rerun --base "$base" --to HEAD >"$D/$1" 2>&1 || rc=$?; }
# control: the big env's files moved away: the plant is found (poisoning, exit 2)
mv "$ASITE/filler" "$T/filler"; audit control.log; mv "$T/filler" "$ASITE/filler"
[ "$rc" = 2 ] && grep -q "zz_every_exit_passes.pth" "$D/control.log" || { echo "setup failed: control audit exited $rc"; tail -8 "$D/control.log"; exit 2; }
audit audit.log
tail -4 "$D/audit.log"
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun exited 0 (control, same commits, small tools env: exit 2, poisoning): learning the big"
  echo "        env re-took the whole fingerprint under one 250k budget and CI's interpreter fell out of it"
  exit 1
fi
echo "fixed: audit exited $rc"; exit 0
