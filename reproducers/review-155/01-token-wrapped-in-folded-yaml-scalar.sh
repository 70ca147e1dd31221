#!/usr/bin/env bash
# Defect: a token wrapped over lines inside a folded YAML scalar of a finding file (`harness finding propose --file`)
#   or a contract (`harness contract apply`) reaches the ledger, the rendered YAML, the commit, the push and the server
#   in clear. The harness redacts the *parsed* value, and YAML has already folded the line break inside the token into
#   a space (a `>`/`>-` block, a plain multi-line scalar, a double-quoted one), so the rules see two short words:
#   `ghp_` + 20 characters and 20 more (no rule for a 36-character GitHub token matches either half), an OpenAI project
#   key cut the same way, and a Slack `xoxb-` token whose first half alone matches its rule (redacted) but whose
#   tail is kept. The commit hook, the push guard and the pre-receive hook read the same parsed values and pass.
#   The same text in a literal `|` block (line breaks kept) is redacted in every line it spans (the control below):
#   what a reviewer pastes decides only by which YAML block indicator wraps it.
#   Where: harness/findings/steps.py proposals_in / harness/task/contract.py (yamlio.parse) feed the folded value to
#   harness/store/secrets_check.py redact_data; harness/core/redact.py's wrapped-line reading never sees the break.
# Correct: a token the file holds wrapped over lines is redacted whole (read the scalar's source lines as a wrap, as
#   for a `|` block), or the proposal/contract is refused; nothing of it reaches .harness/, the commit or the push.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# Tokens made here (random, of the real shapes): no token in this file.
eval "$(python3 - <<'PY'
import random, string
r = random.Random(155)
an = string.ascii_letters + string.digits
g = lambda n, al=an: "".join(r.choice(al) for _ in range(n))
print("GHP=ghp_" + g(36))
print("SKP=sk-proj-" + g(48))
print("XOXB=xoxb-" + g(12, string.digits) + "-" + g(13, string.digits) + "-" + g(24))
print("GHC=ghp_" + g(36))
PY
)"
[ ${#GHP} = 40 ] || exit 2
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["true"]' \
       > .harness/config.yaml \
  && { harness init && harness install && git add -A && git commit -qm adopt \
       && git init -q --bare "$T/srv.git" && (cd "$T/srv.git" && harness install --server) \
       && git remote add origin "$T/srv.git" && harness install && git push -q origin main \
       && harness task new t && git add -A && git commit -qm task; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
# Control: the same wrap in a literal block is redacted whole.
cat > "$T/control.yaml" <<Y
type: risk
severity: minor
category: security
title: control
claim: |
  the log printed
  ${GHC:0:20}
  ${GHC:20}
location: {file: a.txt}
failure_scenario: ["x"]
expected_behavior: y
recommended_reproducer: {type: review, description: d}
Y
harness finding propose --file "$T/control.yaml" >/dev/null 2>&1 || { echo "setup: control proposal refused"; exit 2; }
if grep -rqF -- "${GHC:20}" .harness/tasks; then echo "setup: the control's wrap is kept (another defect)"; exit 2; fi
cat > "$T/f.yaml" <<Y
type: risk
severity: minor
category: security
title: folded
claim: >
  the log printed
  ${GHP:0:20}
  ${GHP:20}
expected_behavior:
  the client was started with
  ${SKP:0:24}
  ${SKP:24}
possible_actual_behavior: "the bot used ${XOXB:0:22}
  ${XOXB:22}"
location: {file: a.txt}
failure_scenario: ["x"]
recommended_reproducer: {type: review, description: d}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1
cat > .harness/local/contract.yaml <<Y
contract:
  acceptance_criteria: ["it deploys"]
  requirements:
    - statement: >-
        the deploy key is
        ${SKP:0:30}
        ${SKP:30}
      priority: must
      verified_by: [unit_test]
Y
harness contract apply >/dev/null 2>&1
git add -A >/dev/null 2>&1
if ! git commit -qm "finding and contract" >/dev/null 2>&1; then echo "OK: the commit check refused"; exit 0; fi
git push -q origin main >/dev/null 2>&1 && pushed=1 || pushed=0
status=0
check() {  # $1 what, $2 a piece of a secret
  local where; where=$(git grep -lF -- "$2" HEAD -- .harness | sed 's/^HEAD://' | xargs -r -n1 basename | sort -u | tr '\n' ' ')
  if [ -n "$where" ]; then echo "DEFECT: $1: '$2' committed in clear ($where)"; status=1; else echo "ok: $1"; fi
}
check "GitHub token folded in a '>' block (its second half)" "${GHP:20}"
check "OpenAI key in a plain multi-line scalar (its second half)" "${SKP:24}"
check "Slack token in a double-quoted multi-line scalar (its tail)" "${XOXB:22}"
check "OpenAI key in a contract's '>-' statement (its second half)" "${SKP:30}"
echo "git push (push guard and pre-receive) accepted: $([ $pushed = 1 ] && echo yes || echo no)"
[ $status = 1 ] && { echo "--- as committed:"; git grep -hF -e "${GHP:20}" -e "${SKP:24}" -e "${XOXB:22}" -e "${SKP:30}" HEAD -- '*.yaml' | head -6; }
exit $status
