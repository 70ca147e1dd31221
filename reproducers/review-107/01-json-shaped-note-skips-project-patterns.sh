#!/usr/bin/env bash
# Defect: a note written by hand (`git notes add`) that happens to be a JSON object is read by
#   harness/store/secrets_check.py:note_secrets as if the harness had written it: flagged_values(..., own=True), so
#   every value under a key the harness writes (HARNESS_WRITTEN: "state", "log", "verdict", "source", "kind", ...)
#   is read with the own rules alone and the project's `redaction.patterns` are never applied to it (only "error"
#   and "blockers" get every rule). The push guard (its fast path, harness/cli/launch.py:_notes_clean, and the full
#   path harness/history/pushed_notes.py) and the server's pre-receive hook therefore let
#   `{"state": "ACME-7F3A9C0B5D2E8146"}` through, while the same secret as plain text is refused (secret-in-notes).
#   (F-0355's promise: "any other note (one written with `git notes add`) as a person's text"; F-0210: text a
#   person wrote in the harness's shape is read as any text.)
# Correct: a note whose text is not what the stamp writes is read as a person's text (or every value of a JSON note
#   is read with every rule); the push is refused with secret-in-notes, as for the plain-text note.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
SECRET=ACME-7F3A9C0B5D2E8146
# The project names its own secrets.
sed -i "s/  patterns: \[\]/  patterns: ['ACME-[0-9A-F]{16}']/" .harness/config.yaml
grep -q "ACME-\[0-9A-F\]" .harness/config.yaml || exit 2
( git add -A && git commit -qm "name the project's secrets" ) >/dev/null 2>&1 || exit 2
git init -q --bare "$T/remote.git" || exit 2
( cd "$T/remote.git" && harness install --server ) >/dev/null 2>&1 || { echo "setup: install --server failed"; exit 2; }
git remote add origin "$T/remote.git" && harness install >/dev/null 2>&1 || exit 2
git push -q origin main >/dev/null 2>&1 || { echo "setup: first push refused"; exit 2; }

try() {  # $1 note text, $2 --no-verify or ""; echoes accepted/refused; leaves the local ref as the remote's
  git notes --ref=refs/notes/harness add -f -m "$1" HEAD >/dev/null 2>&1 || return 2
  if git push $2 origin refs/notes/harness >"$T/out" 2>&1; then echo accepted; else echo refused; fi
  git --git-dir="$T/remote.git" update-ref -d refs/notes/harness 2>/dev/null
  git update-ref -d refs/notes/harness
}

# Control: the same secret in a plain-text note is refused by the pre-push guard and by the server.
c1=$(try "deploy token $SECRET" "") ; c2=$(try "deploy token $SECRET" --no-verify)
# Control: a harmless JSON note goes through.
c3=$(try '{"state": "reviewed by alice"}' "")
echo "plain-text note with the secret: pre-push $c1, server $c2; harmless JSON note: $c3"
[ "$c1" = refused ] && [ "$c2" = refused ] && [ "$c3" = accepted ] || { echo "setup: controls did not hold"; exit 2; }

d1=$(try "{\"state\": \"$SECRET\"}" ""); d2=$(try "{\"state\": \"$SECRET\"}" --no-verify)
d3=$(try "{\"log\": \"deploy token $SECRET\"}" --no-verify)
echo "JSON note {\"state\": secret}: pre-push $d1, server $d2; {\"log\": ...}: server $d3"
if [ "$d1" = accepted ] || [ "$d2" = accepted ] || [ "$d3" = accepted ]; then
  echo "DEFECT: a hand-written JSON note carries the project's secret to the remote (project patterns skipped)"
  exit 1
fi
echo "ok: the JSON-shaped note is refused like the plain-text one"; exit 0
