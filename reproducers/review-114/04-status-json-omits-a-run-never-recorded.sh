#!/usr/bin/env bash
# Defect: `harness status` prints, under Evidence, "unit_test UNKNOWN — a run started and never recorded its outcome"
#   for a run that was killed before it recorded anything, but `harness status --json` has no such field:
#   StatusView.as_dict() (harness/task/status.py) leaves out StatusView.pending, so its "evidence" object shows
#   only the older record, "unit_test": {"outcome": "passed", "freshness": "FRESH"}, the opposite of what the text
#   and the gate say (the gate blocks on the unknown outcome). A machine reading status --json sees a fresh pass.
# Correct: status --json carries what the text shows: the runs never recorded (e.g. a "pending" list, or the type's
#   freshness UNKNOWN in "evidence"), so an agent reading JSON does not take the evidence for fresh and passing.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2
HP=""
cleanup() { [ -n "$HP" ] && kill -9 "$HP" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML' || exit 2
version: 1
evidence:
  build:
    command: ["true"]
  unit_test:
    command: ["true"]
YAML
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
( harness requirement add r1 --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done \
  && harness evidence build && harness evidence unit_test ) >/dev/null 2>&1 || exit 2
# a second unit_test run, killed (SIGKILL) before it records its outcome; the sleep it started is left to end
harness evidence unit_test -- python3 -c 'import time; time.sleep(8)' >/dev/null 2>&1 &
HP=$!
for _ in $(seq 50); do harness status 2>/dev/null | grep -q 'UNKNOWN' && break; sleep 0.2; done
kill -9 "$HP" 2>/dev/null; wait "$HP" 2>/dev/null; HP=""
text=$(harness status 2>/dev/null | grep 'unit_test UNKNOWN')
[ -n "$text" ] || { echo "setup: no pending run shown"; exit 2; }
echo "status (text): $text"
harness status --json > "$T/s.json" 2>/dev/null || exit 2
python3 - "$T/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d["evidence"].get("unit_test")
print("status --json evidence.unit_test:", {k: e[k] for k in ("outcome", "freshness")} if e else None)
blob = json.dumps({k: v for k, v in d.items() if k not in ("gate_now", "next")})
shown = "UNKNOWN" in blob or "never recorded" in blob or '"pending"' in blob
sys.exit(0 if shown else 1)
PY
if [ $? = 0 ]; then echo "OK: status --json reports the run never recorded"; exit 0; fi
echo "DEFECT: the text shows a unit_test run of unknown outcome; status --json shows only a FRESH pass"
exit 1
