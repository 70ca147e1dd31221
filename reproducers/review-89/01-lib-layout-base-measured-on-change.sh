#!/usr/bin/env bash
# Defect: PASS_TO_PASS's base run imports the CHANGE's code when the project is installed editable from a package
#   folder that is not `src/` nor a root pytest `pythonpath` folder (setuptools `package-dir = {"" = "lib"}`, poetry
#   `from = "lib"`, a uv-workspace member's `packages/x/src`). harness/evidence/tree_imports.py only knows src/, the
#   root configuration's `pythonpath` folders and the root (import_folders/_own_folders/probed): the worktree's lib/
#   is never put on PYTHONPATH, and `calcpkg` is never probed, so neither refuse_checkout_imports nor
#   hide_checkout_only sees that the base worktree imports calcpkg from the checkout's lib/ (the editable `.pth`).
#   The base is measured on the broken code, the broken test "failed at the base", is not protected, and a change
#   that breaks mul() and weakens its test gets pass_to_pass PASSED and walks to DONE with no suite-change approval.
# Correct: the base is measured on the base's code (lost: tests.test_calc::test_mul), or the run is refused
#   (exit 2, naming calcpkg and the editable install), as the docs promise for every worktree run.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
"$here/.venv/bin/python" -m venv --system-site-packages "$T/venv" || exit 2   # pytest from the harness's venv
PY="$T/venv/bin/python"
SITE=$("$PY" -c 'import site; print(site.getsitepackages()[0])') || exit 2
mkdir -p lib/calcpkg tests
cat > pyproject.toml <<'EOF'
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"
[project]
name = "calcpkg"
version = "0.1"
[tool.setuptools.package-dir]
"" = "lib"
EOF
: > lib/calcpkg/__init__.py
printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > lib/calcpkg/calc.py
printf 'from calcpkg.calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n' > tests/test_calc.py
printf '__pycache__/\n*.egg-info/\nbuild/\n' > .gitignore
# Exactly what `pip install -e .` (setuptools >= 64) writes for this layout: a .pth naming the checkout's lib/.
printf '%s\n' "$R/lib" > "$SITE/__editable__.calcpkg-0.1.pth"
( git init -q -b main && harness init && cat > .harness/config.yaml <<EOF
version: 1
evidence:
  build:
    command: ["$PY", "-m", "compileall", "-q", "lib"]
  unit_test:
    command: ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
EOF
  harness install && git add -A && git commit -qm init && harness task new "faster mul" && git add -A \
  && git commit -qm task ) >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
(cd / && "$PY" -c 'import calcpkg, sys; sys.exit(not calcpkg.__file__.startswith(sys.argv[1]))' "$R/lib") \
  || { echo "setup: editable install not effective"; exit 2; }

# The dishonest change: mul() broken, its test weakened to the broken value (no approval from a human).
sed -i 's/return a \* b/return a + b/' lib/calcpkg/calc.py
sed -i 's/== 6/== 5/' tests/test_calc.py
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s >/dev/null 2>&1 || exit 2; done
harness evidence build >/dev/null 2>&1 || exit 2
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: unit_test failed"; exit 2; }
out=$(harness evidence pass_to_pass 2>&1); rc=$?
rec=$(ls .harness/tasks/*/evidence/pass_to_pass.json 2>/dev/null | head -1)
if [ "$rc" = 2 ] && grep -q "calcpkg" <<<"$out"; then
  echo "FIXED: pass_to_pass refuses the run that would import calcpkg from the checkout (exit 2)"; exit 0
fi
[ -n "$rec" ] || { echo "setup: no pass_to_pass record (exit $rc)"; echo "$out" | tail -5; exit 2; }
summary=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pass_to_pass"]; print(p["base_passed"], ",".join(l["case"] for l in p["lost"]))' "$rec")
echo "pass_to_pass exit $rc; base_passed / lost: $summary"
if [ "$rc" = 1 ] && grep -q "tests.test_calc::test_mul" <<<"$summary"; then
  echo "FIXED: the base was measured on its own code and test_mul is lost"; exit 0
fi
harness transition REVIEWING >/dev/null 2>&1; harness transition GATING >/dev/null 2>&1
harness gate >/dev/null 2>&1 && harness converge --apply >/dev/null 2>&1 && harness transition DONE >/dev/null 2>&1 \
  && state=$(harness status 2>/dev/null | awk '$1=="State"{print $2; exit}')
echo "DEFECT: the base worktree imported calcpkg from the checkout's lib/ (the change's broken mul): test_mul"
echo "        'failed at the base', was not protected; pass_to_pass passed; task state: ${state:-not DONE} (no suite-change approval)"
exit 1
