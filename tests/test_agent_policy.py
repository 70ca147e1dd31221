"""The pure stop and session-start decisions, over every state."""

from __future__ import annotations

import pytest

from harness.agent.judge import agent_policy as policy
from harness.agent.session_text import session_context
from harness.core.states import STATES

BLOCKING_STATES = {"IMPLEMENTING", "VERIFYING", "FIXING", "REVIEWING", "REPRODUCING", "GATING", "CONVERGED"}


def facts(state: str, ev_tree: str = "old", tree: str = "new", gate: str = "BLOCKED") -> policy.TaskFacts:
    return policy.TaskFacts("TASK-1", "Title", state, 0, 5, ("build", "unit_test"),
                            {"unit_test": ev_tree}, tree, gate)


@pytest.mark.parametrize("state", sorted(STATES))
def test_stale_required_evidence_blocks_exactly_the_states_in_flight(state: str) -> None:
    verdict = policy.stop_verdict(facts(state))
    assert verdict.block == (state in BLOCKING_STATES)
    if verdict.block:
        assert "harness evidence unit_test" in verdict.reason


@pytest.mark.parametrize("state", sorted(STATES))
def test_fresh_evidence_never_blocks_except_a_converged_task_whose_gate_fails(state: str) -> None:
    verdict = policy.stop_verdict(facts(state, ev_tree="same", tree="same"))
    assert verdict.block == (state == "CONVERGED")
    assert not policy.stop_verdict(facts(state, ev_tree="same", tree="same", gate="PASS")).block


def test_missing_evidence_is_not_stale_evidence() -> None:
    f = policy.TaskFacts("T", "t", "IMPLEMENTING", 0, 5, ("unit_test",), {}, "", "BLOCKED")
    assert not policy.stop_verdict(f).block


def test_no_task_never_blocks() -> None:
    assert not policy.stop_verdict(None).block
    assert session_context(None) == ""


def test_the_cap_counts_per_session_and_tree_then_releases_once() -> None:
    block = policy.StopVerdict(True, "stale")
    count = None
    for n in (1, 2):
        v, count, released = policy.apply_cap(block, count, "s", "t1", limit=2)
        assert v.block and count.blocks == n and not released
    v, count, released = policy.apply_cap(block, count, "s", "t1", limit=2)
    assert not v.block and released and "2 consecutive blocks" in v.message
    v, count, released = policy.apply_cap(block, count, "s", "t1", limit=2)
    assert not v.block and not released
    v, count2, _ = policy.apply_cap(block, count, "s", "t2", limit=2)
    assert v.block and count2.blocks == 1
    v, count3, _ = policy.apply_cap(block, count, "other", "t1", limit=2)
    assert v.block and count3.blocks == 1
    v, reset, _ = policy.apply_cap(policy.StopVerdict(False), count, "s", "t1", limit=2)
    assert not v.block and reset is None


def test_an_error_blocks_once_per_session() -> None:
    v, count = policy.error_verdict(None, "s", "boom")
    assert v.block and "boom" in v.reason
    v, count = policy.error_verdict(count, "s", "boom")
    assert not v.block
    v, _ = policy.error_verdict(count, "another", "boom")
    assert v.block
