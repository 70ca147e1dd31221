"""A token a reviewer's finding or a contract holds wrapped over lines in a YAML block that joins lines (a folded `>`
block, a plain or quoted scalar over lines) reaches no file of the task in clear (read 155's F-0546): the parse joins
the token's pieces with a space, where each alone is no token's shape, so the file's own lines are read for it."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from support.records import tdir

_R = random.Random(546)
_AN = string.ascii_letters + string.digits


def _token(prefix: str, n: int) -> str:
    return prefix + "".join(_R.choice(_AN) for _ in range(n))


GHP = _token("ghp_", 36)                     # its rule knows neither half
SKP = _token("sk-proj-", 48)                 # its rule knows the first half alone
XOXB = "xoxb-" + "".join(_R.choice(string.digits) for _ in range(12)) + "-" + \
    "".join(_R.choice(string.digits) for _ in range(13)) + "-" + _token("", 24)


def _task_text(repo: Path, tid: str) -> str:
    return "".join(p.read_text("utf-8", errors="replace") for p in tdir(repo, tid).rglob("*") if p.is_file())


def _finding(claim_block: str) -> str:
    return ("type: risk\nseverity: minor\ncategory: security\ntitle: a wrapped token\n" + claim_block +
            "location: {file: a.txt}\nfailure_scenario: [x]\nexpected_behavior: y\n"
            "recommended_reproducer: {type: review, description: d}\n")


# The three ways YAML joins a scalar's lines with a space, each with a token cut where a terminal or an editor wraps.
JOINING = {
    "folded": lambda t, cut: f"claim: >\n  the log printed\n  {t[:cut]}\n  {t[cut:]}\n",
    "plain": lambda t, cut: f"claim:\n  the client was started with\n  {t[:cut]}\n  {t[cut:]}\n",
    "double-quoted": lambda t, cut: f'claim: "the bot used {t[:cut]}\n  {t[cut:]}"\n',
}


@pytest.mark.parametrize("style", sorted(JOINING))
@pytest.mark.parametrize("token,cut", [(GHP, 20), (SKP, 24), (XOXB, 22)], ids=["github", "openai", "slack"])
def test_f0546_a_token_wrapped_in_a_joining_yaml_scalar_of_a_finding_is_not_kept(h, repo, task, tmp_path, style,
                                                                                   token, cut):
    path = tmp_path / "finding.yaml"
    path.write_text(_finding(JOINING[style](token, cut)), "utf-8")
    r = h("finding", "propose", "--file", str(path))
    assert r.code == 0, r.text
    kept = _task_text(repo, task)
    assert token[cut:] not in kept and token[:cut] not in kept, kept[-600:]
    assert "[REDACTED:" in kept


def test_f0546_a_token_wrapped_in_a_folded_statement_of_a_contract_is_not_kept(h, repo, task, tmp_path):
    path = tmp_path / "contract.yaml"
    path.write_text("contract:\n  acceptance_criteria: [works]\n  requirements:\n"
                    f"    - statement: >-\n        the deploy key is\n        {SKP[:30]}\n        {SKP[30:]}\n"
                    "      priority: should\n  invariants: []\n", "utf-8")
    r = h("contract", "apply", "--file", str(path))
    assert r.code == 0, r.text
    kept = _task_text(repo, task)
    assert SKP[30:] not in kept and SKP[:30] not in kept, kept[-600:]


def test_f0546_folded_prose_and_a_folded_path_are_kept_as_the_parse_joins_them(h, repo, task, tmp_path):
    # the honest case: a folded block of words, ids and a long path joins with spaces, and nothing is replaced
    prose = ("claim: >\n  harness/evidence/outputcut.py cuts the log at tests/test_a_token_wrapped_over_lines\n"
             "  _is_redacted.py::test_table and then ReadTheDocumentationFirst2026Edition\n"
             "  continues SecondHalfOfTheWord2026 as prose\n")
    path = tmp_path / "finding.yaml"
    path.write_text(_finding(prose), "utf-8")
    r = h("finding", "propose", "--file", str(path))
    assert r.code == 0, r.text
    kept = _task_text(repo, task)
    assert ("harness/evidence/outputcut.py cuts the log at tests/test_a_token_wrapped_over_lines "
            "_is_redacted.py::test_table and then ReadTheDocumentationFirst2026Edition continues "
            "SecondHalfOfTheWord2026 as prose") in kept
    assert "[REDACTED:" not in kept
