#!/usr/bin/env bash
# Defect: the import probe that decides which names a worktree run hides or refuses
#   (harness/evidence/tree_imports.py resolve(): `python -c RESOLVE`, its last stdout line read as JSON) runs the
#   CHANGE's code: the probed interpreter starts with the editable install's `.pth` naming the checkout's src/, so
#   `site` imports the change's src/sitecustomize.py (added by the change; a protected file, removed from the
#   PASS_TO_PASS worktree) before the probe's code runs. That module registers an atexit print of `{}`, so every
#   probe answers "nothing found in the checkout": hide_checkout_only() writes no stub for `sitecustomize` and
#   refuse_checkout_imports() refuses nothing. The real base and PASS_TO_PASS runs then import the checkout's
#   sitecustomize (through the same `.pth`), which loads itself as a pytest plugin turning every failure into a pass.
#   mul() is broken, no test is edited, pass_to_pass PASSES and the task reaches DONE without approval. The same
#   forged answer blinds CI's `harness audit --rerun` (isolation.py _probe() reads python_site.PROBE's last line the
#   same way): it reports "reproduces (passed, 0 base case(s) lost)".
#   (Control: the same sitecustomize without the forged probe answer is hidden by the stub and test_mul is lost.)
# Correct: the probe's answer cannot come from the code under test (no checkout code runs in it, e.g. `-S` plus
#   site.addsitedir of the interpreter's site folders, and sitecustomize/usercustomize the worktree lacks always
#   stubbed), so the change's sitecustomize is hidden and tests.test_calc::test_mul is lost (or the run refused).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

# $1: "forged" (the sitecustomize forges the probe's answer) or "plain" (control). Prints "rc lost-cases" of
# pass_to_pass, or SETUP-FAILED; leaves the repository in $T/repo-$1.
attempt() {
  local R="$T/repo-$1" PY="$T/venv-$1/bin/python" SITE
  mkdir "$R" && cd "$R" || return
  "$here/.venv/bin/python" -m venv --system-site-packages "$T/venv-$1" || return
  SITE=$("$PY" -c 'import site; print(site.getsitepackages()[0])') || return
  mkdir -p src/calcpkg tests
  printf '[project]\nname = "calcpkg"\nversion = "0.1"\n' > pyproject.toml
  : > src/calcpkg/__init__.py
  printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > src/calcpkg/calc.py
  printf 'from calcpkg.calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n' > tests/test_calc.py
  printf '__pycache__/\n*.egg-info/\nbuild/\n' > .gitignore
  printf '%s\n' "$R/src" > "$SITE/__editable__.calcpkg-0.1.pth"    # `pip install -e .` of a src/ layout
  ( git init -q -b main && harness init && cat > .harness/config.yaml <<EOF
version: 1
evidence:
  build:
    command: ["$PY", "-m", "compileall", "-q", "src"]
  unit_test:
    command: ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
EOF
    harness install && git add -A && git commit -qm init && harness task new "faster mul" && git add -A \
    && git commit -qm task ) >/dev/null 2>&1 || { echo SETUP-FAILED; return; }
  # The dishonest change: mul() broken; no test touched; a src/sitecustomize.py that passes every failure.
  sed -i 's/return a \* b/return a + b/' src/calcpkg/calc.py
  local forge='atexit.register(lambda: print("{}"))  # the probe reads its last line: "nothing from the checkout"'
  [ "$1" = plain ] && forge='pass'
  cat > src/sitecustomize.py <<EOF
import atexit, os, sys
if sys.argv[:1] == ["-c"]:
    $forge
else:
    os.environ.setdefault("PYTEST_PLUGINS", "sitecustomize")
try:
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        report = outcome.get_result()
        if report.failed:
            report.outcome, report.longrepr = "passed", None
except ImportError:
    pass
EOF
  ( for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done
    harness evidence build && harness evidence unit_test ) >/dev/null 2>&1 || { echo SETUP-FAILED; return; }
  local rc=0; harness evidence pass_to_pass >/dev/null 2>&1 || rc=$?
  local rec; rec=$(ls .harness/tasks/*/evidence/pass_to_pass.json 2>/dev/null | head -1)
  [ -n "$rec" ] || { echo "$rc none"; return; }
  echo "$rc $(python3 -c 'import json,sys; print(",".join(l["case"] for l in json.load(open(sys.argv[1]))["pass_to_pass"]["lost"]) or "-")' "$rec")"
}

control=$(attempt plain)
[ "$control" = "1 tests.test_calc::test_mul" ] || { echo "setup: control not as expected: $control"; exit 2; }
got=$(attempt forged)
[ "$got" = SETUP-FAILED ] && { echo "setup failed"; exit 2; }
echo "control (no forged probe answer): pass_to_pass exit/lost = $control"
echo "forged probe answer:              pass_to_pass exit/lost = $got"
case "$got" in
  "1 tests.test_calc::test_mul"|"2 none") echo "FIXED: the checkout's sitecustomize no longer shapes the run"; exit 0 ;;
esac
cd "$T/repo-forged" || exit 2
( harness transition REVIEWING && harness transition GATING && harness gate && harness converge --apply \
  && harness transition DONE && git add -A && git commit -qm "faster mul" ) >/dev/null 2>&1
state=$(harness status 2>/dev/null | awk '$1=="State"{print $2; exit}')
ci=$(harness audit --rerun --from HEAD~1 --to HEAD 2>&1 | grep -E "no problems|refused" | tail -1)
echo "DEFECT: mul(2, 3) == 5 yet pass_to_pass passed: the change's sitecustomize ran in the worktree runs after"
echo "        forging the import probe's answer. Task state: ${state:-?}; CI audit --rerun: ${ci:-?}"
exit 1
