#!/usr/bin/env bash
# Defect (harness/core/suite.py package_inits with harness/core/runner_texts.py relative_reached, used by
# harness/evidence/pass_to_pass.py run_by_runners/_Tested; bbb614e8, 928c670a, bb6e2fe1): PASS_TO_PASS puts back,
# as the base has it, every package `__init__.py` pytest's walk runs on the way up from a base test module unless
# the base's tests "reach" it; but a relative import `from ..core import average` counts only `core.py` as reached,
# not the package `..` names, whose `__init__.py` Python runs to import `stats.core` (as `from stats.core import
# average` would: that form does count it). So in the common layout of a package holding its own tests
# (Django's `app/tests/test_models.py` doing `from ..models import X`, here src/stats/tests/test_core.py), the
# package's own `__init__.py` -- code under test, shipped and run by every import of the package -- is measured as
# the base has it. An honest change that drops a deprecated module and its import from `src/stats/__init__.py`
# fails PASS_TO_PASS: the base's `__init__.py` is put back beside the change's tree and imports the removed module,
# so the base's test_average errors. The same change passes when the test imports `from stats.core import average`.
# The same with `importlib.import_module('..core', __package__)` (a second line below).
# Correct behaviour: a relative import `from ..mod import y` reaches the package the dots name (its `__init__.py`
# runs before `mod`, as for the absolute form); src/stats/__init__.py is measured as the change has it and
# pass_to_pass passes.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
log=$T/log

# build REPO IMPORT: a base with src/stats (its tests inside it) whose test imports core as IMPORT, then the change
build() {
  local D=$T/$1 import=$2
  setup() { "$@" >>"$log" 2>&1 || { echo "setup failed: $*"; tail -20 "$log"; exit 2; }; }
  mkdir -p "$D"; cd "$D" || exit 2
  setup git init -q --bare remote.git
  setup git init -q -b main app; cd app || exit 2; setup git remote add origin ../remote.git
  mkdir -p src/stats/tests .harness
  printf 'from .core import average\nfrom .legacy import mean_old\n' > src/stats/__init__.py
  printf 'def average(xs):\n    return sum(xs) / len(xs)\n' > src/stats/core.py
  printf 'def mean_old(xs):\n    return sum(xs) / len(xs)\n' > src/stats/legacy.py
  : > src/stats/tests/__init__.py
  printf '%s\n\n\ndef test_average():\n    assert average([1, 2, 3, 6]) == 3\n' "$import" > src/stats/tests/test_core.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "src", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  setup python -m pytest -q -p no:cacheprovider src
  setup harness init; setup harness install; setup git add -A; setup git commit -qm init
  setup git push -q origin main; setup git remote set-head origin main
  setup harness task new "Add median, drop the deprecated mean_old"
  setup harness requirement add "median(xs) returns the middle value" --priority must
  for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do setup harness transition $s; done
  # the honest change: legacy.py and its import go, median comes
  git rm -q src/stats/legacy.py
  printf 'from .core import average, median\n' > src/stats/__init__.py
  printf 'def average(xs):\n    return sum(xs) / len(xs)\n\n\ndef median(xs):\n    return sorted(xs)[len(xs) // 2]\n' > src/stats/core.py
  setup python -m pytest -q -p no:cacheprovider src
}

build absolute "from stats.core import average"
control=failed; harness evidence pass_to_pass >>"$log" 2>&1 && control=passed
echo "pass_to_pass with the test importing 'from stats.core import average': $control"
[ "$control" = passed ] || { echo "setup failed: the control (absolute import) did not pass"; tail -20 "$log"; exit 2; }
rel=passed; n=0
for import in "from ..core import average" \
              "import importlib; average = importlib.import_module('..core', __package__).average"; do
  n=$((n + 1)); build "relative$n" "$import"
  got=failed; harness evidence pass_to_pass >"$T/rel$n.log" 2>&1 && got=passed
  cat "$T/rel$n.log" >>"$log"
  echo "pass_to_pass with the test importing '$import': $got"
  [ "$got" = failed ] && { rel=failed; grep -i -m2 "mean_old\|lost:" "$T/rel$n.log" | cut -c1-300; }
done
if [ "$rel" = failed ]; then
  echo "DEFECT: the package's own __init__.py, run by the base test's relative import of stats.core, was put back as"
  echo "        the base has it: an honest change to src/stats/__init__.py fails PASS_TO_PASS"
  exit 1
fi
echo "fixed: the package __init__.py a relative import runs is measured as the change has it"; exit 0
