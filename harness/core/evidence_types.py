"""The nine built-in evidence types, and the named custom types a project adds: `custom.NAME`.

One `custom` type serves one extra check; a project with several (a speed target, an end-to-end
suite, a docs build) names each, so each is its own command, record, gate line and citation.
A name is a lower-case word: it becomes a file name (`evidence/custom.NAME.json`).
"""

from __future__ import annotations

import re

EVIDENCE_TYPES = (
    "build", "lint", "typecheck", "unit_test", "integration_test",
    "contract_test", "security", "review", "custom", "pass_to_pass", "fail_to_pass",
)
# Types the harness runs itself, never from a command of config.yaml's: PASS_TO_PASS runs the
# test command on the current source with the base's protected files, FAIL_TO_PASS the current
# protected files on the base's source (see harness.core.suite).
BUILTIN = ("pass_to_pass", "fail_to_pass")
_NAMED_FORM = r"custom\.[a-z][a-z0-9_]{0,39}"
_NAMED = re.compile(_NAMED_FORM)
# The same rule for the JSON schemas (tests/test_event_schemas.py holds them to it).
# No line break anywhere: `$` would also match before a final newline.
PATTERN = r"^(?!.*\n)(?:" + "|".join(EVIDENCE_TYPES) + "|" + _NAMED_FORM + ")$"
FORMS = ", ".join(EVIDENCE_TYPES) + ", or custom.NAME (NAME a lower-case word: custom.perf)"
METAVAR = "[" + "|".join([*EVIDENCE_TYPES, "custom.NAME"]) + "]"


def is_evidence_type(value: object) -> bool:
    return isinstance(value, str) and (value in EVIDENCE_TYPES or _NAMED.fullmatch(value) is not None)
