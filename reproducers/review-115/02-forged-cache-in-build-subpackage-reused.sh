#!/usr/bin/env bash
# Defect: the suite's bytecode caches are cleared before the checkout's test run, and a run is reused by PASS_TO_PASS
#   only when no cache is older than it (harness/evidence/suite_caches.py: clear, caches, shaped_by) — but the walk
#   skips every folder named build, dist, venv, node_modules or site-packages (_NEVER_COLLECTED) at any depth, so
#   the caches of a tracked subpackage called `build` (mypkg/build/) are neither cleared nor checked. A forged
#   mypkg/build/__pycache__/ops.cpython-311.pyc (header matching the broken source's mtime and size, code of the old
#   one) makes the unit_test run pass on broken code, the run is recorded `reusable`, and PASS_TO_PASS passes.
# Correct: caches under any folder Python imports from are cleared and checked (skip only folders not on the
#   import path, or judge by whether a tracked .py sits beside the __pycache__), so the run is not reused and
#   PASS_TO_PASS loses tests.test_ops::test_mul2 (exit 1).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
extra_base() {
  mkdir -p mypkg/build && touch mypkg/__init__.py mypkg/build/__init__.py
  printf 'def mul(a, b):\n    return a * b\n' > mypkg/build/ops.py
  printf 'from mypkg.build.ops import mul\n\n\ndef test_mul2():\n    assert mul(3, 3) == 9\n' > tests/test_ops.py
}
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
T=$(mktemp -d) || exit 2
KEPT=""
trap 'rm -rf "$T"; [ -n "$KEPT" ] && rm -rf "$KEPT"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
# A small virtualenv for the project (its site-packages borrows pytest from the harness's own), so nothing of
# /work/main/.venv is touched.
V="$T/venv"
"$here"/.venv/bin/python -m venv --without-pip "$V" || exit 2
SITE=$(ls -d "$V"/lib/python*/site-packages) || exit 2
"$here"/.venv/bin/python -c 'import sys; print("\n".join(p for p in sys.path if p.endswith("site-packages")))' \
  > "$SITE/borrowed.pth" || exit 2
# PASS_TO_PASS reuses a test run only when its environment held nothing beyond what its clean run keeps
# (F-0391): every harness command here runs in a developer's plain environment.
H() { env -i PATH="$V/bin:$here/.venv/bin:/usr/bin:/bin" HOME="$HOME" "$@"; }
R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q -b main && git config user.name a && git config user.email a@b || exit 2
mkdir tests
printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py
printf 'from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n# %s\n' "$(basename "$T")" > tests/test_calc.py
printf '__pycache__/\n' > .gitignore
H harness init >/dev/null 2>&1 || exit 2
CMD=${CMD:-'["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]'}
H python - "$CMD" <<'PY' || exit 2
import json, sys, yaml
c = yaml.safe_load(open(".harness/config.yaml"))
c["evidence"] = {"unit_test": {"command": json.loads(sys.argv[1]), "junit": ".harness/local/junit.xml"}}
yaml.safe_dump(c, open(".harness/config.yaml", "w"), sort_keys=False)
g = yaml.safe_load(open(".harness/gate.yaml"))
g["gate"]["verification"]["pass_to_pass"] = "required"
g["gate"]["suite"] = {"paths": ["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"]}
yaml.safe_dump(g, open(".harness/gate.yaml", "w"), sort_keys=False)
PY
H harness install >/dev/null 2>&1 || exit 2
if type extra_base >/dev/null 2>&1; then extra_base || exit 2; fi
git add -A && git commit -qm base || exit 2
TID=$(H harness task new t 2>/dev/null) || exit 2
# Where this user keeps the base's measured cases (outside the repository, by root commit): removed on exit.
KEPT=$(H python -c 'import pwd, os; print(pwd.getpwuid(os.getuid()).pw_dir)')/.cache/engineering-harness/pass_to_pass/$(git rev-list --max-parents=0 HEAD)
field() { H python -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"r": r}))' \
  ".harness/tasks/$TID/evidence/$1.json" "$2"; }

# Control: this environment allows reuse at all (an honest run is reused).
H harness evidence unit_test >/dev/null 2>&1 || exit 2
H harness evidence pass_to_pass >/dev/null 2>&1 || exit 2
[ "$(field pass_to_pass 'r["pass_to_pass"]["reused_run"] is not None')" = True ] || { echo "setup: no reuse at all"; exit 2; }

# The forged cache: compiled from the good source, then the source broken with the same size and mtime.
rm -rf mypkg/build/__pycache__
touch -d 2020-01-01 mypkg/build/ops.py
H python -c 'import py_compile; py_compile.compile("mypkg/build/ops.py", invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)' || exit 2
sed -i 's/return a \* b/return a + b/' mypkg/build/ops.py && touch -d 2020-01-01 mypkg/build/ops.py
H harness evidence unit_test >/dev/null 2>&1   # passes while the forged cache runs, not the source
echo "unit_test in the checkout: $(field unit_test 'r["outcome"]')"
code=0; H harness evidence pass_to_pass >/dev/null 2>&1 || code=$?
reused=$(field pass_to_pass 'r["pass_to_pass"]["reused_run"]')
lost=$(field pass_to_pass '[x["case"] for x in r["pass_to_pass"]["lost"]]')
echo "pass_to_pass exit $code, reused run: $reused, lost: $lost"

# Control: without the forged cache the same source tree fails test_mul2.
rm -rf mypkg/build/__pycache__
H harness evidence unit_test >/dev/null 2>&1
[ "$(field unit_test 'r["outcome"]')" = failed ] || { echo "setup: the broken source does not fail"; exit 2; }

if [ "$code" = 0 ]; then
  echo "DEFECT: PASS_TO_PASS passed by reusing run $reused, which ran a forged mypkg/build/__pycache__ cache"
  echo "        (never cleared nor checked: the walk skips folders named build) instead of the broken source"
  exit 1
fi
[ "$lost" = "['tests.test_ops::test_mul2']" ] || { echo "unexpected: exit $code, lost $lost"; exit 1; }
echo "OK: the run was not reused; test_mul2 is lost"
exit 0
