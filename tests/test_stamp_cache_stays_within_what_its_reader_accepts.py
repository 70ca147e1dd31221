"""The stamp cache stays within a byte budget under the size its own reader accepts (F-0147): it kept 4,096 entries
whatever their size, a task's gate facts carry its suites' case lists (a megabyte each), and once the log passed
the reader's cap every later stamp was skipped until the file was deleted by hand. A cache costs a recomputation,
never a stamp: an oversized file is replaced."""

from __future__ import annotations

import os

import pytest

from harness.core.file_caps import CAPS
from harness.errors import HarnessError
from harness.history import stamp_cache
from harness.history.stamp_cache import StampCache

BIG = "x" * (2 * 1024 * 1024)


def test_stamps_that_each_keep_a_megabyte_answer_never_outgrow_the_budget(tmp_path):
    path = tmp_path / "stamp-cache.json"
    for i in range(40):
        cache = StampCache(path)
        cache.put(f"facts:{i}", BIG)
        cache.save()
        assert path.stat().st_size <= stamp_cache.budget() <= CAPS["cache"]
    newest = StampCache(path)
    assert newest.get("facts:39") == BIG  # the newest answers are the ones kept
    assert newest.get("facts:0") is None


def test_a_cache_file_past_the_reader_s_cap_is_replaced_not_a_skipped_stamp(tmp_path):
    path = tmp_path / "stamp-cache.json"
    with open(path, "wb") as f:
        f.truncate(CAPS["cache"] + 1)  # what an older harness could leave
    cache = StampCache(path)
    cache.put("facts:now", "small")
    cache.save()
    assert path.stat().st_size < 1024 and StampCache(path).get("facts:now") == "small"


def test_a_fifo_in_its_place_is_still_refused(tmp_path):
    path = tmp_path / "stamp-cache.json"
    os.mkfifo(path)
    with pytest.raises(HarnessError, match="FIFO") as refused:
        StampCache(path)
    assert "remove it" in refused.value.hint
