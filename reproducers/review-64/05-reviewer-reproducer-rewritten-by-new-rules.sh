#!/usr/bin/env bash
# Defect: the new rules (secret_variable, user_password, password_flag, mysql_password) and the joined reading of
# an argv (redact._joined_secrets) redact words of a reviewer's reproducer that hold no secret: `TOKEN_TTL=0`
# becomes `TOKEN_TTL=[REDACTED:secret_variable]` (likewise `docker run -u 1000:1000`, `pytest -pno:cacheprovider`
# after a `mysql` word, `sshpass ... ssh -p 2222`). The ledger keeps the reproducer redacted, and the harness runs
# what the ledger keeps: `harness finding reproduce F` runs with TOKEN_TTL set to the marker text (the bug does not
# show, the finding is recorded as an attempt and `reject` is suggested), and the reviewer's real command is
# refused for a major finding ("only its reviewer's reproducer, run unchanged, confirms it"). A real major defect
# cannot be confirmed. At 35c53c4 the command was kept as written.
# Correct: a value that is no secret is kept, so the recorded reproducer is the reviewer's and confirms the finding.
# Exit 1 while the recorded reproducer differs from the proposed one (and the finding cannot be confirmed), 0 when
# fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
# the "defect": a token with a zero TTL is accepted (the script exits 1 when TOKEN_TTL is 0)
cat > check_ttl.sh <<'EOF'
[ "$TOKEN_TTL" = 0 ] && { echo "token with TTL 0 accepted"; exit 1; }
echo "TTL was: $TOKEN_TTL"; exit 0
EOF
cat > "$T/f.yaml" <<'EOF'
severity: major
category: security
title: A token with a zero TTL is accepted
claim: check_ttl accepts a token whose TTL is zero
location: {file: check_ttl.sh, line: 1}
failure_scenario: ["issue a token with TOKEN_TTL=0", "present it"]
expected_behavior: the token is refused
recommended_reproducer:
  type: unit_test
  description: the check with a zero TTL
  command: ["env", "TOKEN_TTL=0", "sh", "check_ttl.sh"]
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
echo "proposed: [\"env\", \"TOKEN_TTL=0\", \"sh\", \"check_ttl.sh\"]"
echo "recorded: $kept"
echo "--- harness finding reproduce F-0001 (the recorded command):"
harness finding reproduce F-0001 2>&1 | sed 's/^/  /'
echo "--- harness finding reproduce F-0001 -- env TOKEN_TTL=0 sh check_ttl.sh (the reviewer's):"
harness finding reproduce F-0001 -- env TOKEN_TTL=0 sh check_ttl.sh 2>&1 | head -2 | sed 's/^/  /'
status=$(harness finding list 2>/dev/null | grep F-0001)
echo "status: $status"
if [ "$kept" != '["env", "TOKEN_TTL=0", "sh", "check_ttl.sh"]' ]; then
  echo "DEFECT: the reviewer's reproducer was recorded rewritten, and the finding is not CONFIRMED"; exit 1
fi
echo "ok: the reproducer was kept as written"; exit 0
