#!/usr/bin/env bash
# `.ci/run` beside a second full suite (13:15 today) failed tests/test_runner.py::test_real_sigint_to_us_interrupts_and_kills_group:
# the Ctrl-C landed after run_command started the command and before it armed its wait, where Python's own SIGINT
# handler raised KeyboardInterrupt out of run_command: the caller died and the command (its own session) ran on.
# Delivers the SIGINT deterministically in that window (tests/test_runner.py -k ctrl_c_before); exit 1 while the
# caller dies of it, 0 once the run is recorded as interrupted with the command's group killed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python -m pytest -q -p no:cacheprovider -n 0 tests/test_runner.py -k ctrl_c_before
rc=$?
[ "$rc" -le 1 ] || exit 2
exit "$rc"
