#!/usr/bin/env bash
# Defect: an honest change that touches no protected file cannot record PASS_TO_PASS when a base test's id holds text
#   the redactor rewrites (a parametrized test of a URL parser: test_url[postgres://app:hunter2secret@db/x]).
#   harness/evidence/pass_to_pass.py _reuse reads the reused run's case listing — written redacted
#   (test_url[postgres://app:[REDACTED:url_password]@db/x]) — and compares it with the base's cases, measured and kept
#   unredacted (base_cases_at), so the case reads as "missing (not collected)"; the record it then builds puts that
#   unredacted id in `lost` without redact_data (collect() redacts its extra fields, _reuse does not), and the store
#   refuses the write: "line N holds a secret (url_password) ... a harness bug", exit 2. Every retry reuses the same
#   run; a suite-change approval of the case would put the same id in `excused`. Only touching a protected file (to
#   force a worktree run) gets past it.
# Correct: the reused listing and the base's cases are compared in one spelling (both redacted, or the reused run's
#   raw cases), and the record is redacted like collect()'s: the honest refactor records PASS_TO_PASS as passed.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
. "$(dirname "$0")/common.inc"

url_tests() {
  cat > tests/test_url.py <<'PY'
import pytest


@pytest.mark.parametrize("url", ["postgres://app:hunter2secret@db/x", "http://example.com/x"])
def test_url(url):
    assert "://" in url
PY
}
plain_tests() {
  cat > tests/test_url.py <<'PY'
import pytest


@pytest.mark.parametrize("url", ["postgres://db/x", "http://example.com/x"])
def test_url(url):
    assert "://" in url
PY
}
refactor() {
  printf '\n# a refactor of calc.py that changes no behaviour\n' >> calc.py
  { harness evidence unit_test; echo "unit_test rc=$?"; harness evidence pass_to_pass; echo "pass_to_pass rc=$?"; } >"$T/$1.log" 2>&1
}

# Control: the same refactor with ids the redactor leaves alone records PASS_TO_PASS from the reused run and reaches DONE.
project control plain_tests
refactor control
grep -q 'reused unit_test run' "$T/control.log" && grep -q '^pass_to_pass rc=0' "$T/control.log" \
  || { echo "setup: the control did not reuse the run and pass"; cat "$T/control.log"; exit 2; }
finish control || { echo "setup: the control did not reach DONE"; exit 2; }

project honest url_tests
refactor honest
grep -q '^unit_test rc=0' "$T/honest.log" || { echo "setup: unit_test did not pass"; cat "$T/honest.log"; exit 2; }
if grep -q '^pass_to_pass rc=0' "$T/honest.log" && finish honest; then
  echo "OK: the honest refactor recorded PASS_TO_PASS and reached DONE"; exit 0
fi
grep -E '^harness: refusing|lost:|^pass_to_pass rc=' "$T/honest.log"
echo "DEFECT: an honest refactor touching no protected file cannot record PASS_TO_PASS: its reused run's redacted case id"
echo "        reads as a lost base case and the record holding it is refused"
exit 1
