#!/usr/bin/env bash
# Defect: with `-x` (or --maxfail / addopts -x) in config.yaml's test command -- a common pytest setup --
#   the suite's measuring runs stop at the first failure and then read every case after it as missing:
#   (A) FAIL_TO_PASS: a change that adds two functions, each a must requirement proved by its own new test,
#       is blocked: on the base the first new test fails, pytest stops, and the gate says
#       "REQ-002: test tests.test_calc::test_mul was not collected without the change (fail_to_pass): name a
#       test of the protected suite that fails there" -- false: it is in the suite and it does fail there.
#   (B) PASS_TO_PASS: a change of spec that deletes an obsolete test, with the human's signed
#       `harness approve suite-change tests.test_old::test_bool_add`, is still blocked: the base's put-back
#       test_old fails first (as approved), pytest stops, and "lost: tests.test_other::test_other -- missing
#       (not collected)" -- the only way on would be to have a human excuse an innocent test too.
#   harness/evidence/pass_to_pass.py run_pass_to_pass / run_fail_to_pass run conf.to_run() as configured;
#   nothing neutralises -x/--maxfail (nor are they refused or documented).
# Correct: the runs that compare case lists run every case (e.g. append `--maxfail=0`, which overrides -x and
#   addopts), so both honest changes reach DONE exactly as they do without -x.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"
command -v script >/dev/null && command -v ssh-keygen >/dev/null || exit 2
ssh-keygen -q -t ed25519 -N '' -f "$T/key" || exit 2

base() {  # $1 dir, $2 extra pytest option ("-x" or "-q")
  mkdir -p "$1" && cd "$1" || exit 2
  git init -q -b main || exit 2
  mkdir tests
  printf 'def add(a, b):\n    return a + b\n' > calc.py
  printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' > tests/test_calc.py
  printf 'from calc import add\n\n\ndef test_bool_add():\n    assert add(True, True) == 2\n' > tests/test_old.py
  printf 'def test_other():\n    assert True\n' > tests/test_other.py
  printf '__pycache__/\n.pytest_cache/\n' > .gitignore
  mkdir .harness
  cat > .harness/config.yaml <<YAML
version: 1
evidence:
  unit_test:
    command: ["python", "-m", "pytest", "-q", "$2", "--junitxml=.harness/local/junit.xml"]
    junit: .harness/local/junit.xml
YAML
  echo "a@b $(cut -d' ' -f1,2 "$T/key.pub")" > .harness/allowed_signers
  git config user.signingKey "$T/key"
  ( harness init && harness install && git add -A && git commit -qm base && harness task new t ) >/dev/null 2>&1 || exit 2
  grep -q 'pass_to_pass: required' .harness/gate.yaml || exit 2
}
finish() {  # evidence, citations, gate, DONE, commit; $@: "REQ --tests CASE" triples
  harness evidence unit_test >/dev/null 2>&1 || return 3
  harness evidence pass_to_pass >"$T/p2p.out" 2>&1
  harness evidence fail_to_pass >/dev/null 2>&1
  while [ $# -gt 0 ]; do
    harness requirement set "$1" --status verified --evidence unit_test --tests "$2" >/dev/null 2>&1 || return 3; shift 2
  done
  harness transition REVIEWING >/dev/null 2>&1 && harness transition GATING >/dev/null 2>&1 || return 3
  harness gate > "$T/gate.out" 2>&1 || { grep -hE '^- REQ|^- pass_to_pass|lost:' "$T/p2p.out" "$T/gate.out" | sed 's/^/    /'; return 1; }
  harness converge --apply >/dev/null 2>&1 && harness transition DONE >/dev/null 2>&1 \
    && git add -A && git commit -qm change >/dev/null 2>&1 || return 1
}
scenario_a() {  # two new functions, two must requirements, each proved by its new test
  base "$1" "$2"
  ( harness requirement add "sub(a, b) returns a - b" --priority must && harness requirement add "mul(a, b) returns a * b" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done ) >/dev/null 2>&1 || return 3
  printf '\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n' >> calc.py
  printf '\n\ndef test_sub():\n    from calc import sub\n    assert sub(5, 3) == 2\n\n\ndef test_mul():\n    from calc import mul\n    assert mul(3, 4) == 12\n' >> tests/test_calc.py
  finish REQ-001 tests/test_calc.py::test_sub REQ-002 tests/test_calc.py::test_mul
}
scenario_b() {  # add() stops accepting bools (a change of spec): the obsolete test goes, a human approves
  base "$1" "$2"
  ( harness requirement add "add() rejects bools" --priority must
    for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s || exit 1; done ) >/dev/null 2>&1 || return 3
  printf 'def add(a, b):\n    if isinstance(a, bool) or isinstance(b, bool):\n        raise TypeError("no bools")\n    return a + b\n' > calc.py
  git rm -q tests/test_old.py
  printf '\n\ndef test_rejects_bool():\n    import pytest\n    with pytest.raises(TypeError):\n        add(True, 1)\n' >> tests/test_calc.py
  script -qec "harness approve suite-change tests.test_old::test_bool_add" /dev/null <<< approve >/dev/null 2>&1 || return 3
  grep -q test_bool_add .harness/approvals.jsonl || return 3
  finish REQ-001 tests/test_calc.py::test_rejects_bool
}

for s in a b; do
  ( scenario_$s "$T/control-$s" "-q" ); c=$?
  [ $c -ne 0 ] && { echo "setup: scenario $s without -x did not reach DONE ($c)"; exit 2; }
done
echo "control: both changes reach DONE when the test command has no -x"
fail=0
( scenario_a "$T/a" "-x" ); a=$?
[ $a -ge 2 ] && exit 2
[ $a -ne 0 ] && { echo "DEFECT (A): two new tests, -x: the second is 'not collected without the change'"; fail=1; }
( scenario_b "$T/b" "-x" ); b=$?
[ $b -ge 2 ] && exit 2
[ $b -ne 0 ] && { echo "DEFECT (B): approved deletion, -x: an innocent base test is 'lost … missing'"; fail=1; }
[ $fail -eq 0 ] && echo "OK: both reach DONE with -x"
exit $fail
