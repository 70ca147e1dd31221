#!/usr/bin/env bash
# Defect: harness/evidence/tree_imports.py hide_checkout_only() (F-0277's fix) hides, in the PASS_TO_PASS worktree
#   run of the base, a name the base DOES hold as a namespace package at its root (flat layout, `mypkg/` without
#   __init__.py): `ours` is _names_of(_own_folders(worktree), worktree), which for the root reads importable() only
#   (regular packages and modules), never namespaced(root). When the change turns mypkg into a regular package
#   (adds mypkg/__init__.py) and the project is installed editable (a .pth naming the checkout's root), the probe
#   resolves `mypkg` to the checkout's regular package (a regular package beats a namespace portion), it counts as
#   "only the checkout's", and a stub raising ModuleNotFoundError is put first on PYTHONPATH. Every base test that
#   imports mypkg fails there (base_passed 1 of 3), and the broken mul() loses nothing: PASS_TO_PASS passes (exit 0).
# Correct: a name the base holds (as a namespace package too) is never hidden: the base's tests pass on the base
#   (as on a machine holding only the base), and the broken mul() is reported lost (or the run is refused with the
#   editable-install remedy). Control: the same break without adding mypkg/__init__.py is reported lost.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
SUITE_SITE=$("$here/.venv/bin/python" -c "import site; print(site.getsitepackages()[0])") || exit 2

setup() {  # $1: name; $2: "init" to add mypkg/__init__.py in the change
  local R="$T/$1" V="$T/venv-$1"
  "$here/.venv/bin/python" -m venv --without-pip "$V" || return 2
  local SITE; SITE=$("$V/bin/python" -c "import site; print(site.getsitepackages()[0])") || return 2
  echo "import site; site.addsitedir('$SUITE_SITE')" > "$SITE/zz-suite.pth"
  echo "$R" > "$SITE/_mypkg.pth"   # the editable install of a flat layout: a .pth naming the checkout's root
  mkdir -p "$R/mypkg" "$R/tests" && cd "$R" || return 2
  printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > mypkg/core.py
  printf 'import importlib\n\n\ndef core():\n    return importlib.import_module("mypkg.core")\n\n\ndef test_add():\n    assert core().add(2, 3) == 5\n\n\ndef test_mul():\n    assert core().mul(2, 3) == 6\n' > tests/test_core.py
  printf 'def test_version():\n    assert True\n' > tests/test_misc.py   # a case that does not import mypkg
  printf '__pycache__/\n.harness/local/\n' > .gitignore
  ( git init -q -b main && harness init && harness install ) >/dev/null 2>&1 || return 2
  "$V/bin/python" - "$V/bin/python" <<'PY' || return 2
import sys, yaml
c = yaml.safe_load(open(".harness/config.yaml"))
c["evidence"] = {"unit_test": {"command": [sys.argv[1], "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                           "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}}
yaml.safe_dump(c, open(".harness/config.yaml", "w"), sort_keys=False)
PY
  ( git add -A && git commit -qm base && harness task new "refactor" ) >/dev/null 2>&1 || return 2
  # the change: mul broken (and, in "init", mypkg made a regular package)
  printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n' > mypkg/core.py
  [ "$2" = init ] && printf '"""mypkg."""\n' > mypkg/__init__.py
  git add -A
  harness evidence pass_to_pass > "$T/$1.out" 2>&1; echo "exit $?" >> "$T/$1.out"
  python3 - "$R" > "$T/$1.rec" <<'PY'
import json, sys, pathlib
for p in pathlib.Path(sys.argv[1], ".harness").rglob("*.json"):
    try: d = json.loads(p.read_text())
    except Exception: continue
    if isinstance(d, dict) and isinstance(d.get("pass_to_pass"), dict):
        o = d["pass_to_pass"]; print(o.get("base_passed"), [i.get("case") for i in o.get("lost", [])])
PY
  return 0
}
setup control plain || exit 2
echo "control: $(tail -1 "$T/control.out"); record: $(cat "$T/control.rec")"
grep -q "test_mul" "$T/control.rec" || { echo "setup: the control does not report test_mul lost"; cat "$T/control.out"; exit 2; }
setup nsinit init || exit 2
echo "with mypkg/__init__.py added: $(tail -1 "$T/nsinit.out"); record: $(cat "$T/nsinit.rec")"
if grep -q "test_mul" "$T/nsinit.rec"; then echo "OK: the broken mul is reported lost"; exit 0; fi
if grep -q "exit 2" "$T/nsinit.out" && grep -q "imports \`mypkg\` from" "$T/nsinit.out"; then echo "OK: refused"; exit 0; fi
echo "DEFECT: the base's namespace package mypkg was hidden in the base run; its tests failed there, and the"
echo "        broken mul() is not reported lost by PASS_TO_PASS"; cat "$T/nsinit.out" | tail -5; exit 1
