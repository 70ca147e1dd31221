#!/usr/bin/env bash
# Defect: `.harness/tasks/<id>/contract.yaml` is a file harness commands write (`harness contract apply` renders it
#   from the ledger's contract.applied event: harness/store/reader.py `render`), but `_HARNESS_WRITES` in
#   harness/store/secrets_check.py lists only task/requirements/invariants.yaml, findings, evidence, events.jsonl and
#   approvals.jsonl. So contract.yaml is read strictly: an `[REDACTED:env:NAME]` marker the harness itself wrote
#   (a contract text holding the value of a secret-named variable of the applying shell) is refused at `git commit`
#   from a shell without that variable, when a project pattern matches NAME — while the same marker in the same
#   commit's requirements.yaml and events.jsonl passes. The refusal's advice (`harness replay --write`) cannot help.
# Correct: contract.yaml gets the leniency of the other rendered files (docs/threat-model.md: "in the files harness
#   commands write only (a task's ledger and rendered files ...)"): the commit and push succeed, and the marker, not
#   the value, is what reaches the remote. (Control: the same line hand-written in .harness/NOTES.md stays refused.)
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" || exit 2
mkdir .harness && cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  unit_test:
    command: ["true"]
redaction:
  patterns: ["[a-z]+_[a-z]+"]
YAML
( git init -q -b main && git remote add origin "$T/remote.git" && harness init && harness install \
  && harness task new "read the DB password from a file" && echo a > a.txt && git add -A && git commit -qm init \
  && git push -q origin main ) >/dev/null 2>&1 || exit 2
TID=$(cat .harness/local/current) || exit 2
cat > "$T/contract.yaml" <<'YAML'
contract:
  acceptance_criteria: ["the server reads its database password from /run/secrets/dbpw"]
  requirements:
    - statement: "the password is read from /run/secrets/dbpw at start"
      priority: must
      verified_by: [unit_test]
  invariants:
    - statement: "no password is ever logged"
      category: security
      severity: major
      verified_by: [unit_test]
YAML
# The contract is applied in a shell (a dev container) that has the secret file's path in db_password; committed
# from the host shell, which lacks it.
env db_password=/run/secrets/dbpw harness contract apply --file "$T/contract.yaml" >/dev/null 2>&1 || exit 2
grep -q 'REDACTED:env:db_password' ".harness/tasks/$TID/contract.yaml" || exit 2
grep -q 'REDACTED:env:db_password' ".harness/tasks/$TID/requirements.yaml" || exit 2
git add -A
if ! git commit -qm "task contract" >/dev/null 2>"$T/err"; then
  echo "REFUSED: the harness's own contract.yaml is refused at commit (requirements.yaml/events.jsonl with the same marker pass):"
  grep -E 'contract.yaml|requirements.yaml|events.jsonl' "$T/err" | head -4
  exit 1
fi
git push -q origin main >/dev/null 2>&1 || { echo "REFUSED at push"; exit 1; }
if git --git-dir="$T/remote.git" grep -q -F '/run/secrets/dbpw' main -- .harness; then echo "the value reached the remote"; exit 1; fi
printf 'see [REDACTED:env:db_password]\n' > .harness/NOTES.md; git add -A
if git commit -qm notes >/dev/null 2>&1; then echo "WRONG FIX: a hand-written marker in .harness/NOTES.md is accepted"; exit 1; fi
echo "OK: contract.yaml committed and pushed; a hand-written marker is still refused"
exit 0
