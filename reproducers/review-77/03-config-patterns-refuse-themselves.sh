#!/usr/bin/env bash
# Defect: since commit 6dc61b9 the HARNESS_WRITTEN key exemption applies only to files the commit binds to the
#   harness (`own=True`, harness/history/own_words.py); config.yaml is read with `own=False`
#   (harness/store/secrets_check.py `_yaml` / `_values`), so the value of `redaction.patterns` -- the project's
#   patterns themselves, which tests/test_secrets_a_project_names.py's WRITTEN_FREE_TEXT lists as exempt
#   ("patterns": "config.yaml's patterns themselves") -- is read with those very patterns. A pattern that matches its
#   own spelling, as the documented `secret` group form does (`ACCT (?P<secret>\S+)`: `\S+` matches
#   `(?P<secret>\S+)`), makes config.yaml refuse itself: adding it can never be committed (the previous commit
#   accepted it). docs/configuration.md: "a group named `secret` limits what is masked".
# Correct: the commit adding the pattern is accepted (a pattern is no value it names); a value it names written
#   elsewhere in config.yaml is still refused.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
python3 - <<'PY' || exit 2
p = '.harness/config.yaml'; t = open(p).read()
assert "  patterns: []" in t
open(p, 'w').write(t.replace("  patterns: []", "  patterns: ['ACCT (?P<secret>\\S+)']"))
PY
grep -q "patterns: \['ACCT (?P<secret>\\\\S+)'\]" .harness/config.yaml || { echo setup; exit 2; }
harness status >/dev/null 2>&1 || { echo "setup: the harness does not read the config"; exit 2; }
git add -A
if git commit -qm "redact account ids" >"$T/out" 2>&1; then
  # Control: a value the pattern names, in a config.yaml comment, is still refused.
  printf '# billing: ACCT 4815162342\n' >> .harness/config.yaml; git add -A
  if git commit -qm control >/dev/null 2>&1; then echo "fixed too far: a value in config.yaml passes"; exit 1; fi
  echo "OK: adding the pattern commits; a value it names is refused"; exit 0
fi
if grep -q "config.yaml:[0-9]* \[secret-in-harness-files\]" "$T/out"; then
  echo "DEFECT: adding the pattern 'ACCT (?P<secret>\\S+)' to redaction.patterns is refused:"
  grep -o '\.harness/config.yaml:[0-9]* [^→]*' "$T/out"
  echo "        (the pattern's own text matches it: config.yaml's patterns are read with themselves)"
  exit 1
fi
echo "commit refused for another reason:"; cat "$T/out"; exit 2
