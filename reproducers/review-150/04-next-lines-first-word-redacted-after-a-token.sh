#!/usr/bin/env bash
# Defect: honest output is now redacted wherever a line that ends in a token character is followed by a line that
#   starts with one: the joined view runs the two lines together, a rule whose value runs to the next white space
#   takes the next line's first word (or a whole env listing) as the rest of the secret, and that word is replaced
#   in "every line it spans". Every secret printed at a line's end (`token: V`, `password=V`, `Authorization:
#   Bearer V`, an env dump) now costs the following line its first word: a test id (`tests/test_login.py::test_ok
#   PASSED` becomes `[REDACTED:secret_assignment] PASSED`), `HTTP/1.1`, a YAML key, a summary's count (`1 failed`),
#   each line of an `env` dump after the secret; and where there is no secret at all: an empty secret-named
#   variable (`API_TOKEN=`, common in CI for an unset secret) takes the lines after it as its value, and a markdown
#   table's alignment row (`|:---|`) under a `token` column header is redacted as `token:` + value.
#   harness/core/wrapped_lines.py `_BREAK` joins at any line break between two token characters (`=` and `:`-free
#   words included), and `_table_columns`/`_columns` join a column's header to its cells with nothing between;
#   harness/core/redact.py Redactor._wrapped_spans keeps every piece of a joined match that the plain spans do not
#   cover, so the next line's piece of a match that merely runs on is kept and replaced. Before 38bc6ab4 these lines
#   were kept as printed (docs/threat-model.md: patterns "stay anchored … so ordinary output … survives and the
#   evidence stays readable", redact.py's module docstring).
# Correct: a line's text that no rule finds a secret in, read alone or as the continuation of a token cut at the line
#   break, is kept as printed; the secrets themselves are still redacted.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
mkdir ci && cat > ci/show.py <<'PY'
print("login with password=hunter2")
print("tests/test_login.py::test_ok PASSED")
print("Authorization: Bearer abcdef123456")
print("HTTP/1.1 401 Unauthorized")
print("token: abcd1234efgh")
print("retries: 3")
PY
cat > ci/env.py <<'PY'
print("API_TOKEN=")
print("HOME=/root")
print("HOSTNAME=ci-runner-7")
print("| name | token |")
print("|:-----|:------|")
print("| ci   | none  |")
PY
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["python3", "ci/env.py"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
{ harness evidence unit_test && harness evidence build; } >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
log=$(ls .harness/tasks/*/evidence/unit_test.log) && grep -q "login with" "$log" || { echo "setup: the output was not recorded"; exit 2; }
env_log=$(ls .harness/tasks/*/evidence/build.log) && grep -q "API_TOKEN" "$env_log" || { echo "setup: the output was not recorded"; exit 2; }
grep -q "hunter2\|abcdef123456\|abcd1234efgh" "$log" && { echo "setup: a secret was kept (another defect)"; exit 2; }
status=0
check() {  # $1: the log, $2: the script that printed it, $3: the line it printed as ordinary output
  if grep -qxF -- "$3" "$1"; then echo "ok: kept: $3"
  else n=$(python3 -c 'import sys; print([l.strip()[7:-2] for l in open(sys.argv[1])].index(sys.argv[2]) + 1)' "$2" "$3")
    echo "DEFECT: '$3' is recorded as '$(sed -n "${n}p" "$1")'"; status=1; fi
}
for line in "tests/test_login.py::test_ok PASSED" "HTTP/1.1 401 Unauthorized" "retries: 3"; do check "$log" ci/show.py "$line"; done
for line in "HOME=/root" "HOSTNAME=ci-runner-7" "|:-----|:------|" "| ci   | none  |"; do check "$env_log" ci/env.py "$line"; done
exit $status
