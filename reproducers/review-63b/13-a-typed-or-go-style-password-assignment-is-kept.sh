#!/usr/bin/env bash
# Defect: the secret_assignment rule (core/redact.py) reads `KEY` then `=`, `:` or `=>` then the value. Source lines
# that assign a password with a type annotation or Go's `:=` -- Python `DB_PASSWORD: str = "…"` (pydantic settings),
# TypeScript `const password: string = "…"`, Go `password := "…"`, and Maven's settings.xml
# `<password>…</password>` -- are what a failing test's traceback, a grep, or
# a security linter (bandit, gosec, semgrep) prints. The rule takes the type name (`str`) for the value, or nothing
# for `:=`, and the password itself is kept in the evidence record and log; the commit lets it through.
# Correct: the quoted value assigned to a password-named name is redacted in these spellings too.
# Exit 1 while a value is in .harness/ in clear, 0 when none is, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME" "$T/repo"; cd "$T/repo" || exit 2
mkdir -p src
cat > src/settings.py <<'P'
class Settings(BaseSettings):
    DB_PASSWORD: str = "Hq7pW2xZr9Lm"
P
cat > src/client.ts <<'P'
const password: string = "Vb4nQ8sKe2Yt";
P
cat > src/db.go <<'P'
	password := "Jm5rT1wXc7Pd"
P
cat > src/settings.xml <<'P'
<server><id>nexus</id><username>ci</username><password>Ws6yU3oAz8Nf</password></server>
P
( git init -q && git add -A && git commit -qm init \
  && harness init && harness install && git add -A && git commit -qm harness && harness task new t ) >/dev/null 2>&1 || exit 2
harness evidence security -- grep -rn -i "password" src >/dev/null 2>&1 || exit 2
git add -A >/dev/null 2>&1; git commit -qm evidence >/dev/null 2>&1 && committed=yes || committed=no
if hits=$(grep -rnE "Hq7pW2xZr9Lm|Vb4nQ8sKe2Yt|Jm5rT1wXc7Pd|Ws6yU3oAz8Nf" .harness/tasks/*/evidence/security.log); then
  echo "DEFECT: assigned passwords kept in clear (commit accepted: $committed):"; echo "$hits"; exit 1
fi
echo "passwords redacted"; exit 0
