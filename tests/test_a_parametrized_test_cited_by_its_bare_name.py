"""A must requirement that cites a parametrized test by its bare name is not proved by it (the report holds one case
per parameter, and a bare name never stands for all of them), and the gate says so in words that name the cases to
cite, rather than only that the test "did not pass"."""

from __future__ import annotations

from harness.core import cases
from harness.core.cases import fail_to_pass_gaps

NOW = {f"tests.test_calc::test_adds[{n}]": "passed" for n in range(5)} | {"tests.test_calc::test_plain": "failed"}


def test_a_bare_name_of_parametrized_cases_names_them() -> None:
    text = cases.not_passed("REQ-001", "tests.test_calc::test_adds", NOW)
    assert text == ("REQ-001: test tests.test_calc::test_adds did not pass in the cited run: it ran as parametrized "
                    "cases (tests.test_calc::test_adds[0], tests.test_calc::test_adds[1], tests.test_calc::test_adds[2]"
                    ", … (5 in all)); cite each one that proves it")


def test_a_case_that_ran_or_never_ran_keeps_the_plain_words() -> None:
    assert cases.not_passed("REQ-001", "tests.test_calc::test_plain", NOW) == \
        "REQ-001: test tests.test_calc::test_plain did not pass in the cited run"
    assert cases.not_passed("REQ-001", "tests.test_calc::test_missing", NOW) == \
        "REQ-001: test tests.test_calc::test_missing did not pass in the cited run"
    # a name that only starts like a case's is no parameter of it
    assert "parametrized" not in cases.not_passed("REQ-001", "tests.test_calc::test_add", NOW)


def test_the_gate_s_gaps_use_those_words_and_still_refuse() -> None:
    gaps = fail_to_pass_gaps("REQ-001", "the requirement", ["tests.test_calc::test_adds"], NOW, {})
    assert gaps[0].startswith("REQ-001: test tests.test_calc::test_adds did not pass in the cited run: it ran as")
    cited = fail_to_pass_gaps("REQ-001", "the requirement", [f"tests.test_calc::test_adds[{n}]" for n in range(5)], NOW,
                              {f"tests.test_calc::test_adds[{n}]": "failed" for n in range(5)})
    assert cited == []
