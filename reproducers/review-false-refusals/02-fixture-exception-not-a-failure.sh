#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
D=$(cd "$(dirname "$0")" && pwd)  # this folder: common.inc, its helpers
# A real bug that raises while a pytest FIXTURE builds the object under test is no longer accepted as a
# reproduction or a regression test. test_verdict.no_verdict (new) reads pytest's summary and, for exit 1,
# calls any run whose summary counts no "failed" a run that "decided nothing": `1 error` is treated like a
# missing fixture (F-0005). But pytest reports ERROR, not FAILED, whenever the code under test raises inside
# a fixture (a constructor in a fixture is the ordinary pytest style), so the bug's honest reproducer
# (`pytest tests/test_server.py`, exit 1, the IndexError of the bug in its output) is refused, and so is the
# regression test. Control: the same check written without a fixture is accepted.
# Exit 1 while the fixture-style reproducer is refused; 0 when it confirms the finding.
source "$D"/common.inc
source "$D"/flow.inc
cat > server.py <<'P'
class Server:
    def __init__(self, address):
        self.host = address.split(":")[0]
        self.port = int(address.split(":")[1])  # bug: "localhost" (no port) raises instead of meaning port 80
P
cat > tests/test_server.py <<'P'
import pytest
import server

@pytest.fixture
def srv():
    return server.Server("localhost")

def test_default_port(srv):
    assert srv.port == 80
P
cat > tests/test_server_plain.py <<'P'
import server

def test_default_port_plain():
    assert server.Server("localhost").port == 80
P
git add -A && git commit -qm server || exit 2
mk() { # ID FILE: propose a finding whose reproducer is pytest on FILE
cat > prop.yaml <<P
type: suspected_defect
severity: major
category: correctness
title: Server without a port crashes ($2)
claim: Server("localhost") raises IndexError instead of using port 80
location: {file: server.py, line: 4}
failure_scenario: ["import server", "server.Server('localhost')"]
expected_behavior: "port 80"
recommended_reproducer: {type: unit_test, description: d, command: ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "$2"]}
P
harness finding propose --file prop.yaml >/dev/null 2>&1 || exit 2
}
mk F-0002 tests/test_server_plain.py
harness finding reproduce F-0002 >/dev/null 2>&1
[ "$(status F-0002)" = CONFIRMED ] || { echo "setup: control F-0002 (no fixture) not CONFIRMED" >&2; exit 2; }
echo "control (no fixture): F-0002 $(status F-0002)"
mk F-0003 tests/test_server.py
out=$(harness finding reproduce F-0003 2>&1); echo "$out" | grep -E "exited|IndexError|error in" | tail -4
echo "fixture style: F-0003 $(status F-0003)"
[ "$(status F-0003)" = CONFIRMED ] || fail=1
exit $fail
