#!/usr/bin/env bash
# Defect: harness/findings/shadow_env.py (e77e124f, read 159's F-0556 fix) still links every entry of the real
#   environment outside bin/ and the site folders' path to the real one (`_Mirror.folder`: "every other entry a link
#   to the real one"): the real .venv's `share/` (and `include/`, `etc/`), where pip installs a wheel's data files
#   (`*.data/data/share/...`: jupyter extensions, man pages, desktop files) and headers. A `pip install` run in the
#   throw-away checkout of `harness finding regression --failing-at REV` (a test command that installs the old
#   commit's pinned requirements) writes those files through the shadow's `share` link INTO THE PROJECT'S REAL
#   .venv: its share/dep/VERSION now says the version the old commit pinned, while the real site-packages keeps the
#   other. The module docstring promises "Nothing is written into the real environment: a `pip install` in the
#   checkout installs into the shadow" (read 159's F-0556: the same write-through, by the site folder's links).
# Correct: nothing a run in the checkout installs writes into the real environment (a folder pip installs into is
#   the shadow's own, or the run refused): after the regression run the real .venv's share/dep/VERSION is what it was.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CONFIG_FILE=/dev/null
q() { "$@" >/dev/null 2>&1; }
wheel() {  # $1 version -> vendor/dep-$1-py3-none-any.whl (a pure-Python wheel made by hand)
  python3 - "$1" <<'PY' || exit 2
import sys, zipfile
v = sys.argv[1]
with zipfile.ZipFile(f"vendor/dep-{v}-py3-none-any.whl", "w") as z:
    z.writestr("dep/__init__.py", f"VERSION = {v!r}\n")
    z.writestr(f"dep-{v}.dist-info/METADATA", f"Metadata-Version: 2.1\nName: dep\nVersion: {v}\n")
    z.writestr(f"dep-{v}.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: by-hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    z.writestr(f"dep-{v}.data/data/share/dep/VERSION", f"{v}\n")
    z.writestr(f"dep-{v}.dist-info/RECORD", f"dep/__init__.py,,\ndep-{v}.data/data/share/dep/VERSION,,\ndep-{v}.dist-info/METADATA,,\ndep-{v}.dist-info/WHEEL,,\ndep-{v}.dist-info/RECORD,,\n")
PY
}
mkdir vendor && wheel 0.9 && wheel 1.0
printf 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return sum(a for _ in range(b))\n' > calc.py
printf 'import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n' > test_calc.py
printf '__pycache__/\n.venv/\n' > .gitignore
echo "vendor/dep-0.9-py3-none-any.whl" > requirements.txt   # the old commit pins dep 0.9
python3 -m venv .venv || exit 2
q .venv/bin/python -m pip install vendor/dep-1.0-py3-none-any.whl || { echo "setup: pip install failed"; exit 2; }
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') || exit 2
printf 'import sys, calc; sys.exit(calc.mul(3, -2) != -6)\n' > repro.py
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "calc.py"]
  unit_test:
    command: ["python3", "-m", "unittest", "-q"]
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
q harness task new "Harden mul" || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING || exit 2
cat > "$T/f.yaml" <<'YAML'
findings:
  - severity: major
    category: correctness
    title: mul() is wrong for a negative multiplier
    claim: range(b) is empty for b < 0
    location: {file: calc.py}
    failure_scenario: ["call mul(3, -2)"]
    expected_behavior: returns -6
    recommended_reproducer:
      type: unit_test
      description: compare with the * operator
      command: ["python3", "repro.py"]
YAML
q harness finding propose --file "$T/f.yaml" && q harness finding reproduce F-0001 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: F-0001 not confirmed"; exit 2; }
printf 'import unittest\nfrom calc import mul\n\nclass T(unittest.TestCase):\n    def test_neg(self):\n        self.assertEqual(mul(3, -2), -6)\n' > test_mul_neg.py
git add -A && q git commit -m "F-0001 confirmed; its regression test (failing)" || exit 2
BEFORE=$(git rev-parse HEAD)
sed -i 's/    return sum(a for _ in range(b))/    return a * b/' calc.py
echo "vendor/dep-1.0-py3-none-any.whl" > requirements.txt
git add -A && q git commit -m "the fix; dep 1.0" || exit 2
data=".venv/share/dep/VERSION"
before=$(cat "$data" 2>/dev/null)
[ "$before" = "1.0" ] || { echo "setup: the real .venv's share/dep/VERSION is not 1.0: $before"; exit 2; }
[ -d .venv/share ] && [ ! -L .venv/share ] || { echo "setup: the real .venv has no share folder of its own"; exit 2; }
# The test command sets the checkout's environment up as that commit pins it, then runs the test.
harness finding regression F-0001 test_mul_neg.py --failing-at "$BEFORE" -- \
  sh -c '.venv/bin/python -m pip install -q -r requirements.txt && .venv/bin/python -m unittest -q test_mul_neg.py' >"$T/out" 2>&1
echo "regression --failing-at exit $?"
after=$(cat "$data" 2>/dev/null)
if [ "$after" != "$before" ]; then
  echo "DEFECT: the run in the throw-away checkout wrote into the project's real .venv:"
  echo "        $R/$data was \"$before\", is now \"$after\" (real site-packages' dep: $(cat "$site/dep/__init__.py"))"
  exit 1
fi
echo "ok: the real .venv's share/dep/VERSION is untouched ($after)"
exit 0
