#!/usr/bin/env bash
# Defect: CI's re-run of PASS_TO_PASS (harness/history/rerun/base_suite.py, execute_pass_to_pass) excuses
#   lost base cases with suite-change approvals for BOTH the base it derived from history and the task's
#   recorded base (`for b in {base, item.base}`). A recorded base is only required to be an ancestor of the
#   derived one, so a task opened on an older commit (here: `git checkout OLD; harness task new`, then a
#   fast-forward to main) inherits every suite-change approval ever signed for that older base, for any
#   task, and CI applies it to the test cases as the NEWER base has them. The approval names no task and
#   is "not spent" (harness/signatures/trust.py approved_cases), so a human's approval of task 1's spec
#   change to test_mul lets the agent's task 2 delete test_mul (and break mul) with CI's
#   `harness audit --rerun --allowed-signers` green.
# Correct: a suite-change approval counts only for the base the re-run measures against (docs/approvals.md:
#   bound to "the task's base"; pass_to_pass.py: "holds for the task's base until the base moves"), and only
#   for the change it was given for; CI refuses task 2's DONE commit (PASS_TO_PASS loses test_mul).
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2

cat > "$T/approve_tty.py" <<'EOF'
# The human at a terminal: runs `harness approve ARGS` on a pty and types "approve".
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
sys.exit(os.waitstatus_to_exitcode(st))
EOF

walk_to_done() {  # the normal path: evidence, gate, converge, DONE (fails on any refusal)
  harness transition VERIFYING && harness evidence build && harness evidence unit_test \
    && harness evidence pass_to_pass && harness transition REVIEWING && harness transition GATING \
    && harness gate && harness converge --apply && harness transition DONE
}

# --- a protected project, adopted, with one human approver (key outside the repository) --------------
( git init -q -b main && mkdir tests .harness \
  && printf 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n' > calc.py \
  && printf 'from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n' > tests/test_calc.py \
  && touch tests/__init__.py && printf '__pycache__/\n.pytest_cache/\n' > .gitignore \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["python3", "-c", "import calc"]' \
       '  unit_test:' '    command: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=.harness/local/junit.xml"]' \
       '    junit: .harness/local/junit.xml' > .harness/config.yaml \
  && harness init && harness install && grep -q 'pass_to_pass: required' .harness/gate.yaml \
  && ssh-keygen -q -t ed25519 -N "" -C human -f "$T/human" \
  && echo "a@b $(cut -d' ' -f1,2 "$T/human.pub")" > .harness/allowed_signers \
  && cp .harness/allowed_signers "$T/ci_signers" \
  && git add -A && git commit -qm adopt ) >/dev/null 2>&1 || exit 2
B0=$(git rev-parse HEAD)

# --- task 1: a real change of spec (mul saturates at 5), approved by the human for test_mul -----------
( T1=$(harness task new "mul saturates at 5") && for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s || exit 1; done \
  && sed -i 's/return a \* b/return min(a * b, 5)/' calc.py && sed -i 's/mul(2, 3) == 6/mul(2, 3) == 5/' tests/test_calc.py \
  && git config user.signingKey "$T/human" && python3 "$T/approve_tty.py" suite-change tests.test_calc::test_mul \
  && git config --unset user.signingKey && walk_to_done && git add -A && git commit -qm "t1: mul saturates (approved)" ) \
  >/dev/null 2>&1 || { echo "setup: task 1 failed"; exit 2; }
B1=$(git rev-parse HEAD)
rm -f "$T/human"   # from here on nobody holds the private key: the agent acts alone

# Control: CI accepts task 1, the change the human approved.
harness audit --before "$B0" --to "$B1" --ref refs/heads/main --rerun --allowed-signers "$T/ci_signers" >/dev/null 2>&1 \
  || { echo "setup: CI refuses the legitimate, approved task 1"; exit 2; }

# --- the agent: task 2 opened on the old commit B0, fast-forwarded to main, then mul broken, test_mul deleted
git checkout -q -b feat "$B0" || exit 2
T2=$(harness task new "speed up mul" 2>/dev/null) || exit 2
git merge -q --ff-only main || exit 2
( for s in SPECIFYING PLANNED IMPLEMENTING; do harness transition $s || exit 1; done ) >/dev/null 2>&1 || exit 2
sed -i 's/return min(a \* b, 5)/return 0/' calc.py
python3 -c "p='tests/test_calc.py'; s=open(p).read(); open(p,'w').write(s[:s.index(chr(10)*2+'def test_mul')]+chr(10))"
( walk_to_done && git add -A && git commit -qm "t2: speed up mul" ) >/dev/null 2>&1 || { echo "setup: task 2 did not reach DONE locally"; exit 2; }
F=$(git rev-parse HEAD)
grep -q "test_mul" tests/test_calc.py && exit 2

# Control: the same change in a task opened on main itself (base B1) is refused by PASS_TO_PASS locally.
git checkout -q -f -b honest "$B1" || exit 2
( harness task new "speed up mul" && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done ) >/dev/null 2>&1 || exit 2
sed -i 's/return min(a \* b, 5)/return 0/' calc.py
python3 -c "p='tests/test_calc.py'; s=open(p).read(); open(p,'w').write(s[:s.index(chr(10)*2+'def test_mul')]+chr(10))"
harness evidence unit_test >/dev/null 2>&1 || exit 2
if harness evidence pass_to_pass >/dev/null 2>&1; then echo "setup: control expected PASS_TO_PASS to lose test_mul"; exit 2; fi

# CI on the fast-forward push of main B1 -> F, with CI's own trust root and the re-run.
out=$(harness audit --before "$B1" --to "$F" --ref refs/heads/main --rerun --allowed-signers "$T/ci_signers" 2>&1); rc=$?
echo "$out" | grep -E "pass_to_pass|base case|audit:" | sed 's/^/  /'
if [ "$rc" -eq 0 ]; then
  echo "DEFECT: CI's audit --rerun accepts task 2's DONE: mul() now returns 0 and test_mul (as main B1 has it) is gone,"
  echo "        excused by the suite-change approval the human signed for task 1 against the older base B0"
  exit 1
fi
if [ "$rc" -eq 1 ] && echo "$out" | grep -q "test_mul"; then
  echo "OK: CI refuses task 2 (test_mul lost, no approval for this base/change)"; exit 0
fi
echo "unexpected audit result (exit $rc)"; exit 2
