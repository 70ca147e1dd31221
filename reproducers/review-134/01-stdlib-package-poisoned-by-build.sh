#!/usr/bin/env bash
# Defect: `harness audit --rerun` fingerprints the interpreter's standard library one level deep only
# (harness/history/rerun/isolation.py RerunGuard._python_spots puts each import folder under the prefix in
# `spots.listed`; fingerprint._list signs its direct entries). A file inside a stdlib package
# (`lib/python3.X/unittest/case.py`, `json/decoder.py`, `importlib/…`) is not signed at all. A re-run that
# rewrites it (here the commit's own `build` command, `python3 build.py`, which turns unittest's assertEqual into
# a no-op in the interpreter that runs it) poisons every later re-run of the job, and nothing is reported: the
# commit's `unit_test` re-run "reproduces" a pass although its test fails on a clean interpreter, and the audit
# exits 0. CI's interpreter stdlib is writable by the job in the usual setups (actions/setup-python's tool
# cache, pyenv, a container running as root). The threat model promises that a run changing "the interpreter"
# is reported as poisoning (exit 2).
# Correct: the rewrite of the stdlib file is seen after the build run and reported as poisoning (the later run
# "could not run", exit 2), or the unit_test re-run is contradicted (exit 1); never exit 0.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.com
mkdir -p "$HOME"
setup() { echo "SETUP FAILURE: $*"; exit 2; }

# A private copy of the harness's base interpreter (the same binary, its stdlib linked entry by entry, `unittest`
# copied so that it can be written): the system's own interpreter is never touched.
read -r EXE STDLIB VER < <("$here/.venv/bin/python" -c 'import sys,sysconfig;print(sys._base_executable, sysconfig.get_paths()["stdlib"], "%d.%d" % sys.version_info[:2])') || setup "no base interpreter"
make_py() {
  local d=$1 e n
  mkdir -p "$d/bin" "$d/lib/python$VER" || return 1
  cp "$(readlink -f "$EXE")" "$d/bin/python$VER" && ln -s "python$VER" "$d/bin/python3" || return 1
  for e in "$STDLIB"/*; do
    n=$(basename "$e")
    case $n in
      unittest) cp -r "$e" "$d/lib/python$VER/" ;;
      site-packages) mkdir "$d/lib/python$VER/site-packages" ;;
      *) ln -s "$e" "$d/lib/python$VER/$n" ;;
    esac
  done
  "$d/bin/python3" -c "import sys, unittest; assert unittest.__file__.startswith(sys.argv[1]), unittest.__file__" "$d" \
    || return 1
}
make_py "$T/dev-py" || setup "could not copy the interpreter (dev)"
make_py "$T/ci-py" || setup "could not copy the interpreter (ci)"

git init -q --bare -b main "$T/remote.git" || setup "bare"
git init -q -b main "$T/app" && cd "$T/app" || setup "init"
git remote add origin "$T/remote.git"
printf 'def add(a, b):\n    return a + b\n' > calc.py
cat > test_calc.py <<'PY'
import unittest
from calc import add

class AddTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)
PY
cat > build.py <<'PY'
"""The build: compile the code. And, as a side effect, make unittest's assertEqual accept anything in the
interpreter that runs it (any write to the stdlib would do: a sitecustomize is seen, this is not)."""
import py_compile
import unittest.case

py_compile.compile("calc.py", doraise=True)
path = unittest.case.__file__
text = open(path).read()
head = "    def assertEqual(self, first, second, msg=None):\n"
if "# POISON" not in text and head in text:
    open(path, "w").write(text.replace(head, head + "        return  # POISON\n", 1))
PY
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "build.py"]
  unit_test:
    command: ["python3", "-m", "unittest", "-q"]
YAML
export PATH="$T/dev-py/bin:$PATH"   # the developer's machine
harness init >/dev/null || setup "harness init"
harness install >/dev/null || setup "harness install"
git add -A && git commit -qm "calc with harness" && git push -q origin main || setup "first commit/push"

task=$(harness task new "Add subtraction" --description "calc.sub(a, b)") || setup "task new"
harness requirement add "sub(a, b) returns a - b" --priority must >/dev/null || setup "requirement"
for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition "$s" >/dev/null || setup "transition $s"; done
printf '\ndef sub(a, b):\n    return a + b  # wrong\n' >> calc.py
cat >> test_calc.py <<'PY'

class SubTest(unittest.TestCase):
    def test_sub(self):
        from calc import sub
        self.assertEqual(sub(5, 3), 2)
PY
harness transition VERIFYING >/dev/null || setup "VERIFYING"
harness evidence build >/dev/null 2>&1 || setup "evidence build"
harness evidence unit_test >/dev/null 2>&1 || setup "evidence unit_test (the build's poison should make it pass)"
harness requirement set REQ-001 --status verified --evidence unit_test >/dev/null || setup "verify REQ-001"
for s in REVIEWING GATING; do harness transition "$s" >/dev/null || setup "transition $s"; done
harness gate >/dev/null 2>&1 || { harness gate; setup "gate"; }
harness converge --apply >/dev/null || setup "converge"
harness transition DONE >/dev/null || setup "DONE"
git add -A && git commit -qm "sub() with gated evidence" || setup "DONE commit"
git push -q origin main || setup "push (the guard refused)"

# CI: a fresh clone, a fresh (clean) interpreter first on PATH.
export PATH="$T/ci-py/bin:${PATH#"$T/dev-py/bin:"}"
git clone -q -b main "$T/remote.git" "$T/ci" && cd "$T/ci" || setup "clone"
"$T/ci-py/bin/python3" -m unittest -q >/dev/null 2>&1 && setup "the committed test passes on a clean interpreter"
harness audit --to HEAD --rerun --json > "$T/audit.json" 2> "$T/audit.err"; rc=$?
grep -q "# POISON" "$T/ci-py/lib/python$VER/unittest/case.py" || setup "the build did not write the stdlib in CI"
echo "audit --rerun exit: $rc"
python3 - "$T/audit.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def rows(x):
    if isinstance(x, dict):
        if "result" in x and "kind" in x:
            yield x
        for v in x.values():
            yield from rows(v)
    elif isinstance(x, list):
        for v in x:
            yield from rows(v)
for r in rows(doc):
    print(" ", r.get("what"), "->", r.get("result"), "| poisoned:", bool(r.get("poisoned")))
PY
if [ "$rc" -eq 0 ]; then
  echo "DEFECT: the build re-run rewrote unittest/case.py in CI's interpreter, unseen; the unit_test re-run of a test"
  echo "that fails on a clean interpreter 'reproduces' and the audit exits 0"
  exit 1
fi
echo "OK: audit exit $rc (poisoning reported or the record contradicted)"
exit 0
