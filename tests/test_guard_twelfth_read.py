"""A twelfth adversarial read of the guard (#28's task F-0091, F-0092, F-0096, F-0100, F-0101): a chained cd back
to a folder left, `pushd -n`, a variable set for one command only, find's comma and -delete."""

from __future__ import annotations

import pytest

from harness.agent.judge.bypass import check_shell
from harness.agent.judge.guarded_paths import Where

TOP = Where("/repo", "/repo", "/home/u")


def _denied(command: str) -> bool:
    return check_shell(command, TOP) is not None


@pytest.mark.parametrize("command", ["cd .harness && cd / && cd - && sed -i 1d tasks/T/events.jsonl",
                                     "pushd .harness && pushd / && popd && sed -i 1d tasks/T/events.jsonl",
                                     "pushd .harness && pushd / && pushd && sed -i 1d tasks/T/events.jsonl"])
def test_a_chained_cd_back_returns_to_every_folder_left(command):
    """#28's task F-0091."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["pushd -n /tmp && rm -rf .harness", "pushd -n /tmp && sed -i 1d .harness/tasks/T/events.jsonl"])
def test_pushd_n_stays_where_it_is(command):
    """#28's task F-0092."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["HOME=/tmp/h npm ci && cd src && ls", "OLDPWD=/x ls && cd src && ls"])
def test_a_variable_set_for_one_command_steers_no_cd(command):
    """#28's task F-0096: `HOME=/tmp/h npm ci` sets HOME for npm alone."""
    assert not _denied(command), command


@pytest.mark.parametrize("command", ["find . -false , -name events.jsonl -exec sed -i 1d {} +",
                                     "find . -name x , -name events.jsonl -exec truncate -s 0 {} +"])
def test_find_s_comma_evaluates_both_sides(command):
    """#28's task F-0100."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["find . -name events.jsonl -delete", "find . -name '*.jsonl' -delete",
                                     "find . -path '*/tasks/*' -delete"])
def test_find_delete_of_the_record_by_name_is_refused(command):
    """#28's task F-0101."""
    assert _denied(command), command


@pytest.mark.parametrize("command", ["find . -name '*.pyc' -delete", "find build -delete", "find . -name __pycache__ -prune -o -name '*.tmp' -delete"])
def test_ordinary_find_deletes_stay_allowed(command):
    assert not _denied(command), command
