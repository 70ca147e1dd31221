#!/usr/bin/env bash
# Defect: FAIL_TO_PASS's worktree run of the base imports a top-level module the change adds (src/subtool.py) from
#   the checkout an editable install names, and the probe that should refuse such a run never asks about it:
#   harness/evidence/tree_imports.py refuse_checkout_imports() probes only the names the *worktree* (the base) holds,
#   and import_folders() puts only the worktree's src/ first; a name the base lacks falls through to the checkout's
#   src/ on the .pth. The change's test passes "on the base" with the change's own code, so an honest change is
#   blocked ("does not fail on the base") instead of measured or refused with the editable-install remedy.
# Correct: the base run does not import the change's code (the test fails on the base: ImportError), or the run is
#   refused naming the editable install (as it is for a package the base holds: read 85's F-0300/F-0301). Control: the
#   same change with the module added inside the package (src/calcpkg/sub.py) is measured right (no REQ-001 blocker).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
SUITE_SITE=$("$here/.venv/bin/python" -c "import site; print(site.getsitepackages()[0])") || exit 2

setup() {  # $1: name; $2: the module's path the change adds; $3: the test's import line
  local R="$T/$1" V="$T/venv-$1"
  python3 -m venv --without-pip "$V" >/dev/null 2>&1 || "$here/.venv/bin/python" -m venv --without-pip "$V" || return 2
  local SITE; SITE=$("$V/bin/python" -c "import site; print(site.getsitepackages()[0])") || return 2
  echo "import site; site.addsitedir('$SUITE_SITE')" > "$SITE/zz-suite.pth"
  echo "$R/src" > "$SITE/_calcpkg.pth"   # the editable install: a .pth naming the checkout's src/
  mkdir -p "$R/src/calcpkg" "$R/tests" && cd "$R" || return 2
  : > src/calcpkg/__init__.py
  printf 'def add(a, b):\n    return a + b\n' > src/calcpkg/calc.py
  printf 'from calcpkg.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf '__pycache__/\n.harness/local/\n' > .gitignore
  ( git init -q -b main && harness init && harness install ) >/dev/null 2>&1 || return 2
  "$V/bin/python" - "$V/bin/python" <<'PY' || return 2
import sys, yaml
c = yaml.safe_load(open(".harness/config.yaml"))
c["evidence"] = {"unit_test": {"command": [sys.argv[1], "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                           "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}}
yaml.safe_dump(c, open(".harness/config.yaml", "w"), sort_keys=False)
PY
  ( git add -A && git commit -qm base && harness task new "add sub" ) >/dev/null 2>&1 || return 2
  mkdir -p "$(dirname "$2")"; printf 'def sub(a, b):\n    return a - b\n' > "$2"
  printf '%s\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' "$3" > tests/test_sub.py
  ( harness requirement add "sub(a, b) returns a - b" --priority must && harness evidence unit_test \
    && harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_sub.py::test_sub \
  ) >/dev/null 2>&1 || return 2
  harness evidence fail_to_pass > "$T/$1.f2p" 2>&1; echo "exit $?" >> "$T/$1.f2p"
  harness gate --json > "$T/$1.gate" 2>/dev/null
  return 0
}
blocked() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('\n'.join(b for b in d.get('blockers',[]) if b.startswith('REQ-001')))" "$T/$1.gate"; }
setup control src/calcpkg/sub.py "from calcpkg.sub import sub" || exit 2
[ -s "$T/control.gate" ] || { echo "setup: no gate output"; exit 2; }
if [ -n "$(blocked control)" ]; then echo "setup: the control is blocked:"; blocked control; exit 2; fi
setup toplevel src/subtool.py "from subtool import sub" || exit 2
if grep -q "exit 2" "$T/toplevel.f2p" && grep -q "imports \`subtool\` from" "$T/toplevel.f2p"; then
  echo "OK: the run was refused naming the editable install"; exit 0
fi
b=$(blocked toplevel)
if [ -n "$b" ]; then
  echo "DEFECT: the base run imported src/subtool.py from the checkout; the honest change is blocked:"; echo "$b"
  tail -3 "$T/toplevel.f2p"; exit 1
fi
echo "OK: the top-level module is measured from the worktree"; exit 0
