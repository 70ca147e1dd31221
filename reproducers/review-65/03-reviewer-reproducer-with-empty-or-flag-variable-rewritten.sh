#!/usr/bin/env bash
# Defect: a reviewer's reproducer that holds no secret is recorded rewritten, and `harness finding reproduce` runs
# the rewritten command. (1) The joined-argv reading (redact._joined_secrets) reads `GITHUB_TOKEN=` and the NEXT
# word as one assignment: `env GITHUB_TOKEN= sh check.sh` (the classic "what happens without a token" reproducer)
# is stored as `env GITHUB_TOKEN= [REDACTED:secret_assignment] check.sh` -- the program itself is replaced, and the
# reproduce run is `command not found`. (2) secret_variable takes any upper-case name ending in KEY/PASS/AUTH as a
# secret whatever its value: `env SKIP_AUTH=1`, `CACHE_KEY=v1`, `BYPASS=1` (no word boundary before PASS),
# `PRIMARY_KEY=id` are rewritten. (3) user_password takes `docker run --user node:node` / `-u postgres:postgres`
# (a user and group by name) for curl's user:password.
# Here check.sh has no bug (the reviewer's command exits 0), yet F-0001 becomes CONFIRMED on the rewritten
# command's "No such file or directory".
# Correct: words that hold no secret are stored and run as written: an empty assignment has no value to hide,
# a boolean/name is no password, a docker user:group is no credential.
# Exit 1 while any proposed reproducer is recorded differently from what the reviewer wrote, 0 when fixed, 2 on
# setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; L=.harness/tasks/$TID/events.jsonl
cat > check.sh <<'EOF'
[ -z "$GITHUB_TOKEN" ] && { echo "no token: please set GITHUB_TOKEN"; exit 0; }   # no bug: clear message, exit 0
exit 0
EOF
n=0
for cmd in '["env", "GITHUB_TOKEN=", "sh", "check.sh"]' '["env", "SKIP_AUTH=1", "sh", "check.sh"]' \
           '["env", "CACHE_KEY=v1", "BYPASS=1", "PRIMARY_KEY=id", "sh", "check.sh"]' \
           '["docker", "run", "--rm", "--user", "node:node", "node:20", "npm", "test"]'; do
  n=$((n+1))
  cat > "$T/f$n.yaml" <<EOF
severity: major
category: correctness
title: Reproducer $n
claim: claim $n
location: {file: check.sh, line: 1}
failure_scenario: ["run it"]
expected_behavior: a clear message
recommended_reproducer:
  type: unit_test
  description: the check
  command: $cmd
EOF
  harness finding propose --file "$T/f$n.yaml" >/dev/null 2>&1 || { echo "setup: propose $n refused" >&2; exit 2; }
done
fail=0
python3 - "$L" > "$T/kept" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] == "finding.proposed":
        print(json.dumps(e["data"]["content"]["recommended_reproducer"]["command"]))
EOF
n=0
for cmd in '["env", "GITHUB_TOKEN=", "sh", "check.sh"]' '["env", "SKIP_AUTH=1", "sh", "check.sh"]' \
           '["env", "CACHE_KEY=v1", "BYPASS=1", "PRIMARY_KEY=id", "sh", "check.sh"]' \
           '["docker", "run", "--rm", "--user", "node:node", "node:20", "npm", "test"]'; do
  n=$((n+1)); kept=$(sed -n "${n}p" "$T/kept")
  echo "proposed: $cmd"; echo "recorded: $kept"
  [ "$kept" = "$cmd" ] || fail=1
done
echo "--- harness finding reproduce F-0001 (runs the recorded command):"
harness finding reproduce F-0001 2>&1 | head -2 | sed 's/^/  /'
echo "--- the reviewer's command as written: $(env GITHUB_TOKEN= sh check.sh; echo "exit $?")"
[ $fail = 1 ] && { echo "DEFECT: harmless reproducers were recorded (and are run) rewritten"; exit 1; }
echo "ok: every reproducer kept as written"; exit 0
