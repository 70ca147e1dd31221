#!/usr/bin/env bash
# Defect: read 64's F-0205 made user_password take curl's glued `-uUSER:PW` as `-u[ \t]*` followed by anything up to
# a colon. Every single-dash option that starts with `u` now counts: Go's flag package spells options that way, so
# a reviewer's `go run ./cmd/probe -url=http://localhost:8080/health` is recorded as `-url=http:[REDACTED:...]`,
# and `harness finding reproduce` runs that. At 7b1b006 the command was kept as written.
# Correct: only `-u` as curl's own option (followed by a user and `:`) is read; `-url=...`, `-upstream=...` are
# stored and run as written.
# Exit 1 while the recorded reproducer differs from the proposed one, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
CMD='["go", "run", "./cmd/probe", "-url=http://localhost:8080/health", "-upstream=db:5432x"]'
cat > "$T/f.yaml" <<EOF
severity: major
category: correctness
title: The probe reports healthy when the upstream is down
claim: the health probe ignores the upstream
location: {file: a.txt, line: 1}
failure_scenario: ["stop the db", "run the probe"]
expected_behavior: the probe fails
recommended_reproducer:
  type: unit_test
  description: the probe against a stopped db
  command: $CMD
EOF
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || { echo "setup: propose refused" >&2; exit 2; }
kept=$(python3 - "$L" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] == "finding.proposed":
        print(json.dumps(e["data"]["content"]["recommended_reproducer"]["command"]))
EOF
)
echo "proposed: $CMD"; echo "recorded: $kept"
[ "$kept" = "$CMD" ] || { echo "DEFECT: the reviewer's reproducer was recorded rewritten"; exit 1; }
echo "ok: kept as written"; exit 0
