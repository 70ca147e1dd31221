#!/usr/bin/env bash
# Defect: FAIL_TO_PASS imports a module the change adds to a root-level namespace package (a flat layout, no
#   __init__.py: `calcpkg/`) from the repository's checkout when the project is installed editable (a `.pth` naming
#   the checkout's root, as hatchling writes for a flat layout). harness/evidence/tree_imports.py probed() only takes
#   namespaced() names from src/ and the `pythonpath` folders; of the root it takes importable() alone (regular
#   packages and modules), so `calcpkg.sub` is never asked about and never hidden (hide_checkout_only), although
#   docs/suite.md promises the checkout's "root's" names, "namespace packages and what they hold included", are
#   asked about and hidden (F-0277). calcpkg.__path__ spans the worktree and the checkout, the change's new test
#   passes "without the change", and the gate blocks an honest change: "REQ-001: test ... passes without the change".
#   (Control, same script: with calcpkg a regular package the same honest change is not blocked.)
# Correct: calcpkg.sub is hidden in the FAIL_TO_PASS run (ModuleNotFoundError, as on a machine with only the base),
#   the new test fails there and proves REQ-001: no fail_to_pass blocker.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"

# $1: "ns" (calcpkg without __init__.py) or "regular". Prints the fail_to_pass blockers of REQ-001, or SETUP-FAILED.
honest_change() {
  local R="$T/repo-$1" PY="$T/venv-$1/bin/python" SITE
  mkdir "$R" && cd "$R" || return 2
  "$here/.venv/bin/python" -m venv --system-site-packages "$T/venv-$1" || return 2
  SITE=$("$PY" -c 'import site; print(site.getsitepackages()[0])') || return 2
  mkdir -p calcpkg tests
  [ "$1" = regular ] && : > calcpkg/__init__.py
  printf '[project]\nname = "calcpkg"\nversion = "0.1"\n' > pyproject.toml
  printf 'def add(a, b):\n    return a + b\n' > calcpkg/calc.py
  printf 'from calcpkg.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf '__pycache__/\n' > .gitignore
  printf '%s\n' "$R" > "$SITE/_calcpkg.pth"          # the editable install of a flat layout: the checkout's root
  ( git init -q -b main && harness init && cat > .harness/config.yaml <<EOF
version: 1
evidence:
  build:
    command: ["$PY", "-m", "compileall", "-q", "calcpkg"]
  unit_test:
    command: ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
EOF
    harness install && git add -A && git commit -qm init && harness task new "add sub" && git add -A \
    && git commit -qm task ) >/dev/null 2>&1 || { echo SETUP-FAILED; return; }
  # The honest change: a new module and its test, which fails without the module.
  printf 'def sub(a, b):\n    return a - b\n' > calcpkg/sub.py
  printf 'from calcpkg.sub import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n' > tests/test_sub.py
  ( for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done
    harness requirement add "sub(a, b) returns a - b" --priority must && harness evidence unit_test \
    && harness requirement set REQ-001 --status verified --evidence unit_test --tests tests/test_sub.py::test_sub \
    && harness evidence fail_to_pass ) >/dev/null 2>&1 || { echo SETUP-FAILED; return; }
  harness gate --json 2>/dev/null | python3 -c 'import json,sys
try:
    d = json.load(sys.stdin); assert isinstance(d["blockers"], list)
except Exception:
    print("SETUP-FAILED"); sys.exit()
print("|".join(b for b in d["blockers"] if b.startswith("REQ-001")))'
}

control=$(honest_change regular)
[ "$control" = "" ] || { echo "setup: the control (regular package) is blocked or failed: $control"; exit 2; }
got=$(honest_change ns)
[ "$got" = SETUP-FAILED ] && { echo "setup failed"; exit 2; }
if [ -z "$got" ]; then
  echo "FIXED: calcpkg.sub is not imported from the checkout in FAIL_TO_PASS; the honest change's test proves REQ-001"
  exit 0
fi
echo "DEFECT: FAIL_TO_PASS imported calcpkg.sub (the change's new module) from the checkout through the root"
echo "        namespace package's __path__; the gate blocks the honest change: $got"
exit 1
