"""Assemble what the gate judges — from the working tree or from a commit."""

from __future__ import annotations

from harness import paths
from harness.core import gate

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

    from harness.core.blockers import Blocker
    from harness.core.records import Finding
    from harness.signatures.trust import Signers
    from harness.store.reader import LoadedTask
    from harness.store.settings import Config, GatePolicy
    from harness.store.source import Source


def configured_commands(src: Source) -> dict[str, list[str]]:
    """type -> the argv config.yaml names for it, as an evidence record would show it."""
    from harness.store import settings

    return settings.config_of(src).configured_argv()


def configured_identities(src: Source) -> dict[str, dict]:
    """type -> the identity of config.yaml's command for it (argv, JUnit report, shell)."""
    from harness.store import settings

    return settings.config_of(src).configured_identity()


def redacted(commands: dict[str, list[str]], patterns: list[str]) -> dict[str, list[str]]:
    """``commands`` through the config's ``patterns`` and this process's secret-named variables."""
    if not commands:
        return {}  # no command to show: the redaction rules are not even built
    import os

    from harness.core.redact import compile_patterns, redact_argv, secret_env

    redactor = compile_patterns(patterns, literals=secret_env(os.environ))
    return {t: redact_argv(argv, redactor) for t, argv in commands.items()}


def needs_cases(task: LoadedTask, policy: GatePolicy) -> bool:
    """Whether the gate compares test cases: a requirement names some (or its contract plans some),
    or, with a protected suite, a finding's regression test is verified."""
    from harness.core.cases import is_case

    plan = contract_plan(task)
    return (any(r.get("tests") or any(is_case(e) for e in plan.get(r["id"], [])) for r in task.proj.requirements.values())
            or (bool(policy.suite) and any(f["status"] in ("VERIFIED", "CLOSED") for f in task.proj.findings.values())))


def introduced_types(src: Source, base: str | None, cited: set[str], strict: bool,
                     signers: Signers) -> dict[str, Any]:
    """Of the ``cited`` evidence types, those whose command is not config.yaml's at the task's base:
    added or changed since (this change's own command), or run by hand with no command of
    config.yaml's at all. A human's approval of how config.yaml came from the base's (`approve config-change`,
    checked against the base's signers: in one approval, or step by step, gate/config_approval.py) vouches for
    the types it configures; nothing vouches for one run by hand. With no config.yaml at the base the change adopts the harness, and whoever adopts it
    configures every type: only those run by hand count then. Run by hand counts only with a
    protected suite (``strict``): without one, a type config.yaml does not name is reported in a
    note and CI's re-run refuses it, as it always was. As gate facts: ``introduced``, those types;
    ``base_unread``, the base commit when it is needed and this repository lacks it (the gate refuses
    the cited types for that reason); ``adopted_at``, the commit whose commands stood for the base's
    when the base predates the harness (read 52's F-0098); ``config_unapproved_at``, the commit whose change of
    config.yaml no approval covers, when the chain of approvals from the base breaks at a commit (read 102's
    F-0360: that step is what a human approves, `approve config-change --commit`)."""
    from harness.core.evidence_types import BUILTIN
    from harness.errors import HarnessError

    cited = cited - set(BUILTIN)
    out: dict[str, Any] = {"introduced": [], "base_unread": None, "adopted_at": None, "config_unapproved_at": None}
    if not cited:  # no verified must requirement leans on a type: nothing to read at the base
        return out
    now = configured_identities(src)
    by_hand = sorted(cited - set(now)) if strict else []
    at = getattr(src, "at", None)
    base_src = at(base) if (base and at) else None
    if base and base_src is None:
        # Not in this repository (a shallow clone's history stops short of it): what the base configured cannot
        # be read, and taking the change for one that adopts the harness would let any command verify (F-0097).
        shallow = getattr(src, "shallow", None)
        return {**out, "introduced": by_hand, "base_unread": {"commit": base, "shallow": bool(shallow and shallow())}}
    base_src, out["adopted_at"] = _judged_against(src, base_src)
    if base_src is None:
        return {**out, "introduced": by_hand}  # no commit before this change holds config.yaml: it adopts
    try:
        before = configured_identities(base_src)
    except HarnessError:
        before = {}  # an invalid config at the base named no command anyone relied on
    changed = sorted(t for t in cited & set(now) if before.get(t) != now[t])
    if changed:
        from harness.gate.config_approval import vouched_since

        vouched, out["config_unapproved_at"] = vouched_since(src, base_src, _commit_of(base_src), signers)
        changed = [] if vouched else changed
    return {**out, "introduced": sorted({*by_hand, *changed})}


def unapproved_config(src: Source, signers: Signers) -> dict[str, Any] | None:
    """What config.yaml in ``src`` changes from HEAD's that the commit hook refuses, with no approval to cover it, when
    ``src`` is a tree no commit holds yet (the working tree, the index): {"changes": the fields it changes, by name
    alone (a blocker is kept in the task's ledger: no command or pattern is spelled), "rules": the commit rules that
    refuse it, "why": why a claimed approval did not count}. None when there is none, and for a commit's own tree,
    whose change the commit rule judged against its parents. Read 103's F-0361: the gate passed a changed command no
    must requirement cited, and the task reached a DONE its commit was then refused for."""
    onto = getattr(src, "committed_onto", None)
    head = onto() if onto is not None else None
    if head is None:
        return None
    from harness.gate.config_approval import refused

    needs, why = refused(head, src, signers)
    if not needs.items:
        return None
    rules = [rule for rule, items in (("evidence-commands-need-approval", needs.commands),
                                      ("redaction-patterns-need-approval", needs.patterns)) if items]
    return {"changes": needs.named(), "rules": rules, "why": why}


def config_blocker(src: Source, signers: Signers) -> Blocker | None:
    """The gate's config_unapproved blocker for ``src`` as it is now (None: no such change). A gate PASS is bound to the
    source tree without `.harness/`, so a change of config.yaml after it left the PASS standing: transition DONE, and
    a DONE not committed yet, ask this (read 108's F-0379)."""
    from harness.core.gate_checks import config_unapproved_blocker

    found = unapproved_config(src, signers)
    return config_unapproved_blocker(found) if found else None


def _judged_against(src: Source, base_src: Any) -> tuple[Any, str | None]:
    """The files whose commands this change's are compared with, and where the history adopted the harness when
    that is not the base: (None, "this change") when this change adopts it."""
    from harness.errors import HarnessError

    adoption = getattr(src, "adoption", None)
    if base_src is None or base_src.read(paths.CONFIG) is None:
        # No config.yaml at the base (or no base): the base alone is the agent's to choose, so the commands are
        # compared with those the history adopted the harness with (gitio/adoption.py), whatever the base.
        adopted = adoption() if adoption is not None else None
        return (adopted, _commit_of(adopted)) if adopted is not None else (None, "this change")
    if adoption is None:
        return base_src, None
    # A base holding config.yaml is taken at its word on the line that adopted the harness only: the agent's own
    # adoption on a line begun before the real one, or an orphan root (a protected suite's base falls back to
    # HEAD), is a rival's, whose commands nobody approved (read 63a's F-0154, F-0159).
    try:
        adopted = adoption()
    except HarnessError:
        # Two adoptions merged (two colleagues ran `harness init`): a base after the merge, on the line being judged,
        # is where the refusal says to start, and its commands are the project's (read 64's F-0206). One the agent
        # made on a line of its own is not on that line, and the refusal stands.
        on_line = getattr(src, "on_its_line", None)
        if on_line is not None and on_line(_commit_of(base_src)):
            return base_src, None
        raise
    if adopted is None or base_src.on_its_line(_commit_of(adopted)):  # the base descends from the adoption
        return base_src, None
    return adopted, _commit_of(adopted)


def _commit_of(src: Any) -> str:
    return getattr(src, "rev", None) or getattr(src, "commit", None) or "a commit"


def case_lists(src: Source, task: LoadedTask, evidence: dict[str, dict],
               policy: GatePolicy) -> dict[str, dict[str, str]]:
    """type -> case id -> outcome, from the case list beside each record, when the gate compares
    test cases (FAIL_TO_PASS) and only then: a list is as long as the suite. (``evidence`` comes from
    load_valid, which has refused a list whose digest is not its record's.)"""
    if not needs_cases(task, policy):
        return {}
    from harness.core.cases import read_cases

    out = {}
    for etype, record in evidence.items():
        raw = src.read(f"{task.dir}/evidence/{etype}.cases") if record.get("cases_digest") else None
        if raw is not None:
            out[etype] = read_cases(raw)
    return out


def builtin_commands(config: Config, policy: GatePolicy, base: str | None, recorded: bool) -> tuple[dict, dict]:
    """(type -> argv, type -> identity) of config.yaml's commands, and of PASS_TO_PASS: the test
    command it runs, bound to the task's base and the protected paths. Without a `suite:` section
    (or its test command) no PASS_TO_PASS record counts: its identity is one no run has."""
    from harness.core import suite

    argv, identity = config.configured_argv(), config.configured_identity()
    spec = policy.suite
    if not (spec or recorded or {"pass_to_pass", "fail_to_pass"} & set(policy.doc["verification"])):
        return argv, identity
    test_type = (spec or {}).get("test_type", suite.DEFAULT_TEST_TYPE)
    for kind in ("pass_to_pass", "fail_to_pass"):
        if spec and test_type in identity:
            argv[kind] = argv[test_type]
            identity[kind] = suite.identity(identity[test_type], test_type, base, spec["paths"], kind)
        else:
            argv[kind], identity[kind] = [], {kind: None}
    return argv, identity


def contract_plan(task: LoadedTask) -> dict[str, list[str]]:
    contract = (task.proj.contract or {}).get("contract") or {}
    return {item["id"]: list(item.get("verified_by") or [])
            for key in ("requirements", "invariants") for item in contract.get(key) or []}


def gate_input(src: Source, task: LoadedTask, policy: GatePolicy, tree: str, signers: Signers) -> gate.GateInput:
    return gate_input_at(gate_facts(src, task, policy, signers), tree)


def gate_facts(src: Source, task: LoadedTask, policy: GatePolicy, signers: Signers) -> dict:
    """Everything the gate judges except the source tree and this process's environment, as
    plain JSON values: what a task folder, gate.yaml and config.yaml say (and whose approvals of
    a config.yaml count, ``signers``), so a stamp can keep it keyed by their object ids. (The
    configured commands are kept as committed — config.yaml is in the repository anyway — and
    redacted with the current environment at each use.)"""
    from harness.store import settings
    from harness.store.evidence_files import load_valid

    p = task.proj
    pending: dict[str, list[str]] = {}
    for run in p.pending_runs.values():
        pending.setdefault(run["type"], []).append(run.get("started_at") or f"as run {run['run_id']}")
    config = settings.config_of(src)
    configured, identity = builtin_commands(config, policy, p.base_commit,
                                            recorded=bool({"pass_to_pass", "fail_to_pass"} & set(p.evidence)))
    evidence = load_valid(src, task)
    cited = {t for r in p.requirements.values() if r["priority"] == "must" and r["status"] == "verified" for t in r["evidence"]}
    return {
        "state": p.state,
        "requirements": list(p.requirements.values()),
        "invariants": list(p.invariants.values()),
        "evidence": evidence,
        "cases": case_lists(src, task, evidence, policy),
        **introduced_types(src, p.base_commit, cited, strict=bool(policy.suite), signers=signers),
        # Only where the gate can pass (or evidence is collected: then it says so early): a status before any evidence
        # runs no git process, and on any earlier state the gate blocks anyway.
        "config_unapproved": unapproved_config(src, signers) if p.state in gate.DECIDING_STATES or p.evidence else None,
        "pending": pending,
        "findings": list(p.findings.values()),
        "policy": policy.doc,
        "configured": configured,
        "configured_identity": identity,
        "redaction": list(config.redaction),
        "plan": contract_plan(task),
    }


def gate_input_at(known: dict, tree: str) -> gate.GateInput:
    """The gate's input for ``known`` (see :func:`gate_facts`) judged at the source ``tree``."""
    fields = {k: v for k, v in known.items() if k not in ("redaction", "configured_identity")}
    fields["findings"] = [{**f, "regression_fresh": _regression_fresh(f, tree)} for f in known["findings"]]
    fields["configured"] = redacted(known["configured"], known["redaction"])
    fields["configured_digests"] = {t: gate.command_digest(i) for t, i in known["configured_identity"].items()}
    return gate.GateInput(**fields, tree=tree)


def _regression_fresh(finding: Finding, tree: str) -> bool | None:
    run = finding.get("regression_run")
    return None if not run else run.get("tree") == tree


def configured_types(src: Source) -> list[str]:
    """The evidence types config.yaml configures in ``src`` (none when it is missing or invalid:
    the strictest defaults then apply)."""
    from harness.errors import HarnessError

    try:
        return list(configured_commands(src))
    except HarnessError:
        return []
