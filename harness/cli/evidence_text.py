"""`harness evidence`'s report as lines, all for stderr (stdout carries the command's own output):
without click, so that the click command (harness.cli.evidence_report) and the path answered
before click loads (harness.cli.evidence_fast) print the same bytes."""

from __future__ import annotations

from harness.cli.next_text import next_lines
from harness.evidence.recording import EvidenceRecorded


def evidence_lines(e: EvidenceRecorded) -> list[str]:
    record = e.record
    note = _changed_note(record)
    counts = "" if record["passed"] is None else (
        f" — {record['passed']} passed, {record['failed']} failed, {record['skipped']} skipped, {record['errors']} errors")
    exit_text = "no exit code" if record["exit_code"] is None else f"exit {record['exit_code']}"
    lines = [f"harness: {e.etype} evidence recorded: {record['outcome']} ({exit_text}) "
             f"on tree {record['tree'][:12]}{counts}{note}"]
    if record["error"]:
        lines.append(f"harness: {record['error']}")
    if record.get("pass_to_pass"):
        lines += _pass_to_pass_lines(record["pass_to_pass"])
    if record.get("fail_to_pass"):
        f2p = record["fail_to_pass"]
        lines.append(f"harness: FAIL_TO_PASS: the change's tests on the base {(f2p['base'] or 'none')[:12]}'s source "
                     f"({len(f2p['protected_changed'])} protected file(s) from the change); a case a requirement names "
                     "must not pass here")
        if f2p.get("unproven"):
            lines.append(f"harness: no case passed on the base's source: {f2p['unproven']}")
        elif not f2p.get("cases_passed", 1) and "unproven" not in f2p and record["outcome"] != "passed":
            # a record from before the cause was kept
            lines.append("harness: no case passed on the base's source: the tests could not run there (a file they "
                         "need that git ignores?), so no case can show it fails without the change")
    return lines + next_lines(e.steps)


def _changed_note(record: dict) -> str:
    if not record["tree_after"]:
        return ""
    if record["tree_after"] == record["tree"]:
        return ("; a file of the source was written while it ran (or a folder of it renamed) and put back as it was: "
                "the run does not count — if the command writes build output or rewrites a tracked file, add it to "
                ".gitignore or leave it be; if it renames a folder of the source, have it work on a copy")
    return (f"; the run changed the source tree ({record['tree'][:12]} → {record['tree_after'][:12]}): the evidence "
            "is bound to the tree before the run — if the command writes build output, add it to .gitignore")


def _pass_to_pass_lines(p2p: dict) -> list[str]:
    base = (p2p["base"] or "none")[:12]
    changed = p2p["protected_changed_total"] if "protected_changed_total" in p2p else len(p2p["protected_changed"])
    how = (f"reused {p2p['test_type']} run {p2p['reused_run']} (no protected file differs from the base)"
           if p2p.get("reused_run") else f"{changed} protected file(s) put back as the base has them")
    lines = [f"harness: PASS_TO_PASS against base {base}: {p2p['base_passed']} case(s) passed there; {how}"]
    lines += [f"  lost: {lost['case']} — {lost['how']}" for lost in p2p["lost"]]
    lines += [f"  excused: {case} — a human's signed suite-change approval lets it change" for case in p2p.get("excused", [])]
    if p2p["lost_total"] > len(p2p["lost"]):
        lines.append(f"  … and {p2p['lost_total'] - len(p2p['lost'])} more (the record's .cases file lists every case)")
    return lines
