#!/usr/bin/env bash
# Defect: a value of the project's own `redaction.patterns` reaches the remote through the commit and push checks
#   when it stands under a key that happens to share a name with one the harness writes in its ledger
#   (HARNESS_WRITTEN: `evidence`, `id`, `kind`, `type`, `source`, `status`, `subject`, `check`, `log`, `ts`, …),
#   in any file, hand-written ones included: config.yaml's whole `evidence:` section (the project's own commands),
#   or `id:` in a YAML/JSON file a person wrote under .harness/. harness/store/secrets_check.py _values()/_yaml()
#   mark everything under such a key `written` and read it with own_rules() (the project's patterns dropped),
#   whatever the file; today's provenance rule (harness/history/own_words.py: leniency only where the commit binds
#   the text to the harness) covers the env-marker/note leniency but not this key-name leniency.
# Correct: a file the harness did not write (config.yaml, a note under .harness/) is read with the project's
#   patterns under every key, as `number: acct_…` already is; the commit is refused naming file and line.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q --bare "$T/remote.git" && git init -q -b main && git remote add origin "$T/remote.git" || exit 2
SECRET=acct_48151623   # the project names `acct_[0-9]{8}` as secret
mkdir .harness && cat > .harness/config.yaml <<Y || exit 2
version: 1
evidence:
  build:
    command: ["true"]
  unit_test:
    command: ["true"]
  integration_test:
    command: ["sh", "-c", "curl -fsS https://api.example.com/accounts/$SECRET/health"]
redaction:
  patterns: ['acct_[0-9]{8}']
Y
( harness init && harness install ) >/dev/null 2>&1 || exit 2
echo a > a.txt; git add -A || exit 2
leaks=0
# Case 1: the adopting commit, its config.yaml's command holding the project's value.
if git commit -qm "adopt the harness" >/dev/null 2>&1; then
  git push -q origin main >/dev/null 2>&1
  if git -C "$T/remote.git" grep -q "$SECRET" main -- .harness/config.yaml 2>/dev/null; then
    echo "DEFECT: config.yaml's evidence command holding $SECRET was committed and pushed"; leaks=1
  fi
else
  # A fix refuses it: commit the same adoption without the value, to go on with case 2.
  sed -i "s|/accounts/$SECRET/|/accounts/ACCOUNT/|" .harness/config.yaml; git add -A
  git commit -qm "adopt the harness" >/dev/null 2>&1 || { echo "setup: adoption refused without the value"; exit 2; }
fi
# Control: the same value under a key no ledger uses, in a hand-written file, is refused.
mkdir -p .harness/notes
printf 'accounts:\n  - number: %s\n    name: billing\n' "$SECRET" > .harness/notes/accounts.yaml; git add -A
if git commit -qm "notes" >/dev/null 2>&1; then echo "setup: the control value was accepted (another defect)"; exit 2; fi
# Case 2: the same file, the account under `id:`.
printf 'accounts:\n  - id: %s\n    name: billing\n' "$SECRET" > .harness/notes/accounts.yaml; git add -A
if git commit -qm "notes" >/dev/null 2>&1; then
  git push -q origin main >/dev/null 2>&1
  if git -C "$T/remote.git" grep -q "$SECRET" main -- .harness/notes/accounts.yaml 2>/dev/null; then
    echo "DEFECT: .harness/notes/accounts.yaml holding '- id: $SECRET' was committed and pushed (as 'number:' it is refused)"; leaks=1
  fi
fi
[ $leaks -eq 1 ] && exit 1
echo "OK: the project's value is refused under the harness's key names in files it did not write"; exit 0
