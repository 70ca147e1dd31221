"""A file that does not validate is refused naming each problem (up to five), not the first and a count:
a reviewer's proposal missing four fields is fixed in one round, not four."""

from __future__ import annotations

from support.flows import propose


def test_a_proposal_missing_fields_names_each_of_them(h, task, tmp_path):
    r = propose(h, tmp_path, {"findings": [{"title": "t", "severity": "minor", "category": "correctness", "claim": "c"}]})
    assert r.code != 0
    for field in ("expected_behavior", "failure_scenario", "location", "recommended_reproducer"):
        assert f"'{field}' is a required property" in r.text, r.text
    assert "more)" not in r.text
