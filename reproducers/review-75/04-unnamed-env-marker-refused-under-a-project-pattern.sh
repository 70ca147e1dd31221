#!/usr/bin/env bash
# Defect: the variable-less env marker `[REDACTED:env]` that today's 0a31f26 writes into task spec links and
#   approvals (harness/store/secrets_check.py unnamed_env) is not recognised as the harness's own marker by the
#   redactor: harness/core/redact.py _label_span() protects `[REDACTED:<label>` only for a label in
#   Redactor._labels() (rule names `env:NAME`, and _OTHER_LABELS), and the bare label `env` is neither. So a project
#   pattern that matches the marker's own text (here `\b[A-Z0-9]{8}\b`, 8-character codes, which matches
#   `REDACTED`) flags the harness's marker, and the commit of `harness task spec`'s output is refused — whereas
#   every other marker (`[REDACTED:github_token]`, `[REDACTED:custom]`) is protected from such a pattern (F-0133).
# Correct: `[REDACTED:env]` is a marker of the harness's like any other: the spec link commits, from any shell.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
unset wiki_token
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install \
  && sed -i "s/  patterns: \[\]/  patterns: ['\\\\b[A-Z0-9]{8}\\\\b']/" .harness/config.yaml \
  && grep -qF "patterns: ['\b[A-Z0-9]{8}\b']" .harness/config.yaml \
  && echo a > a.txt && git add -A && git commit -qm init && harness task new "Write the design" \
  && git add -A && git commit -qm task ) >/dev/null 2>&1 || exit 2
TY=$(ls .harness/tasks/*/task.yaml) || exit 2
# Control: a link whose token a built-in rule redacts commits under the same pattern.
harness task spec --design "https://docs.example.com/d?x=1&access_token=ghp_A1b2C3d4E5A1b2C3d4E5A1b2C3d4E5F6g7H8" >/dev/null 2>&1 || exit 2
grep -q 'design: .*\[REDACTED:' "$TY" || { echo "setup: no marker in the control link"; exit 2; }
git add -A; git commit -qm "design link (control)" >/dev/null 2>&1 || { echo "setup: the control link is refused"; exit 2; }
# The link holds the value of a secret-named variable of the recording shell.
wiki_token=Zq8wQ7pL1xR4vN2 harness task spec --design "https://wiki.example.com/s/Zq8wQ7pL1xR4vN2/design" >/dev/null 2>&1 || exit 2
grep -qF 'design: https://wiki.example.com/s/[REDACTED:env]/design' "$TY" || { echo "setup: no [REDACTED:env] marker"; exit 2; }
git add -A || exit 2
if out=$(wiki_token=Zq8wQ7pL1xR4vN2 git commit -qm "design link" 2>&1); then
  echo "OK: the spec link harness task spec wrote commits"; exit 0
fi
if grep -q "task.yaml:[0-9]* \[secret-in-harness-files\]" <<<"$out"; then
  echo "DEFECT: the [REDACTED:env] marker harness task spec wrote is refused at commit (even in the recording shell):"
  grep "secret-in-harness-files" <<<"$out"; exit 1
fi
echo "setup: refused for another reason:"; echo "$out"; exit 2
