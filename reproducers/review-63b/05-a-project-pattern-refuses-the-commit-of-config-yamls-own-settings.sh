#!/usr/bin/env bash
# Defect: the commit check reads every scalar of .harness/config.yaml with the project's own redaction.patterns,
# including the numeric settings `harness init` wrote itself (output.log_cap_bytes: 8388608). A project pattern for
# 7-10 digit account numbers, `\b[0-9]{7,10}\b`, makes the commit that adds the pattern refuse config.yaml's own
# default ("line 18 holds what looks like a secret (custom) ... written by hand or by an older version").
# Correct: a setting the harness's schema types as a number (or any harness-written value of config.yaml) is not
# read as project text; the commit is accepted. Exit 1 while refused, 0 when accepted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
( git init -q && echo a > a && git add -A && git commit -qm init && harness init && harness install ) >/dev/null 2>&1 || exit 2
python - <<'PY' || exit 2
p = ".harness/config.yaml"; s = open(p).read()
s2 = s.replace("patterns: []", "patterns: ['\\b[0-9]{7,10}\\b']")
assert s2 != s and "log_cap_bytes: 8388608" in s2
open(p, "w").write(s2)
PY
git add -A >/dev/null 2>&1
if out=$(git commit -qm "adopt the harness" 2>&1); then echo "commit of harness init's config.yaml + pattern: accepted"; exit 0; fi
echo "commit of harness init's config.yaml + pattern: REFUSED"; echo "$out" | grep -E "config.yaml" | head -2
sed -n 18p .harness/config.yaml
echo "DEFECT: the harness's own default setting is refused as a project secret"; exit 1
