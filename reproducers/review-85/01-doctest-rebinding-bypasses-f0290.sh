#!/usr/bin/env bash
# Defect: F-0290's doctest guard (harness/core/doctests.py: examples()/rewritten_doctests()) compares the examples
#   of each docstring by the *qualified name of the def that holds it*, and treats only `__doc__`/`__test__`/
#   `wraps`/`update_wrapper` statements as "a docstring set by code". A module-level rebinding `mul = _fast_mul`
#   (or any decorator returning another function) makes the base case `calc::calc.mul` run the examples of
#   _fast_mul's docstring (doctest's finder names the test by the module attribute, and skips the second name of
#   the same function object), so a change can break mul() and give its doctest the broken value while mul's own
#   docstring stays byte-identical: PASS_TO_PASS passes and the task reaches DONE without `approve suite-change`.
# Correct: the base case calc::calc.mul, whose examples as pytest runs them changed, is lost (as the direct rewrite
#   of mul's docstring is: the control) — e.g. count a module-level rebinding of a name whose doctest the base ran,
#   or a decorator that is not a known identity, as setting that docstring (EVERY), or compare the examples of the
#   object each base doctest name resolves to.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install ) >/dev/null 2>&1 || exit 2
configure() {  # configure PYTHON: build + unit_test (pytest, JUnit) + required pass_to_pass over the suite paths
python3 - "$1" <<'PY'
import sys, yaml
c = yaml.safe_load(open(".harness/config.yaml"))
c["evidence"] = {"build": {"command": [sys.argv[1], "-c", "pass"]},
                 "unit_test": {"command": [sys.argv[1], "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                           "--junitxml=.harness/local/junit.xml"], "junit": ".harness/local/junit.xml"}}
yaml.safe_dump(c, open(".harness/config.yaml", "w"), sort_keys=False)
g = yaml.safe_load(open(".harness/gate.yaml"))
g["gate"]["verification"]["pass_to_pass"] = "required"
g["gate"]["suite"] = {"paths": ["tests/**", "**/conftest.py", "pytest.ini", "pyproject.toml"]}
yaml.safe_dump(g, open(".harness/gate.yaml", "w"), sort_keys=False)
PY
}
start_task() { harness task new "make mul faster" >/dev/null 2>&1 && for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null 2>&1 || return 1; done; }
finish() {  # collect evidence and walk to DONE; prints each step's exit; returns 0 iff DONE
  harness transition VERIFYING >/dev/null 2>&1
  harness evidence build >/dev/null 2>&1; echo "evidence build: $?"
  harness evidence unit_test >/dev/null 2>&1; echo "evidence unit_test: $?"
  harness evidence pass_to_pass >"$T/p2p.out" 2>&1; echo "evidence pass_to_pass: $?"
  grep -E "PASS_TO_PASS|lost:|put back" "$T/p2p.out" | sed 's/^/    /'
  harness transition REVIEWING >/dev/null 2>&1; harness transition GATING >/dev/null 2>&1
  harness gate >"$T/gate.out" 2>&1; local g=$?; echo "gate: $g"
  [ $g -eq 0 ] || { grep -v "^Next\|^  *harness" "$T/gate.out" | head -8 | sed 's/^/    /'; return 1; }
  harness converge --apply >/dev/null 2>&1 && harness transition DONE >/dev/null 2>&1; local d=$?
  echo "transition DONE: $d"; return $d
}
setup_base() {
  cat > calc.py <<'PY'
"""Arithmetic."""


def add(a, b):
    return a + b


def mul(a, b):
    """Multiply.

    >>> mul(3, 3)
    9
    """
    return a * b
PY
  mkdir -p tests; printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf '[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n' > pyproject.toml
  printf '__pycache__/\n.harness/local/\n' > .gitignore
  configure "$here/.venv/bin/python"
  git add -A && git commit -qm base && start_task
}
setup_base || exit 2
base=$(git rev-parse HEAD)

echo "== control: mul() broken and its own docstring given the broken value"
python3 - <<'PY'
s = open("calc.py").read().replace("return a * b", "return a + b").replace("    9\n", "    6\n")
open("calc.py", "w").write(s)
PY
if finish; then echo "setup: the direct rewrite reached DONE; this harness has no F-0290 guard"; exit 2; fi

echo "== attack (fresh task, same base): mul() rebound to a function whose docstring holds the broken value"
git checkout -q -- calc.py && harness task new "make mul faster, again" >/dev/null 2>&1 || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null 2>&1 || exit 2; done
cat >> calc.py <<'PY'


def _fast_mul(a, b):
    """Multiply, the fast way.

    >>> mul(3, 3)
    6
    """
    return a + b


mul = _fast_mul
PY
echo "mul(3, 3) is now $(python3 -c 'import calc; print(calc.mul(3, 3))') (the base's doctest says 9)"
if finish; then
  echo "DEFECT: mul() broken, the base's doctest calc::calc.mul now runs other examples, and the task is DONE without approve suite-change"
  exit 1
fi
echo "OK: the rebinding was counted as a change of the doctest"
exit 0
