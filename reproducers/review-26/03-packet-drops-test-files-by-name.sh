#!/bin/bash
# The review packet's name-based test detection was rewritten; files the old pattern listed as tests
# (`(^|/)test_[^/]+$`) are no longer listed when their extension has a digit or a capital letter, or
# none: an R testthat file test_utils.R, a Fortran test_main.f90, a script test_runner. The packet
# then tells the reviewer the change has no tests.
source "$(dirname "$0")/lib.sh"
setup_repo
BASE=$(git rev-parse HEAD)
printf 'test_that("x", expect_equal(1, 1))\n' > test_utils.R
printf 'program t\nend program t\n' > test_main.f90
printf '#!/bin/sh\nexit 0\n' > test_runner
echo 'x = 2' > app.py
git add -A; git commit -qm change
out=$($H review packet --base "$BASE" 2>&1); echo "$out" | sed -n '/[Tt]est/p' | head -12
rc=0
for f in test_utils.R test_main.f90 test_runner; do
  echo "$out" | grep -q -- "- \`$f\`" || { echo "DEFECT: $f is not listed among the packet's test files"; rc=1; }
done
exit $rc
