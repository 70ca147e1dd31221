#!/usr/bin/env bash
# Defect: a reviewer's reproducer whose arguments hold a secret-shaped value (a sample GitHub token, as any
#   reproducer of a token or redaction bug does) is stored redacted (`[REDACTED:github_token]`) and every run is
#   compared by its *redacted* text (core/findings.py rejection_problem / refuted_on compare a["command"], the
#   shown command, with recommended_command(content)). So the marker is a wildcard: a passing run with ANY other
#   token counts as the reviewer's reproducer and rejects a critical finding, while the reviewer's real command
#   (with the real token) is refused as "not the reviewer's" (findings/steps.py _reviewers_own compares the
#   unredacted argv with the redacted text). docs/configuration.md and threat-model.md: "a [REDACTED:…] marker
#   is never a wildcard".
# Correct: the reviewer's command is identified by a digest of its unredacted argv taken at proposal (as
#   evidence keeps the digest of the unredacted configured command); a run with another value is an attempt
#   that refutes nothing, and the reviewer's real command confirms.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
q() { "$@" >/dev/null 2>&1; }
cat > auth.py <<'PY'
def is_github_token(tok):
    return tok.startswith("ghp_") and len(tok) == 41   # bug: a classic token is 40 characters
PY
printf 'import unittest\nimport auth\n\nclass T(unittest.TestCase):\n    def test_no(self):\n        self.assertFalse(auth.is_github_token("x"))\n' > test_auth.py
printf '__pycache__/\n' > .gitignore
mkdir .harness
cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-m", "py_compile", "auth.py"]
  unit_test:
    command: ["python3", "-m", "unittest", "-q"]
YAML
( git init -q -b main && harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
q harness task new "token check" || exit 2
for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do q harness transition $s || exit 2; done
q harness evidence build && q harness evidence unit_test && q harness transition REVIEWING || exit 2
TOK=ghp_$(printf 'a%.0s' $(seq 36))          # 40 characters: a real token's shape
OTHER=ghp_$(printf 'b%.0s' $(seq 37))        # 41 characters: what the buggy check accepts
CODE='import sys, auth; sys.exit(not auth.is_github_token(sys.argv[1]))'
cat > "$T/f.yaml" <<YAML
findings:
  - severity: critical
    category: correctness
    title: a 40-character GitHub token is not recognised
    claim: the length check is 41
    location: {file: auth.py}
    failure_scenario: ["is_github_token(a 40-character ghp_ token)"]
    expected_behavior: "returns True"
    recommended_reproducer:
      type: unit_test
      description: exit 1 while the defect is present
      command: ["python3", "-c", "$CODE", "$TOK"]
YAML
q harness finding propose --file "$T/f.yaml" || exit 2
python3 -c "$CODE" "$TOK" && { echo "setup: the reviewer's command does not fail"; exit 2; }
python3 -c "$CODE" "$OTHER" || { echo "setup: the other token does not pass"; exit 2; }

# Control: a passing run of a command differing elsewhere (not in the secret) refutes nothing.
cp -a "$R" "$T/control"
( cd "$T/control" && q harness finding reproduce F-0001 -- python3 -c "import sys; sys.exit(0)" "$TOK" \
  && ! q harness finding reject F-0001 --reason "passes" ) || { echo "control failed"; exit 2; }

# The reviewer's real command, run unchanged: is it taken as the reviewer's?
cp -a "$R" "$T/real"
( cd "$T/real" && q harness finding reproduce F-0001 -- python3 -c "$CODE" "$TOK" ); real=$?
# Attack: the same command with another token, which passes on the buggy code, then reject.
q harness finding reproduce F-0001 -- python3 -c "$CODE" "$OTHER"
q harness finding reject F-0001 --reason "a ghp_ token is recognised: the reviewer's reproducer passes"; rej=$?
echo "reviewer's real command (real token) accepted as the reviewer's: $([ $real = 0 ] && echo yes || echo no); reject after a run with another token: exit $rej"
if [ "$rej" = 0 ]; then
  echo "DEFECT: the redaction marker in the stored reproducer matched a different token: a critical finding was rejected by a command the reviewer never gave"
  exit 1
fi
echo "OK: only the reviewer's own command refutes the finding"
exit 0
