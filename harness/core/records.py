"""The records that cross module boundaries, typed: what replay builds and the gate, the
projection, status and the guards read. They stay plain dicts at run time (they are
rendered to YAML and JSON as they are); the types say which keys each one has."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any, NotRequired, TypedDict

    class Requirement(TypedDict):
        id: str
        statement: str
        priority: str        # must | should | could
        source: str          # user | spec
        status: str          # pending | implemented | verified | blocked
        evidence: list[str]  # the evidence types cited
        tests: NotRequired[list[str]]  # the test case ids that prove it (FAIL_TO_PASS), once named

    class Invariant(TypedDict):
        id: str
        statement: str
        category: str
        severity: str        # critical | major | minor
        status: str          # pending | verified | violated
        evidence: list[str]

    class EvidenceFact(TypedDict, total=False):
        """An `evidence.collected` event's data: the ledger's word on one run."""

        run_id: str
        type: str
        digest: str
        outcome: str         # passed | failed | timeout | interrupted | not_found | not_executable
        exit_code: int | None
        tree: str
        head: str | None

    class Finding(TypedDict):
        id: str
        content: dict[str, Any]             # the proposal as the reviewer wrote it
        severity: str
        status: str
        attempts: list[dict[str, Any]]      # reproduction runs
        reproduction: dict[str, Any] | None  # the run that confirmed it
        regression_test: dict[str, Any] | None
        regression_run: dict[str, Any] | None
        fix_commit: str | None
        full_suite: dict[str, Any] | None
        rejected_reason: str | None
        proposed_on: dict[str, Any] | None  # {tree, head, files}: the code and files it was proposed with
else:  # dicts at run time, as they always were: making the TypedDicts cost a session hook a millisecond or two
    Requirement = Invariant = EvidenceFact = Finding = dict
