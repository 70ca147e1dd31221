"""The literals each built-in redaction rule needs come from a table made with the harness
(harness/core/regex_needs_data.py), not from parsing every rule in every process that redacts:
the table must be exactly what the analysis computes, and a pattern it does not hold is analysed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from harness import redaction_needs
from harness.core import regex_needs
from harness.core.regex_needs_data import KNOWN

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_table_is_what_the_generator_writes_now():
    committed = (ROOT / "harness/core/regex_needs_data.py").read_text("utf-8")
    assert committed == redaction_needs.table_text(), (
        "a built-in rule or detect-secrets changed: regenerate the table with "
        "`python -m harness.redaction_needs > harness/core/regex_needs_data.py`")


def test_every_rule_a_writer_holds_is_in_the_table_and_its_entry_is_the_analysis():
    sources = redaction_needs.rule_sources()
    assert len(sources) >= 60 and set(KNOWN) == set(sources)
    for source, flags in sources:
        assert regex_needs.needs(source, flags) == regex_needs.analysed(source, flags), source


def test_a_pattern_the_table_does_not_hold_is_analysed():
    pattern = r"(?i)\bmy-own-token-[0-9a-f]{16}\b"
    assert (pattern, 0) not in KNOWN
    found = regex_needs.needs(pattern, 0)
    assert found.fold and frozenset({"my-own-token-"}) in found.all_of
    assert not found.may_match("nothing here") and found.may_match("x MY-OWN-TOKEN-0123456789abcdef")


def test_the_same_source_with_other_flags_misses_the_table():
    source, flags = next(iter(KNOWN))
    other = flags | re.IGNORECASE
    assert (source, other) not in KNOWN
    assert regex_needs.needs(source, other) == regex_needs.analysed(source, other)


def test_redacting_with_a_writers_rules_analyses_no_regex():
    """What the table is for: a writer's redactions read no rule's literals by parsing its regex."""
    probe = (
        "from harness.core import regex_needs\n"
        "calls = []\n"
        "real = regex_needs.analysed\n"
        "regex_needs.analysed = lambda *a: (calls.append(a[0]), real(*a))[1]\n"
        "from harness.core.redact import compile_patterns\n"
        "from harness import detector_patterns\n"
        "r = compile_patterns(detector=detector_patterns.sources())\n"
        "print(r.redact('plain text, password=hunter22, a url https://u:p@host/x and sk-ant-' + 'x' * 40))\n"
        "print(len(calls), 'analysed')\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    redacted, analysed = out.splitlines()
    assert "hunter22" not in redacted and "[REDACTED:" in redacted
    assert analysed == "0 analysed"
