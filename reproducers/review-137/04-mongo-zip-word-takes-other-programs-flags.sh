#!/usr/bin/env bash
# Defect: the new password_flag rule of harness/core/redact.py (BUILTIN_PATTERNS, read 135's F-0476) takes the
#   word `mongo` or `zip` anywhere on a line for the client itself: `\bmongo(?:sh)?\b[^\n|;&]{0,256}?(?<=[ \t])-p` and
#   `\b(?:sqlcmd|bcp|osql|zip|unzip|zipcloak)\b[^\n|;&]{0,256}?(?<=[ \t])-P`. `\b` matches after `/`, `.`, `-` and a
#   space, so a container name, an image, a folder or a file name ending in .zip is "the client", and any later
#   `-p`/`-P` of another program is read as its password:
#     docker run -d --name mongo -p 27017:27017 mongo:7   -> -p [REDACTED:password_flag]   (a port mapping)
#     python -m pytest tests/mongo -p no:cacheprovider    -> -p [REDACTED:password_flag]   (a pytest plugin switch,
#                                                            which F-0207 and the F-0476 tests themselves keep)
#     wget https://example.com/release.zip -P downloads   -> -P [REDACTED:password_flag]   (wget's directory)
#     ls /opt/mongo -p | head                             -> -p [REDACTED:password_flag] head  (the pipe itself)
#   The recorded evidence no longer says what was run or printed.
# Correct: only the client's own command line is read (the client as the command word, or after a path to it, as
#   the mysql rule requires); these lines, which hold no secret, are kept as written.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# setup_repo CMD...: a harness repository whose unit_test evidence runs python3 ci/out.py, pushed to a bare remote
setup_repo() {
  git init -q --bare "$T/remote.git" || exit 2
  ( git init -q -b main && git remote add origin "$T/remote.git" && mkdir .harness \
    && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/out.py"]' \
         > .harness/config.yaml \
    && harness init && harness install && harness task new t && git add -A && git commit -qm init && git push -q origin main ) \
    >/dev/null 2>&1 || { echo "setup failed"; exit 2; }
}
mkdir ci && cat > ci/out.py <<'PY'
print("+ docker run -d --name mongo -p 27017:27017 mongo:7")
print("+ python -m pytest tests/mongo -p no:cacheprovider -q")
print("+ wget https://example.com/release.zip -P downloads")
print("+ ls /opt/mongo -p | head")
PY
setup_repo
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log 2>/dev/null | head -1)
[ -n "$log" ] && grep -q "docker run" "$log" || { echo "setup: the output was not recorded"; exit 2; }
bad=0
for want in "-p 27017:27017 mongo:7" "-p no:cacheprovider -q" "-P downloads" "-p | head"; do
  grep -qF -- "$want" "$log" || { echo "DEFECT: '$want' was not kept"; bad=1; }
done
grep "REDACTED" "$log" | sed 's/^/  log: /'
[ "$bad" = 1 ] && exit 1
echo "OK: the lines are kept as written"; exit 0
