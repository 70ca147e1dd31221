#!/usr/bin/env bash
# Defect: a worktree run's import check asks the interpreter only about the names the *folders* hold
#   (harness/evidence/tree_names.py asked(): importable() listings of src/, the root, and the folders
#   tree_imports.checkout_folders derives). An editable finder maps a *package name* to a folder (setuptools'
#   `__editable___*_finder.py` MAPPING, written for any `package-dir` that is not `{"" = ...}`); when the folder's name
#   is not the package's (`package-dir = {"calcpkg" = "src"}`, a common setuptools layout), checkout_folders turns the
#   mapped folder into its parent (the root, dropped as "."), and `calcpkg` is never asked about. The worktree has no
#   folder named calcpkg, so the finder imports it from the checkout: the base run of PASS_TO_PASS measures the
#   change's code. Here the change breaks mul() and weakens its test: the base's test_mul "fails at the base" (it ran
#   the broken mul), is not protected, and PASS_TO_PASS passes. docs/suite.md (F-0307): a folder "that an editable
#   finder maps a package to has its worktree counterpart put first ... and its names asked about".
# Correct: the names an editable finder maps (its MAPPING keys) are asked about too, and a run that would import one
#   from the checkout is refused (exit 2) or measured on the worktree's copy (test_mul lost). Control: the same
#   project with `package-dir = {"calcpkg" = "src/calcpkg"}` (folder named as the package) loses test_mul.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
SUITE_SITE=$("$here"/.venv/bin/python -c "import site; print(site.getsitepackages()[0])") || exit 2

# scenario NAME PACKAGE_FOLDER -> prints "<rc of pass_to_pass> <lost cases> base_passed=N"
scenario() {
  local R="$T/$1/repo" V="$T/$1/venv" P=$2
  mkdir -p "$R" && cd "$R" || return 2
  "$here"/.venv/bin/python -m venv --without-pip "$V" || return 2
  local PY="$V/bin/python" SITE
  SITE=$("$PY" -c "import site; print(site.getsitepackages()[0])") || return 2
  echo "import site; site.addsitedir('$SUITE_SITE')" > "$SITE/zz-suite.pth"
  mkdir -p "$P" tests; : > "$P/__init__.py"
  printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > "$P/calc.py"
  printf 'from calcpkg.calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n' > tests/test_calc.py
  printf '[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "calcpkg"\nversion = "0.1"\n\n[tool.setuptools]\npackages = ["calcpkg"]\npackage-dir = {"calcpkg" = "%s"}\n' "$P" > pyproject.toml
  printf '__pycache__/\n.harness/local/\n*.egg-info/\n' > .gitignore
  # `pip install -e .` with setuptools: the finder module and .pth it writes for this package-dir (its own template)
  "$here"/.venv/bin/python - "$SITE" "$R/$P" <<'PYEOF' || return 2
import sys
from setuptools.command.editable_wheel import _finder_template
site, folder = sys.argv[1], sys.argv[2]
open(f"{site}/__editable___calcpkg_0_1_finder.py", "w").write(
    _finder_template("__editable___calcpkg_0_1_finder", {"calcpkg": folder}, {}))
open(f"{site}/__editable__.calcpkg-0.1.pth", "w").write(
    "import __editable___calcpkg_0_1_finder; __editable___calcpkg_0_1_finder.install()\n")
PYEOF
  (cd "$T" && "$PY" -c "import calcpkg, sys; sys.exit(not calcpkg.__file__.startswith(sys.argv[1]))" "$R/$P") || return 2
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
  sed -i 's/return a \* b/return a + b/' "$P/calc.py"      # the change: mul broken ...
  sed -i 's/== 6/== 5/' tests/test_calc.py                 # ... and its test weakened
  local rc=0; harness evidence pass_to_pass > "$T/$1/p2p.out" 2>&1 || rc=$?
  local lost; lost=$("$here"/.venv/bin/python -c "
import json,sys
try: o=json.load(open(sys.argv[1]))['pass_to_pass']
except Exception: print('-'); sys.exit()
print(','.join(i['case'] for i in o.get('lost',[])) or 'none', 'base_passed=%s' % o.get('base_passed'))" \
    "$R/.harness/tasks/$TID/evidence/pass_to_pass.json")
  [ "$rc" = 2 ] && grep -qi checkout "$T/$1/p2p.out" && lost="refused-naming-checkout"
  echo "$rc $lost"
}

ctl=$(scenario control src/calcpkg) || { echo "setup failed"; exit 2; }
echo "control (package-dir calcpkg = src/calcpkg): pass_to_pass exit/lost: $ctl"
case "$ctl" in "1 tests.test_calc::test_mul"*) ;; *) echo "setup: the control did not lose test_mul"; exit 2;; esac
res=$(scenario mapped src) || { echo "setup failed"; exit 2; }
echo "mapped  (package-dir calcpkg = src):         pass_to_pass exit/lost: $res"
case "$res" in
  "0 none"*) echo "DEFECT: calcpkg came from the checkout through the editable finder in the base's run (base_passed=1: the base's test_mul ran the change's broken mul), and PASS_TO_PASS passed"; exit 1;;
  "2 refused-naming-checkout"|"1 tests.test_calc::test_mul"*) echo "OK: refused, or the base measured on its own code and test_mul lost"; exit 0;;
  *) echo "unexpected: $res"; exit 2;;
esac
