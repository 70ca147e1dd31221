"""Readers take the store's lock shared and never see a half-written render, and what a process remembers of its reads (the known-valid cache, parsed YAML) stays bounded and unshared."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from harness import context
from harness.errors import HarnessError

from support.records import tdir

CLI = [sys.executable, "-m", "harness"]


# Forty writer processes at once, forked from one that imported the CLI already: each runs
# `harness requirement add` (the CLI's main) as its own process, and none spends ~0.2 s of
# CPU importing the same modules as the thirty-nine others — on two cores that was most of the test.
FORTY_WRITERS = """
import json, os, sys
from harness.cli.main import main
import harness.cli.items, jsonschema  # what every writer imports: once, before the fork
devnull = os.open(os.devnull, os.O_WRONLY)
writers = []
for i in range(40):
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            os.dup2(devnull, 1)
            code = main(["requirement", "add", f"requirement {i}", "--priority", "should"])
        finally:
            sys.stderr.flush()
            os._exit(code)
    writers.append(pid)
print(json.dumps([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in writers]), flush=True)
"""


def test_replays_racing_forty_writers_never_see_a_half_written_render(h, repo, task):
    writers = subprocess.Popen([sys.executable, "-c", FORTY_WRITERS], cwd=repo, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    replays = []
    while writers.poll() is None or len(replays) < 5:
        p = subprocess.run([*CLI, "replay"], cwd=repo, capture_output=True, text=True, timeout=120)
        replays.append((p.returncode, p.stderr))
    out, err = writers.communicate(timeout=120)
    assert writers.returncode == 0 and json.loads(out) == [0] * 40, (out, err)
    failed = [err for code, err in replays if code != 0]
    assert failed == [], f"{len(failed)}/{len(replays)} replays failed, e.g.:\n{failed[0]}"
    assert len(yaml.safe_load((tdir(repo, task) / "requirements.yaml").read_text())["requirements"]) == 40


def test_a_shared_lock_inside_the_exclusive_one_does_not_deadlock(h, repo, task):
    from harness.store import fsio
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore

    s = TaskStore(open_layout(repo))
    with fsio.locked(s.layout.local / "lock"):
        assert s.load(task).id == task  # would wait for ourselves forever on a second flock
    with s.reading(), pytest.raises(RuntimeError), fsio.locked(s.layout.local / "lock"):
        pass


def test_the_known_valid_cache_is_trimmed_instead_of_growing_forever(tmp_path):
    from harness.store import validate

    cache = tmp_path / "valid"
    cache.write_text("".join(f"{n:032x}\n" for n in range(3 * validate.CACHE_KEEP)), "ascii")
    listed = validate.listed_in(cache)
    kept = cache.read_text("ascii").split()
    assert len(kept) == validate.CACHE_KEEP and kept[-1] == f"{3 * validate.CACHE_KEEP - 1:032x}"
    assert listed == set(kept)


def test_a_text_parsed_again_gives_an_equal_new_document_each_time():
    from harness.store import yamlio

    text = b"a: &x [1, {b: 2}]\nc: *x\nwhen: 2025-01-01\n"
    first = yamlio.parse(text, "config.yaml")
    assert (True, text, False) in context.process().yaml_parsed  # so the next parse is a copy of what is kept
    again = yamlio.parse(text, "config.yaml")
    assert again == first == yaml.safe_load(text) and again is not first
    assert again["a"] is again["c"]  # an alias still names one object, as PyYAML builds it
    again["a"].append("changed by a caller")
    assert yamlio.parse(text, "config.yaml") == first  # what one caller changes, the next never sees


def test_a_text_remembered_as_settings_is_still_refused_as_a_task_file():
    from harness.store import yamlio

    text = b"requirements: &r []\nalso: *r\n"
    assert yamlio.parse(text, ".harness/config.yaml") == {"requirements": [], "also": []}
    with pytest.raises(HarnessError, match="anchor &r refused"):
        yamlio.parse(text, ".harness/tasks/TASK-20250101-abcdef/requirements.yaml")
    with pytest.raises(HarnessError, match="malformed YAML"):  # refusals are never remembered
        yamlio.parse(b"a: [", "x.yaml")
    with pytest.raises(HarnessError, match="malformed YAML"):
        yamlio.parse(b"a: [", "x.yaml")


def test_the_remembered_documents_stay_within_their_bounds(monkeypatch):
    from harness.store import yamlio

    memo = context.Process()  # this process's parses, empty
    monkeypatch.setattr(context, "_PROCESS", memo)  # what context.process() hands out
    monkeypatch.setattr(yamlio, "PARSED_BYTES", 16 * 1024)

    def held() -> int:
        return sum(len(text) + len(kept) for (_, text, _), kept in memo.yaml_parsed.items())

    # (A flow mapping: the plain texts harness.store.plain_yaml reads, a flow list of words among
    # them, are not PyYAML's, nor kept.)
    for n in range(2000):
        assert yamlio.parse(f"n: {{k: {n}}}\n".encode(), "x.yaml") == {"n": {"k": n}}
    assert 0 < held() == memo.yaml_bytes <= yamlio.PARSED_BYTES
    assert (True, b"n: {k: 0}\n", False) not in memo.yaml_parsed and (True, b"n: {k: 1999}\n", False) in memo.yaml_parsed
    # A merge key makes a pickle far larger than its text: what is held counts both.
    swelling = b"a: &a {" + b", ".join(b"k%d: %d" % (i, i) for i in range(200)) + b"}\n" + \
        b"".join(b"b%d: {<<: *a}\n" % i for i in range(100))
    assert len(yamlio.parse(swelling, "x.yaml")) == 101
    assert (True, swelling, False) not in memo.yaml_parsed  # over a sixteenth of the bound: not kept
    assert held() == memo.yaml_bytes <= yamlio.PARSED_BYTES
    assert yamlio.parse("n: {k: 1999}\n", "x.yaml") == {"n": {"k": 1999}}  # a str is its own entry
    assert (False, "n: {k: 1999}\n", False) in memo.yaml_parsed
