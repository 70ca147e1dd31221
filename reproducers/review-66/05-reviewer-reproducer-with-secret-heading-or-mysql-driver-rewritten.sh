#!/usr/bin/env bash
# Defect: secret_variable now also reads `NAME: value` (read 65's F-0216, for YAML env maps), and the writer reads
# an argv's words joined (redact._joined_secrets). A reviewer's reproducer that greps a workflow for a secret's
# heading, `grep -c SSH_KEY: deploy.yml`, is read as the assignment `SSH_KEY: deploy.yml`: the FILE NAME is stored as
# `[REDACTED:secret_variable]` and `harness finding reproduce` runs `grep -c SSH_KEY: [REDACTED:secret_variable]`
# (grep: No such file, exit 2), confirming a finding on a command the reviewer never wrote. The same rule rewrites
# harmless prose the harness records (`PARTITION_KEY: tenant_id`, `BASIC_AUTH: enabled`). Likewise mysql_password,
# now also after `=`, reads `env DB_DRIVER=mysql go test -parallel 4 ./...` as mysql's `-pPASSWORD` and stores
# `-parallel` as `[REDACTED:mysql_password]`. Before read 65's fixes all of these were kept as written.
# Correct: a command that holds no secret is stored and run as written; a name or a path after `NAME:` that is a
# separate word of a command line (or a plain setting in prose) is not a secret value.
# Exit 1 while a proposed reproducer is recorded differently from what the reviewer wrote, 0 when fixed, 2 on setup
# failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
mkdir -p config && printf 'deploy:\n  env:\n    SSH_KEY: ${{ secrets.SSH_KEY }}\n' > deploy.yml && printf 'AUTH: none\n' > config/app.yml
cmds=('["grep", "-c", "SSH_KEY:", "deploy.yml"]' '["grep", "-rn", "AUTH:", "config/"]'
      '["env", "DB_DRIVER=mysql", "go", "test", "-parallel", "4", "./..."]')
n=0
for cmd in "${cmds[@]}"; do
  n=$((n+1))
  cat > "$T/f$n.yaml" <<EOF
severity: major
category: correctness
title: Reproducer $n
claim: claim $n
location: {file: deploy.yml, line: 3}
failure_scenario: ["run it"]
expected_behavior: the key is present
recommended_reproducer:
  type: unit_test
  description: the check
  command: $cmd
EOF
  harness finding propose --file "$T/f$n.yaml" >/dev/null 2>&1 || { echo "setup: propose $n refused" >&2; exit 2; }
done
harness requirement add "Rows are partitioned by PARTITION_KEY: tenant_id" --priority must >/dev/null 2>&1 || exit 2
python3 - "$L" > "$T/kept" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] == "finding.proposed":
        print(json.dumps(e["data"]["content"]["recommended_reproducer"]["command"]))
EOF
[ "$(wc -l < "$T/kept")" = 3 ] || { echo "setup: proposals not found in the ledger" >&2; exit 2; }
fail=0; n=0
for cmd in "${cmds[@]}"; do
  n=$((n+1)); kept=$(sed -n "${n}p" "$T/kept")
  echo "proposed: $cmd"; echo "recorded: $kept"
  [ "$kept" = "$cmd" ] || fail=1
done
echo "requirement recorded: $(grep -o 'partitioned by [^"]*' "$L" | head -1)"
echo "--- harness finding reproduce F-0001 (runs the recorded command):"
harness finding reproduce F-0001 2>&1 | head -3 | sed 's/^/  /'
echo "--- the reviewer's command as written: $(grep -c SSH_KEY: deploy.yml; echo "exit $?")"
[ $fail = 1 ] && { echo "DEFECT: harmless reproducers were recorded (and are run) rewritten"; exit 1; }
echo "ok: every reproducer kept as written"; exit 0
