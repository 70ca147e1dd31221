"""A command's result is reported by its type: each result kind has its text reporter, and its JSON
is its own ``as_dict()``; only a result whose JSON is a list (as it always was) has a JSON reporter instead."""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass

import pytest

from harness.cli.reporters import json_report, report, text_report

# Every module a command imports `report` from (each registers the reporters of its results).
REPORT_MODULES = ["approve_report", "audit_report", "converge", "evidence_report", "finding_report", "gate_report",
                  "install_report", "metrics_report", "skills_report", "stamp_report", "status_report", "task_report"]

# result type -> its command's --json: an object (the result's as_dict()), a list (a registered reporter), or none
RESULTS = {
    "harness.task.listing": {"TaskList": "list", "FindingList": True},
    "harness.findings.steps": {"FindingStep": True, "Proposed": "list"},
    "harness.history.audit": {"AuditResult": True},
    "harness.history.pre_receive": {"PushChecked": True},
    "harness.history.stamp_commit": {"Stamped": True},
    "harness.gate.evaluate": {"GateOutcome": True, "GateInvalid": True},
    "harness.gate.index": {"IndexVerdict": True, "IndexInvalid": True, "IndexNoTask": True},
    "harness.evidence.recording": {"EvidenceRecorded": False},
    "harness.install.shims": {"Installed": False, "Uninstalled": False},
    "harness.approvals.approve": {"Pending": False, "Approved": False},
    "harness.gate.converge": {"Convergence": True},
    "harness.history.metrics": {"Metrics": True},
    "harness.install.skills": {"SkillsInstalled": True, "SkillsUninstalled": True},
    "harness.task.status": {"StatusView": True, "NoOpenTask": True},
}
KINDS = [(module, name, has_json) for module, names in RESULTS.items() for name, has_json in names.items()]


@pytest.fixture(scope="module")
def registered() -> None:
    for name in REPORT_MODULES:
        importlib.import_module(f"harness.cli.{name}")


@pytest.mark.parametrize(("module", "name", "has_json"), KINDS, ids=[k[1] for k in KINDS])
def test_every_result_kind_has_its_reporters(registered, module, name, has_json):
    kind = getattr(importlib.import_module(module), name)
    assert text_report.dispatch(kind) is not text_report.dispatch(object), f"{name} has no text reporter"
    if has_json == "list":
        assert json_report.dispatch(kind) is not json_report.dispatch(object), f"{name} has no JSON reporter"
    elif has_json:
        assert callable(getattr(kind, "as_dict", None)), f"{name} has no as_dict()"
        assert json_report.dispatch(kind) is json_report.dispatch(object), f"{name}'s JSON is built outside it"


def test_a_result_kind_nothing_reports_is_refused_by_name():
    @dataclass
    class Unreported:
        value: int

    with pytest.raises(TypeError, match="no text reporter is registered for Unreported"):
        report(Unreported(1), as_json=False)
    with pytest.raises(TypeError, match="Unreported has no as_dict"):
        report(Unreported(1), as_json=True)


def test_a_result_is_printed_as_json_from_its_own_as_dict(capsys):
    from harness.history.stamp_commit import Stamped

    note = {"commit": "c" * 40, "ref": "refs/notes/harness", "source_tree": "t" * 40, "tasks": {}}
    report(Stamped(note), as_json=True)
    assert json.loads(capsys.readouterr().out) == note


def test_a_result_kind_is_picked_by_its_type_not_its_name(registered, capsys):
    from harness.history import stamp_commit as stamp
    class AmendedStamp(stamp.Stamped):  # another name, a narrower type: still the stamp's reporter
        pass

    report(AmendedStamp({"commit": "c" * 40, "ref": "refs/notes/harness", "source_tree": "t" * 40, "tasks": {}}), False)
    assert capsys.readouterr().out == f"stamped {'c' * 12} on refs/notes/harness (source tree {'t' * 12})\n"


def test_a_list_shaped_result_keeps_its_registered_json_reporter(registered, capsys):
    from harness.task.listing import TaskList

    rows = [{"id": "T-0001", "state": "DRAFT", "title": "one", "current": True}]
    report(TaskList(rows), as_json=True)
    assert json.loads(capsys.readouterr().out) == rows
