"""A project configured with a build and a unit test that asks `app.answer() == 42`, and the walk of a task
with one must requirement to GATING on that evidence: the setting of the gate's and the approvals' tests."""

from __future__ import annotations

import sys

from support.cli import TO_VERIFYING, walk_to

PY = sys.executable

CONFIG = """version: 1
evidence:
  build:
    command: ["{py}", "-c", "pass"]
  unit_test:
    command: ["{py}", "-c", "import app; assert app.answer() == 42"]
"""


def configure(repo) -> None:
    (repo / ".harness/config.yaml").write_text(CONFIG.format(py=PY))


def to_gating(h) -> None:
    h.ok("requirement", "add", "The answer is 42", "--priority", "must")
    walk_to(h, *TO_VERIFYING)
    h.ok("evidence", "build")
    h.ok("evidence", "unit_test")
    h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
    walk_to(h, "REVIEWING", "GATING")
