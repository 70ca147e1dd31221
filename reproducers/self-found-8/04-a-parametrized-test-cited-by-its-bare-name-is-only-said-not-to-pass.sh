#!/usr/bin/env bash
# A must requirement citing a parametrized test by its bare name (tests.test_calc::test_adds, whose report holds
# test_adds[0]..[4], all passed) is blocked with "did not pass in the cited run" alone: the author sees a test that
# passed called failing, with no word of what to cite instead (REQ-006 of #27's task met it). Asks the gate's
# fail_to_pass wording; exit 1 while it names no parametrized case, 0 once it does, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
python - <<'PY'
import sys
try:
    from harness.core.cases import fail_to_pass_gaps
except ImportError as exc:
    print("setup:", exc); sys.exit(2)
now = {f"tests.test_calc::test_adds[{n}]": "passed" for n in range(5)}
gaps = fail_to_pass_gaps("REQ-001", "the requirement", ["tests.test_calc::test_adds"], now, {})
print(gaps[0] if gaps else "no gap")
if not gaps:
    sys.exit(2)
sys.exit(0 if "tests.test_calc::test_adds[0]" in gaps[0] else 1)
PY
