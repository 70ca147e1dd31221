#!/usr/bin/env bash
# Defect: PASS_TO_PASS reuses the checkout's unit_test run although a git-ignored package (calc/__init__.py, in
#   .git/info/exclude) shadowed the tracked module under test (calc.py) while it ran. The run's `reusable` verdict
#   (harness/evidence/suite_caches.py: RunWatch -> shaped_by) only counts ignored files the suite protects, package
#   metadata naming a pytest plugin and modules shadowing pytest's/the stdlib's, never an ignored module or package
#   that Python imports in place of one the source tree holds. So broken committed code (mul(2, 3) == 5) passes
#   PASS_TO_PASS, reused from a run that tested other code (the ignored package), and the gate can pass on it.
# Correct: a run an ignored module/package/extension shadowing a tree module could have shaped is not reusable:
#   PASS_TO_PASS runs in a worktree and reports tests.test_calc::test_mul lost (exit 1).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
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

# The change: mul() broken in the tracked calc.py; a git-ignored package calc/ with the old code shadows it.
sed -i 's/return a \* b/return a + b/' calc.py
mkdir calc && printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > calc/__init__.py
echo 'calc/' >> .git/info/exclude
H harness evidence unit_test >/dev/null 2>&1   # passes: it imported calc/, not calc.py
code=0; H harness evidence pass_to_pass >/dev/null 2>&1 || code=$?
reused=$(field pass_to_pass 'r["pass_to_pass"]["reused_run"]')
lost=$(field pass_to_pass '[x["case"] for x in r["pass_to_pass"]["lost"]]')
echo "pass_to_pass exit $code, reused run: $reused, lost: $lost"

# Control: the same source tree, measured where no ignored file shadows it, loses test_mul.
H env EXTRA=1 harness evidence unit_test >/dev/null 2>&1   # a variable the clean run lacks: never reused
ccode=0; H harness evidence pass_to_pass >/dev/null 2>&1 || ccode=$?
clost=$(field pass_to_pass '[x["case"] for x in r["pass_to_pass"]["lost"]]')
[ "$ccode" = 1 ] && [ "$clost" = "['tests.test_calc::test_mul']" ] || { echo "setup: control did not lose test_mul"; exit 2; }

if [ "$code" = 0 ]; then
  echo "DEFECT: PASS_TO_PASS passed by reusing run $reused, whose import of calc came from the ignored calc/ package;"
  echo "        measured in a worktree the same tree loses tests.test_calc::test_mul"
  exit 1
fi
[ "$lost" = "['tests.test_calc::test_mul']" ] || { echo "unexpected: exit $code, lost $lost"; exit 1; }
echo "OK: the shadowed run was not reused; test_mul is lost"
exit 0
