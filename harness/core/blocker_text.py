"""Old ledgers' blockers: a `gate.evaluated` event written before blocker keys were recorded holds
only the sentences. Each is classified here, once, as it is read, into the :class:`Blocker` the gate
gives now; nothing else in the harness reads a blocker's words.

The patterns are the sentences of :mod:`harness.core.gate_checks` as they were when keys began to be
recorded: they must not follow later rewordings, since no ledger written after that needs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from harness.core.blockers import Blocker, cites_kind, evidence_kind

_ID = r"(?:REQ|INV)-\d+"
_PHRASE = {"passing": "PASS", "failing": "FAIL", "stale": "STALE", "missing": "MISSING",
           "of unknown outcome": "UNKNOWN", "from a run during which the source changed": "CHANGED",
           "not from the configured command": "OTHER"}
_REQUIRED = {"is missing (required)": "MISSING", "failed:": "FAIL", "outcome unknown:": "UNKNOWN",
             "is unstable:": "CHANGED", "does not count:": "OTHER", "is stale:": "STALE"}


def _item_check(item: str) -> str:
    return "requirements_verified" if item.startswith("REQ") else "invariants_hold"


def _finding_check(label: str) -> str:
    return "regression_verified" if label.startswith("Finding ") else "requirements_verified"


def _subject_of(label: str) -> str:
    return label.removeprefix("Finding ")


# (pattern, builder of (check, kind, subject) from the match), tried in order: the first match decides.
_Key = tuple[str, str, tuple[str, ...]]
_RULES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], _Key]]] = [
    (re.compile(r"^state (\w+): the gate decides only in GATING$"),
     lambda m: ("state_allows", "state_not_deciding", (m[1],))),
    (re.compile(rf"^({_ID}) not verified$"), lambda m: (_item_check(m[1]), "not_verified", (m[1],))),
    (re.compile(rf"^({_ID}) cites ([\w.-]+) evidence that is (.+)$"),
     lambda m: (_item_check(m[1]), cites_kind(_PHRASE.get(m[3], "OTHER")), (m[1], m[2]))),
    (re.compile(rf"^({_ID}): the contract plans verification by "), lambda m: (_item_check(m[1]), "plan_gap", (m[1],))),
    (re.compile(rf"^({_ID}) cites ([\w.-]+), whose command is not the one config\.yaml configured"
                r"(?:.*?`harness approve config-change --commit ([0-9a-f]+)`)?"),
     lambda m: ("requirements_verified", "introduced_command", (m[1], m[2], *([m[3]] if m[3] else [])))),
    (re.compile(rf"^({_ID}) names no test case that proves it"),
     lambda m: ("requirements_verified", "no_test_named", (m[1],))),
    (re.compile(rf"^({_ID}) names test cases, but cites no run of the suite's test command"),
     lambda m: ("requirements_verified", "no_suite_run", (m[1],))),
    (re.compile(rf"^({_ID}|Finding F-\d+) names test cases, but fail_to_pass evidence is (failing:)?"),
     lambda m: (_finding_check(m[1]), "fail_to_pass_failing" if m[2] else "fail_to_pass_unusable", (_subject_of(m[1]),))),
    (re.compile(r"^(Finding F-\d+): its regression test is not shown passing in a fresh "),
     lambda m: ("regression_verified", "regression_not_in_run", (_subject_of(m[1]),))),
    (re.compile(r"^(Finding F-\d+): its regression test "),
     lambda m: ("regression_verified", "regression_gap", (_subject_of(m[1]),))),
    (re.compile(rf"^({_ID}|Finding F-\d+): test "),
     lambda m: (_finding_check(m[1]), "fail_to_pass_gap", (_subject_of(m[1]),))),
    (re.compile(r"^\d+ requirement\(s\) cite no evidence: ([^(]*)"),
     lambda m: ("requirements_verified", "uncovered", tuple(re.findall(r"REQ-\d+", m[1])))),
    (re.compile(r"^(INV-\d+) violated$"), lambda m: ("invariants_hold", "violated", (m[1],))),
    (re.compile(r"^([\w.-]+) evidence (is missing \(required\)|failed:|outcome unknown:|is unstable:|does not count:"
                r"|is stale:)"),
     lambda m: ("required_evidence", evidence_kind(_REQUIRED[m[2]]), (m[1],))),
    (re.compile(r"^(Critical|Major) finding (F-\d+) is open( \(rejected)?"),
     lambda m: (f"{m[1].lower()}_findings", "finding_unrefuted" if m[3] else "finding_open", (m[2],))),
    (re.compile(r"^Confirmed finding (F-\d+) has no regression test$"),
     lambda m: ("regression_debt", "no_regression_test", (m[1],))),
    (re.compile(r"^Finding (F-\d+) regression test not verified yet$"),
     lambda m: ("regression_verified", "regression_unverified", (m[1],))),
    (re.compile(r"^Finding (F-\d+) regression evidence is stale$"),
     lambda m: ("regression_verified", "regression_stale", (m[1],))),
]


def classify(text: str) -> Blocker:
    """The blocker a recorded sentence is. One no rule knows keeps, as its subject, the sentence up to
    where run-specific details start (a tree, a time, an exit code), so two runs still compare."""
    for pattern, build in _RULES:
        m = pattern.match(text)
        if m:
            check, kind, subject = build(m)
            return Blocker(check, kind, subject, text)
    return Blocker(_check_of_unknown(text), "unknown", (re.split(r"[:(]", text, maxsplit=1)[0].strip(),), text)


def _check_of_unknown(text: str) -> str:
    """The check a sentence no rule knows belongs to, told by what it opens with (a requirement, an
    invariant, a finding): a stall of such sentences is still named for what they are about."""
    m = re.match(rf"({_ID})\b|(Critical|Major) finding F-\d+\b|Finding F-\d+\b", text)
    if m is None:
        return "unknown"
    if m[1]:
        return _item_check(m[1])
    return f"{m[2].lower()}_findings" if m[2] else "regression_verified"
