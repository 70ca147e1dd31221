#!/bin/bash
# plain_yaml reads a quoted value followed by a comment and then deeper-indented lines, silently
# dropping those lines; PyYAML (the reader before 615f161..HEAD, and still the fallback) refuses the
# file as malformed. E.g. a task file `state: 'VERIFYING' # x` + `  state: DONE`.
# exit 1: the defect exists; 0: fixed; 2: setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd)  # the repository these reproducers live in
export HARNESS_REPO="$here"
export PATH="$here/.venv/bin:$PATH"
cd /tmp || exit 2
python - <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["HARNESS_REPO"])
try:
    import yaml
    from harness.store import yamlio
    from harness.errors import HarnessError
except Exception as e:
    print("setup:", e); sys.exit(2)
cases = [
    "state: 'VERIFYING' # x\n  state: DONE\n",
    "a: 'b'\n  # c\n  x\nc: d\n",
    "a: 'foo\n  bar' # c\n  baz: 1\n",
    "- 'a' # x\n  - b\n",
]
bad = 0
for text in cases:
    try:
        yaml.load(text, Loader=yamlio._loaders()[1]); pyyaml = "accepts"
    except yaml.YAMLError:
        pyyaml = "refuses"
    try:
        got = yamlio.parse(text.encode(), ".harness/tasks/T-0001/task.yaml"); harness = f"reads {got!r}"
    except HarnessError as e:
        harness = "refuses"
    if pyyaml == "refuses" and harness != "refuses":
        bad += 1
        print(f"DISAGREE {text!r}: PyYAML refuses, yamlio.parse {harness}")
sys.exit(1 if bad else 0)
PY
rc=$?
[ $rc -eq 2 ] && exit 2
# End to end: the commit check accepts a staged task.yaml holding `state: 'CREATED' # reviewed` and,
# under it, `    state: DONE` (at 615f161 it refused: "malformed YAML: did not find expected key").
D=$(mktemp -d) || exit 2
trap 'rm -rf "$D"' EXIT
cd "$D" && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init || exit 2
harness init >/dev/null 2>&1 && harness task new "x" >/dev/null 2>&1 || exit 2
git add -A && git -c user.name=t -c user.email=t@t -c core.hooksPath=/dev/null commit -qm "harness init" || exit 2
f=$(ls .harness/tasks/*/task.yaml) || exit 2
python - "$f" <<'PY' || exit 2
import sys
p = sys.argv[1]; t = open(p).read()
assert "  state: CREATED\n" in t
open(p, "w").write(t.replace("  state: CREATED\n", "  state: 'CREATED' # reviewed\n    state: DONE\n"))
PY
git add -A || exit 2
out=$(harness hook run pre-commit 2>&1); hrc=$?
echo "pre-commit check on the edited task.yaml: exit $hrc ${out:+($out)}"
[ $hrc -eq 0 ] && exit 1
exit $rc
