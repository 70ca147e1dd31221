#!/usr/bin/env bash
# Defect: the new secret_variable rule (redact.BUILTIN_PATTERNS, read 63b's F-0171) takes every upper-case NAME=value
# whose NAME merely contains KEY/PASS/TOKEN/AUTH/CRED/SECRET for a secret, whatever the value: the ordinary
# `PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring` (keyring off in CI), `MAX_TOKENS=4096`, `AUTH_ENABLED=false`,
# `BYPASS_CACHE=1`. A config.yaml whose evidence command sets one is refused by the commit check
# (secret_flag / secret_variable on config.yaml), even at the commit that adopts the harness; 35c53c4 accepted it.
# (The rule also contradicts secret_assignment's own `max_tokens=` exclusion.)
# Correct: a command setting a non-secret variable whose name only contains such a word is committed; a human's
# config.yaml is refused only for a secret.
# Exit 1 while the adopting commit is refused, 0 when it is accepted, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install ) >/dev/null 2>&1 || exit 2
echo a > a.txt
configure() { # $1: the unit_test command's first words
  python3 - "$1" <<'EOF' || exit 2
import sys
p = ".harness/config.yaml"; t = open(p).read()
t = t.replace("evidence: {}", "evidence:\n  unit_test:\n    command: [" + sys.argv[1] + "\"python3\", \"-c\", \"pass\"]", 1)
open(p, "w").write(t)
EOF
}
cp .harness/config.yaml "$T/config.orig"
# control: the same command without the env word is accepted
configure '"env", "PYTHONHASHSEED=0", '
git add -A; git commit -qm adopt-control >/dev/null 2>&1 || { echo "setup: control commit refused" >&2; exit 2; }
git update-ref -d HEAD; git rm -rq --cached . ; cp "$T/config.orig" .harness/config.yaml
configure '"env", "PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring", "MAX_TOKENS=4096", '
grep -n 'command:' .harness/config.yaml
git add -A
if out=$(git commit -qm adopt 2>&1); then echo "ok: the adopting commit was accepted"; exit 0; fi
echo "DEFECT: the commit that adopts the harness was refused:"; echo "$out" | grep -E '^\s+\.harness|refused' | sed 's/^/  /'
exit 1
