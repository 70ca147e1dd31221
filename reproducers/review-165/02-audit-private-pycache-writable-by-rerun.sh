#!/usr/bin/env bash
# Defect (harness/history/rerun/sealed.py Sealed.arm, 1475e601's fix of 164's F-0563): the auditor's private bytecode
# cache folder, `tempfile.mkdtemp(prefix="harness-audit-pycache-")`, is made in the job's temporary folder, the very
# folder each re-run's own TMPDIR is made in (harness-tmp-*, its sibling), and it is fingerprinted by nobody. A
# re-run finds it with one glob and writes a `.pyc` there for a standard-library module the auditor has not imported
# yet (its header: the source's mtime and size, so Python trusts it). preload() imports what the harness names, but
# not what the standard library imports lazily at run time: a codec. The re-run's JUnit report declares
# `encoding="koi8_r"`; when the auditor parses it (harness/evidence/junit.py, in process, after the run), expat asks
# Python's codec registry, which imports `encodings.koi8_r` -- compiled from the private folder, i.e. the re-run's
# code, running inside the auditor. Here that code exits 0: the report showed a failing case (the record does not
# reproduce), yet `harness audit --rerun --base BASE --to HEAD` exits 0.
# Correct behaviour: the audit exits 1 (does not reproduce) or 2 (poisoning) -- never 0; the auditor's own cache
# folder is out of a re-run's reach (not in the folder the runs' TMPDIRs are made in, or fingerprinted/verified, or
# the auditor writes no cache and reads none: `sys.dont_write_bytecode` plus a prefix no one can write), and a lazy
# import (codecs, a module `__getattr__`) after the first re-run loads nothing a re-run could have written.
# The CI-like setup is 164's: a copy of the clone's harness package in a fresh virtualenv of the clone's Python.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
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
printf '__pycache__/\n.harness/local/\n' > .gitignore
cat > check.py <<'PY'
# passes on the laptop; in CI's re-run (a worktree under harness-rerun-*) its report shows a failing case, and it
# plants bytecode for a codec in the auditor's private cache folder, the sibling of its own TMPDIR
import glob, importlib.util, marshal, os, sys, tempfile
report = os.path.join(".harness", "local", "junit.xml")
os.makedirs(os.path.dirname(report), exist_ok=True)
if "harness-rerun-" not in os.getcwd():
    with open(report, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="t" tests="1" failures="0" '
                'errors="0" skipped="0"><testcase classname="check" name="test_check"/></testsuite></testsuites>')
    sys.exit(0)
src = importlib.util.find_spec("encodings.koi8_r").origin
st = os.stat(src)
code = compile("import os\nos._exit(0)\n", src, "exec")
head = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
head += (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
planted = 0
for folder in glob.glob(os.path.join(os.path.dirname(tempfile.gettempdir()), "harness-audit-pycache-*")):
    sys.pycache_prefix = folder
    pyc = importlib.util.cache_from_source(src)
    os.makedirs(os.path.dirname(pyc), exist_ok=True)
    with open(pyc, "wb") as f:
        f.write(head + marshal.dumps(code))
    planted += 1
open(os.path.join(os.path.dirname(tempfile.gettempdir()), "planted.txt"), "w").write("%d\n" % planted)
with open(report, "wb") as f:  # ASCII bytes: no codec needed to write them
    f.write(b'<?xml version="1.0" encoding="koi8_r"?><testsuites><testsuite name="t" tests="1" failures="1" '
            b'errors="0" skipped="0"><testcase classname="check" name="test_check"><failure message="1 != 2"/>'
            b'</testcase></testsuite></testsuites>')
sys.exit(0)
PY
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "check.py"]
    junit: .harness/local/junit.xml
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
grep -q "^[1-9]" "$TMPDIR/planted.txt" 2>/dev/null || { echo "setup failed: the re-run found no harness-audit-pycache-* folder (rc $rc)"; exit 2; }
if [ "$rc" = 0 ]; then
  echo "DEFECT: audit --rerun exited 0, though the re-run's JUnit report shows a failing case (not reproduced):"
  echo "        the re-run planted encodings/koi8_r.*.pyc in the auditor's private harness-audit-pycache-* folder,"
  echo "        which the auditor loaded when expat decoded the report's declared encoding"
  exit 1
fi
grep -q "does not reproduce\|poison" "$D/log" && { echo "fixed: audit exited $rc"; exit 0; }
echo "setup failed: audit exited $rc for another reason"; tail -15 "$D/log"; exit 2
