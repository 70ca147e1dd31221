#!/usr/bin/env bash
# The suite depended on the developer's shell: test_template_junit_report_location_keeps_evidence_fresh ran
# pytest in its scratch repository with the caller's environment, so where PYTHONDONTWRITEBYTECODE is unset
# (a user's default) pytest wrote __pycache__/ into the measured source and the evidence went STALE.
# Runs that test without the variable: exit 1 while it fails, 0 when it passes, 2 when it could not run.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
cd "$here" || exit 2
env -u PYTHONDONTWRITEBYTECODE -u PYTHONPATH python -m pytest -q -p no:cacheprovider -n 0 tests/test_freshness.py \
  -k template_junit_report_location_keeps_evidence_fresh
case $? in 0) exit 0 ;; 1) exit 1 ;; *) exit 2 ;; esac
