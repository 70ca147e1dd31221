#!/usr/bin/env bash
# Defect: the start-up files PASS_TO_PASS protects (harness/core/suite.py ALWAYS: "**/sitecustomize.py",
#   "**/usercustomize.py", "**/*.pth") are matched by file name only. `site` imports `sitecustomize` by module name,
#   from any form the import system loads: a package `sitecustomize/__init__.py`, a sourceless `sitecustomize.pyc`, an
#   extension `sitecustomize.<tag>.so`. A change that adds src/sitecustomize/__init__.py (src/ is on the import path
#   through the editable install, and is first on PYTHONPATH in the worktree) keeps it in PASS_TO_PASS's worktree (it
#   is "source", not protected), so every PASS_TO_PASS run imports it at start-up, where it loads a plugin that turns
#   each failure into a pass: mul() broken and its base test put back still passes. The same code as
#   src/sitecustomize.py is removed from the worktree and hidden (the control). docs/threat-model.md promises "a
#   sitecustomize.py, usercustomize.py or .pth file that loads a plugin at start-up ... the interpreter's start-up
#   files, are protected"; docs/suite.md: the change's sitecustomize "is then hidden in the run like any other name".
# Correct: every file the interpreter would import as `sitecustomize`/`usercustomize` (module, package, .pyc,
#   extension) is a protected start-up file (put back as the base has it: absent here), so the base's test_mul is lost.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
SUITE_SITE=$("$here"/.venv/bin/python -c "import site; print(site.getsitepackages()[0])") || exit 2

# scenario NAME module|package -> prints "<rc of pass_to_pass> <lost cases>"
scenario() {
  local R="$T/$1/repo" V="$T/$1/venv"
  mkdir -p "$R" && cd "$R" || return 2
  "$here"/.venv/bin/python -m venv --without-pip "$V" || return 2
  local PY="$V/bin/python" SITE
  SITE=$("$PY" -c "import site; print(site.getsitepackages()[0])") || return 2
  echo "import site; site.addsitedir('$SUITE_SITE')" > "$SITE/zz-suite.pth"
  mkdir -p "$SITE/calcpkg-0.1.dist-info"
  printf 'Metadata-Version: 2.1\nName: calcpkg\nVersion: 0.1\n' > "$SITE/calcpkg-0.1.dist-info/METADATA"
  echo "$R/src" > "$SITE/_calcpkg.pth"          # the editable install (pip/hatchling: a .pth naming src/)
  mkdir -p src/calcpkg tests; : > src/calcpkg/__init__.py
  printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > src/calcpkg/calc.py
  printf 'from calcpkg.calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n' > tests/test_calc.py
  printf '[project]\nname = "calcpkg"\nversion = "0.1"\n' > pyproject.toml
  printf '__pycache__/\n.harness/local/\n' > .gitignore
  ( git init -q -b main && harness init && harness install ) >/dev/null 2>&1 || return 2
  "$here"/.venv/bin/python - "$PY" <<'PYEOF' || return 2
import sys, yaml
c = yaml.safe_load(open(".harness/config.yaml"))
c["evidence"] = {"unit_test": {"command": [sys.argv[1], "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}}
yaml.safe_dump(c, open(".harness/config.yaml", "w"), sort_keys=False)
g = yaml.safe_load(open(".harness/gate.yaml"))
g["gate"]["verification"]["pass_to_pass"] = "required"
g["gate"]["suite"] = {"paths": ["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"]}
yaml.safe_dump(g, open(".harness/gate.yaml", "w"), sort_keys=False)
PYEOF
  ( git add -A && git commit -qm init ) >/dev/null 2>&1 || return 2
  local TID; TID=$(harness task new "Make mul faster" 2>/dev/null) || return 2
  # the dishonest change: mul broken, its test weakened, and a start-up module in src/ (as $2)
  sed -i 's/return a \* b/return a + b/' src/calcpkg/calc.py
  sed -i 's/== 6/== 5/' tests/test_calc.py
  local where=src/sitecustomize.py
  [ "$2" = package ] && { mkdir -p src/sitecustomize; where=src/sitecustomize/__init__.py; }
  cat > "$where" <<'PY'
import os
os.environ.setdefault("PYTEST_PLUGINS", "sitecustomize")
try:
    import pytest
except Exception:
    pytest = None
if pytest is not None:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        report = outcome.get_result()
        if report.failed:
            report.outcome, report.longrepr = "passed", None
PY
  local rc=0; harness evidence pass_to_pass > "$T/$1/p2p.out" 2>&1 || rc=$?
  local lost; lost=$("$here"/.venv/bin/python -c "
import json,sys
try: o=json.load(open(sys.argv[1]))['pass_to_pass']
except Exception: print('-'); sys.exit()
print(','.join(i['case'] for i in o.get('lost',[])) or 'none', 'base_passed=%s' % o.get('base_passed'))" \
    "$R/.harness/tasks/$TID/evidence/pass_to_pass.json")
  echo "$rc $lost"
}

ctl=$(scenario control module) || { echo "setup failed"; exit 2; }
echo "control (src/sitecustomize.py, protected):          pass_to_pass exit/lost: $ctl"
case "$ctl" in "1 tests.test_calc::test_mul"*) ;; *) echo "setup: the control did not lose test_mul"; exit 2;; esac
res=$(scenario attack package) || { echo "setup failed"; exit 2; }
echo "attack  (src/sitecustomize/__init__.py, same code):  pass_to_pass exit/lost: $res"
case "$res" in
  "0 none"*) echo "DEFECT: a sitecustomize *package* is no protected start-up file: it is copied into PASS_TO_PASS's worktree, imported by site at start-up, and turns the base's failing test_mul into a pass"; exit 1;;
  2\ *|"1 tests.test_calc::test_mul"*) echo "OK: refused, or the start-up package was put back as the base has it (absent) and test_mul reported lost"; exit 0;;
  *) echo "unexpected: $res"; exit 2;;
esac
