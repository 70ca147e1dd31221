#!/usr/bin/env bash
# Defect: F-0172/F-0204's typed assignment (`_ASSIGN`'s `: TYPE =` branch) takes a type of one word only
# (`[A-Za-z_][A-Za-z0-9_.\[\]|]{0,64}` then spaces then `=`). Python's own spelling of an optional or a generic type
# has spaces in it -- `password: str | None = "..."` (PEP 604, what pydantic settings and dataclasses use),
# `token: dict[str, str] = ...`, `api_key: Literal["x"] = ...` -- so the rule falls back to `password:` VALUE and
# hides the type's first word (`str`), keeping the password. A failing test's traceback or `cat settings.py` as
# evidence records the password in .harness/, and the commit check (same rules) passes it.
# Correct: the password after `=` of a typed assignment is redacted whatever the type's spelling (or the whole
# rest of the line is), so it never reaches .harness/.
# Exit 1 while the password is in the recorded log and the commit passes, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && harness task new t && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2
TID=$(ls .harness/tasks) || exit 2; EV=.harness/tasks/$TID/evidence
cat > settings.py <<'EOF'
class Settings:
    password: str | None = "Zq8vT3mW9xR2kL7pN4sB"
    token: dict[str, str] = "Kx7mP2qW9vN4tR8sL3yB"
EOF
harness evidence custom.settings -- cat settings.py >/dev/null 2>&1 || { echo "setup: evidence refused" >&2; exit 2; }
echo "recorded log:"; sed 's/^/  /' "$EV/custom.settings.log"
git add -A; committed=no; git commit -qm evidence >/dev/null 2>&1 && committed=yes; echo "commit check passed: $committed"
if grep -rq -e Zq8vT3mW9xR2kL7pN4sB -e Kx7mP2qW9vN4tR8sL3yB .harness/; then
  echo "DEFECT: the passwords of typed assignments are in .harness/"; exit 1
fi
echo "ok: redacted"; exit 0
