#!/usr/bin/env bash
# Defect: a task whose evidence command a human changed twice, each change approved with
#   `harness approve config-change` and committed, can never pass its gate. The gate judges a cited type's
#   command against the task's *base* (harness/gate/facts.py introduced_types: trust.approved(...,
#   [base_src])), and trust.binding_problem requires the approval's from_digest to equal the base's
#   config.yaml; but `harness approve config-change` (harness/approvals/approve.py record_approval) always
#   binds from_digest to HEAD's config.yaml. After the second approved change (B -> C, approved at HEAD = B),
#   no approval is "from" the base's A, so the gate blocks with "until a human approves the configuration
#   (`harness approve config-change`)" — and that command now answers "no approval needed" (HEAD already
#   holds C). The remedy the gate names cannot be carried out; the task is stuck.
# Correct: an approved chain of changes since the base counts (e.g. the gate accepts the approval whose
#   from_digest is the parent's at the commit that made the change, or approve binds to the task's base
#   when run for a task), or the approve command can make the approval the gate asks for. Control: one
#   approved change (A -> B) passes the gate, as it does today.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
cat > "$T/approve_tty.py" <<'PY'
# The human at a terminal: runs `harness approve ARGS` on a pty, types "approve", prints what it saw.
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("harness", ["harness", "approve", *sys.argv[1:]])
out, sent, deadline = b"", False, time.monotonic() + 60
while time.monotonic() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    if not sent and b'type "approve"' in out:
        os.write(fd, b"approve\r"); sent = True
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(st))
PY
ssh-keygen -q -t ed25519 -N '' -C human -f "$T/human" || exit 2

# scenario STEPS: a task on base A; the human changes unit_test's command STEPS times (each approved and
# committed); the agent collects evidence and gates. Prints the gate's exit code.
scenario() {
  local R="$T/repo$1"; mkdir "$R" && cd "$R" || exit 2
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'import unittest\nfrom calc import add\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n' > test_calc.py
  printf '__pycache__/\n' > .gitignore; mkdir .harness
  printf 'version: 1\nevidence:\n  build:\n    command: ["python3", "-m", "py_compile", "calc.py"]\n  unit_test:\n    command: ["python3", "-m", "unittest", "-q"]\n' > .harness/config.yaml
  ( git init -q -b main && harness init && harness install \
    && echo "a@b $(cut -d' ' -f1,2 "$T/human.pub")" > .harness/allowed_signers \
    && git add -A && git commit -qm adopt && git config user.signingKey "$T/human" \
    && harness task new t && harness requirement add "add works" --priority must \
    && harness transition SPECIFYING && harness transition PLANNED && harness transition IMPLEMENTING \
    && git add -A && git commit -qm task ) >/dev/null 2>&1 || exit 2
  local argv=('"-m", "unittest"]' '"-m", "unittest", "-v"]') i
  for ((i = 0; i < $1; i++)); do
    sed -i "s/\"-m\", \"unittest\".*\]/${argv[$i]}/" .harness/config.yaml
    python3 "$T/approve_tty.py" config-change >/dev/null 2>&1 || { echo "setup: approval $((i+1)) failed" >&2; exit 2; }
    ( git add -A && git commit -qm "config change $((i+1))" ) >/dev/null 2>&1 || { echo "setup: approved change $((i+1)) refused" >&2; exit 2; }
  done
  ( harness transition VERIFYING && harness evidence build && harness evidence unit_test \
    && harness requirement set REQ-001 --status verified --evidence unit_test \
    && harness transition REVIEWING && harness transition GATING ) >/dev/null 2>&1 || exit 2
  harness gate > "$T/gate$1.txt" 2>&1; echo $?
}
control=$(scenario 1); [ "$control" = 0 ] || { echo "setup: one approved change does not pass the gate (exit $control)"; cat "$T/gate1.txt"; exit 2; }
echo "control: one approved command change -> gate exit 0 (PASS)"
got=$(scenario 2) || exit 2
echo "two approved command changes -> gate exit $got"
if [ "$got" != 0 ]; then
  grep -m1 'cites unit_test' "$T/gate2.txt" | sed 's/^/  blocker: /'
  cd "$T/repo2" && again=$(python3 "$T/approve_tty.py" config-change 2>&1 | tr -d '\r' | head -1)
  echo "  the remedy it names, \`harness approve config-change\`, answers: $again"
  echo "DEFECT: each change was approved by the human, yet the gate blocks the task for good"
  exit 1
fi
echo "OK: an approved chain of command changes since the base counts"; exit 0
