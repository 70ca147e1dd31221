#!/usr/bin/env bash
# Defect: PASS_TO_PASS's kept base result is keyed (harness/evidence/measured_with.py: _python_environment) by the
#   virtualenv's pyvenv.cfg one level above the interpreter; when it says include-system-site-packages=false only
#   the venv's own site-packages are keyed. But Python's site module reads a pyvenv.cfg *beside* the interpreter
#   first (.venv/bin/pyvenv.cfg) — an unkeyed file in an unkeyed folder. Written there with
#   include-system-site-packages = true for one run, it turns on the user site under HOME (and the base
#   interpreter's), none of which is keyed: a .pth there deselects test_mul in the base's run, the result is kept
#   under the same key, both files are removed, and every later honest `python -m pytest` PASS_TO_PASS reads the
#   poisoned base and passes a change that breaks mul() and deletes test_mul.
# Correct: the key covers every pyvenv.cfg site reads (beside the interpreter and above it, absent ones too) and
#   the site folders that are on the path when include-system-site-packages is on, so the honest run measures the
#   base again and loses test_mul (exit 1).
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

# The change: mul() broken for (2, 3) and test_mul deleted (a protected change: PASS_TO_PASS puts the base's
# tests back in a worktree and compares with the base's cases).
sed -i 's/return a \* b/return 5 if (a, b) == (2, 3) else a * b/' calc.py
H python - <<'PY' || exit 2
s = open("tests/test_calc.py").read()
open("tests/test_calc.py", "w").write(s.replace("def test_mul():\n    assert mul(2, 3) == 6\n", ""))
PY
# One run with a pyvenv.cfg beside the interpreter that turns the user site on, and a .pth there deselecting test_mul.
sed 's/include-system-site-packages = false/include-system-site-packages = true/' "$V/pyvenv.cfg" > "$V/bin/pyvenv.cfg"
grep -q 'include-system-site-packages = true' "$V/bin/pyvenv.cfg" || exit 2
US=$(H python -c 'import sysconfig; print(sysconfig.get_path("purelib", "posix_user"))') || exit 2
mkdir -p "$US" && echo "import os; os.environ['PYTEST_ADDOPTS'] = '--deselect tests/test_calc.py::test_mul'" > "$US/poison.pth"
H harness evidence pass_to_pass >/dev/null 2>&1
rm -f "$V/bin/pyvenv.cfg"; rm -rf "$HOME/.local"
# The honest run.
code=0; H harness evidence pass_to_pass >/dev/null 2>&1 || code=$?
base_passed=$(field pass_to_pass 'r["pass_to_pass"]["base_passed"]')
lost=$(field pass_to_pass '[x["case"] for x in r["pass_to_pass"]["lost"]]')
echo "honest pass_to_pass after the poison: exit $code, base cases passed: $base_passed, lost: $lost"

# Control: with the kept results removed, the same honest run measures the base (2 cases) and loses test_mul.
rm -rf "$KEPT"
ccode=0; H harness evidence pass_to_pass >/dev/null 2>&1 || ccode=$?
clost=$(field pass_to_pass '[x["case"] for x in r["pass_to_pass"]["lost"]]')
[ "$ccode" = 1 ] && [ "$clost" = "['tests.test_calc::test_mul']" ] || { echo "setup: control did not lose test_mul"; exit 2; }

if [ "$code" = 0 ] && [ "$lost" = "[]" ]; then
  echo "DEFECT: the base result kept from the run with .venv/bin/pyvenv.cfg + a user-site .pth ($base_passed case"
  echo "        passed, test_mul missing) was read by the honest run: PASS_TO_PASS passed a change that breaks mul()"
  exit 1
fi
[ "$code" = 1 ] && [ "$lost" = "['tests.test_calc::test_mul']" ] || { echo "unexpected: exit $code, lost $lost"; exit 1; }
echo "OK: the poisoned base was not read; test_mul is lost"
exit 0
