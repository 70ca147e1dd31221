"""The working tree's reader (harness.store.source.FsSource) asks the file system with plain os calls
where it made a Path per name: the same links found, the same names listed, the same refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.store import source
from harness.store.source import FsSource


def test_a_link_is_told_apart_as_path_is_symlink_tells_it(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to("file")
    (tmp_path / "dangling").symlink_to("nowhere")
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "dirlink").symlink_to("dir", target_is_directory=True)
    names = ["file", "dir", "link", "dangling", "loop", "dirlink", "missing", "file/below", "loop/below",
             "dirlink/below", "dir/../link", "nul\0byte"]
    for name in names:
        path = str(tmp_path / name)
        assert source._is_symlink(path) == Path(path).is_symlink(), name


def test_a_folder_is_listed_and_a_link_inside_harness_refused_as_before(tmp_path):
    tasks = tmp_path / ".harness" / "tasks"
    (tasks / "TASK-20250101-abcdef" / "evidence").mkdir(parents=True)
    (tasks / "b.yaml").write_text("x")
    (tasks / "a").mkdir()
    src = FsSource(tmp_path)
    assert src.listdir(".harness/tasks") == sorted(p.name for p in tasks.iterdir()) == ["TASK-20250101-abcdef",
                                                                                        "a", "b.yaml"]
    assert src.listdir(".harness/tasks/b.yaml") == [] and src.listdir(".harness/none") == []
    os.symlink(tmp_path / ".harness" / "tasks" / "a", tasks / "linked")
    with pytest.raises(HarnessError, match=r"a symlink inside \.harness/"):
        src.listdir(".harness/tasks/linked")
    with pytest.raises(HarnessError, match=r"a symlink inside \.harness/"):
        src.read(".harness/tasks/linked/task.yaml")
