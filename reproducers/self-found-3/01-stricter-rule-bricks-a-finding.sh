#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# A finding proposed by an older harness holds text a newer rule reads as a secret (here the AWS
# documented example key with one character quoted-printable-escaped, which the redactor decodes since
# F-0159). The finding's YAML file is rendered again from its ledger whenever its state changes; the
# commit check read the whole re-rendered file and refused every later commit of the finding, although
# that commit brings no new text and the ledger line it renders from cannot change (append-only).
# Exit 1 while the commit that only changes the finding's state is refused; 0 when it is accepted; 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
cat > "$T/f.yaml" <<'YAML'
type: suspected_defect
severity: minor
category: secret_leak
title: a spelling of the example key
claim: 'the log printed AKIAIOSF=4FDNN7EXAMPLE'
related_requirements: []
location: {file: app.py, line: 1}
failure_scenario: [run it]
expected_behavior: redacted
recommended_reproducer: {type: unit_test, description: a run, command: ['true']}
YAML
# The older harness: its store did not know that spelling (its redaction is a no-op for this run).
python - "$T/f.yaml" <<'PY' || exit 2
import sys
import harness.store.secrets_check as sc
sc.redact_data = lambda data, red, key=None, written=False: data
sc.agents_name_flagged = lambda data, red: None
sys.argv = ["harness", "finding", "propose", "--file", sys.argv[1]]
from harness.cli.launch import entry
entry()
PY
grep -rq "AKIAIOSF=4FDNN7EXAMPLE" .harness/tasks || exit 2
git add -A && git commit -q --no-verify -m "committed by the older harness" || exit 2
harness finding reproduce F-0001 >/dev/null 2>&1  # its state changes, whatever the run says
git add -A
if git commit -q -m "the finding reproduced" >/dev/null 2>&1; then echo "accepted"; exit 0; fi
echo "refused: the commit that only changes the finding's state"; exit 1
