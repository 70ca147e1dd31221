#!/usr/bin/env bash
# F-0111's fix keeps a Ctrl-C that lands before run_command's wait and raises it on arming, but the readers were
# started after arming: the run is interrupted with none of what the command already wrote (`harness evidence
# unit_test` under load met it: test_real_sigint_to_us_interrupts_and_kills_group read no pids). Runs
# tests/test_runner.py -k keeps_what (the SIGINT sent once the command printed); exit 1 while the output is lost,
# 0 once it is read, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python -m pytest -q -p no:cacheprovider -n 0 tests/test_runner.py -k keeps_what
rc=$?
[ "$rc" -le 1 ] || exit 2
exit "$rc"
