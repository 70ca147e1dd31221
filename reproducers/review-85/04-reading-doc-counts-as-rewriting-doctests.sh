#!/usr/bin/env bash
# Defect (false positive): F-0290's guard (harness/core/doctests.py _walk()/_sets_a_docstring()) records as "a
#   statement that sets a docstring at run time" any statement whose names include `__doc__` — reading it too. An
#   honest change that adds a CLI entry point reading the module's docstring, `argparse.ArgumentParser(
#   description=__doc__)`, to a module whose doctests the base ran marks *every* doctest of the module as rewritten
#   (calc::calc.mul "its doctest examples changed in calc.py"): PASS_TO_PASS fails and the task cannot reach DONE
#   without a human's `approve suite-change`, though no example and no docstring changed.
# Correct: only a statement that assigns/sets `__doc__` or `__test__` (a target, setattr/update_wrapper/wraps call)
#   counts; reading `__doc__` leaves the doctests as they were, and the task reaches DONE like the control (the same
#   change with a literal description).
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
git add -A && git commit -qm base && start_task || exit 2

add_cli() {  # the honest change: a command line for calc
cat >> calc.py <<PY


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=$1)
    parser.add_argument("a", type=int)
    parser.add_argument("b", type=int)
    args = parser.parse_args(argv)
    print(mul(args.a, args.b))
PY
}
echo "== control: a CLI with a literal description"
add_cli '"Arithmetic."'
finish || { echo "setup: the control did not reach DONE"; exit 2; }

echo "== the same CLI taking its description from the module's docstring (description=__doc__)"
git add -A && git commit -qm "calc CLI" >/dev/null 2>&1 || exit 2
harness task new "calc CLI from the docstring" >/dev/null 2>&1 || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null 2>&1 || exit 2; done
sed -i 's/description="Arithmetic."/description=__doc__/' calc.py
if finish; then echo "OK: reading __doc__ changed no doctest"; exit 0; fi
echo "DEFECT: reading the module's __doc__ counted as rewriting calc.mul's doctest; DONE needs a human's approval"
exit 1
