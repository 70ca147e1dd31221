#!/usr/bin/env bash
# Defect: harness/history/own_words.py (_Ledger.strings) counts as the harness's own words every text of its ledger's
#   event data, but not the events' times, from which task.yaml's timestamps.created_at/updated_at are rendered. With
#   a project redaction pattern that matches dates ('[0-9]{4}-[0-9]{2}', ticket or date keys), the commit check
#   (`harness hook validate`) refuses task.yaml ("line N holds what looks like a secret (custom)") whenever the task's
#   first event and its evidence fell in different seconds - a flaky refusal of a file the harness wrote itself.
# Correct: the harness's own times are held; task.yaml is committable.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/repo" && cd "$T/repo" || exit 2
setup() {
  git init -q -b main && echo 'x = 1' > app.py && git add . && git commit -qm init && harness init >/dev/null &&
  "$here/.venv/bin/python" -c "import yaml; p='.harness/config.yaml'; d=yaml.safe_load(open(p));
d.setdefault('redaction', {})['patterns'] = ['[0-9]{4}-[0-9]{2}']; open(p, 'w').write(yaml.safe_dump(d))" &&
  harness task new "Ship it" >/dev/null 2>&1 && harness requirement add "Handles it" --priority must >/dev/null 2>&1 &&
  sleep 1.2 && harness evidence build -- sh -c 'echo built' >/dev/null 2>&1 && git add -A
}
setup || { echo "setup failed"; exit 2; }
if ! harness hook validate >"$T/v.txt" 2>&1; then
  if grep -q "task.yaml.*secret-in-harness-files" "$T/v.txt"; then echo "DEFECT: $(head -2 "$T/v.txt")"; exit 1; fi
  echo "setup: refused for another reason"; cat "$T/v.txt"; exit 2
fi
echo "OK: task.yaml is committable"; exit 0
