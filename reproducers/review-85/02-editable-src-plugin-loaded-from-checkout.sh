#!/usr/bin/env bash
# Defect: F-0291 protects the module of the project's own `pytest11` entry point "in a src/ layout"
#   (core/pytest_startup.py module_files() adds src/…; pass_to_pass puts src/calcpkg/plugin.py back in the worktree),
#   but with the editable install that hands pytest that entry point, the worktree run never imports the worktree's
#   copy: evidence/pass_to_pass.py inside() puts only the worktree's root first on PYTHONPATH, so `calcpkg.plugin` is
#   imported through the editable .pth from the *checkout's* src/ — the agent's rewritten plugin. A plugin edited to
#   turn failures into passes plus a broken mul() reaches DONE: "1 protected file(s) put back", 2 passed.
# Correct: the worktree run loads the base's plugin (the worktree's src/ on the path before the checkout's, as CI's
#   re-run puts the tree in the checkout's place), so test_mul is lost and the gate blocks, as in the control.
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
python3 -m venv --system-site-packages "$T/venv" >/dev/null 2>&1 || exit 2
V="$T/venv/bin/python"
# hatchling (the build backend) read from the harness's own environment; nothing is written there
echo "$("$here/.venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")" > "$("$V" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/zz-backend.pth" || exit 2
mkdir -p src/calcpkg tests
: > src/calcpkg/__init__.py
printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > src/calcpkg/calc.py
printf '"""The project'"'"'s pytest plugin."""\nimport pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n' > src/calcpkg/plugin.py
printf 'from calcpkg.calc import add, mul\n\n\ndef test_add(two):\n    assert add(two, 3) == 5\n\n\ndef test_mul(two):\n    assert mul(two, 3) == 6\n' > tests/test_calc.py
cat > pyproject.toml <<'PY'
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "calcpkg"
version = "0.1"

[project.entry-points.pytest11]
calc = "calcpkg.plugin"

[tool.hatch.build]
# the editable install writes a .pth naming src/, as setuptools' editable install of a src layout does
dev-mode-dirs = ["src"]
PY
printf '__pycache__/\n.harness/local/\n' > .gitignore
"$V" -m pip install -q --no-deps --no-build-isolation -e . >"$T/pip.log" 2>&1 || { cat "$T/pip.log"; exit 2; }
configure "$V"
git add -A && git commit -qm base && start_task || exit 2
# the base's cases are measured on the clean tree first (the base passes 2 cases), so only the plugin matters below
harness evidence pass_to_pass >"$T/warm.out" 2>&1 || { cat "$T/warm.out"; exit 2; }
grep -q "2 case(s) passed there" "$T/warm.out" || { cat "$T/warm.out"; exit 2; }
sed -i 's/return a \* b/return a + b/' src/calcpkg/calc.py     # the bug: mul(2, 3) == 5

echo "== control: mul() broken, nothing else"
if finish; then echo "setup: a broken mul() reached DONE with no tampering"; exit 2; fi

echo "== attack: the project's own pytest11 plugin (src/calcpkg/plugin.py) also turns failures into passes"
printf '\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n    if report.failed:\n        report.outcome, report.longrepr = "passed", None\n' >> src/calcpkg/plugin.py
harness task new "make mul faster, again" >/dev/null 2>&1 || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s >/dev/null 2>&1 || exit 2; done
if finish; then
  echo "DEFECT: the base's plugin was 'put back' in the worktree, but pytest loaded the checkout's rewritten one: DONE with mul() broken"
  exit 1
fi
echo "OK: the worktree run loaded the base's plugin"
exit 0
