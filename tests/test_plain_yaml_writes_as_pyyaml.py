"""The harness's own YAML is written without PyYAML where harness.store.plain_yaml_writer is sure of
every byte, and then its bytes are PyYAML's (yamlio's dumper), so a file rendered either way reads,
diffs and hashes the same; whatever it is unsure of it leaves to PyYAML. By example, on the files the
harness writes for a task, and by fuzzing documents of plain and tricky scalars."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.store import plain_yaml, plain_yaml_writer, yamlio


def check(doc: object) -> bool:
    """Whether the writer answered; when it did, its text is PyYAML's."""
    text = plain_yaml_writer.dump(doc)
    if text is plain_yaml.NOT_PLAIN:
        return False
    assert isinstance(text, str)
    assert text.encode("utf-8") == yamlio.pyyaml_dump(doc), doc
    return True


WRITTEN_PLAIN = [
    {"a": "b"}, {"a": None, "b": True, "c": False, "d": 0, "e": -12, "f": 10**20},
    {"task": {"id": "TASK-20261204-ec10f6", "title": "Add resumable execution", "description": "",
              "spec": {"design": None, "plan": None}, "requirements": {"total": 0, "uncovered": []},
              "gate": {"status": "unknown", "blocked_by": ["build evidence is missing (required)"]},
              "git": {"head": "7932fb15b6d45b1003d77d3ae7379b28773eff15"},
              "timestamps": {"created_at": "2026-12-04T08:49:10Z"}}},
    {"requirements": [{"id": "REQ-001", "statement": "The answer is 42", "tests": ["tests/test_a.py::t"],
                       "meta": {"k": "v"}, "empty": {}}, {"id": "REQ-002", "deps": []}]},
    {"a": ["x", "y", {"b": "c", "d": ["e"]}]},
    [{"a": 1}, "b", None],
    # Each quoted: YAML 1.1 would read it as another type.
    {k: v for k, v in zip("abcdefghijklmnopqrs", [
        "yes", "No", "on", "OFF", "null", "1", "010", "0x1f", "0b1", "1_000", "12:30", "1.5", "1e5", "1.0e+5",
        "2026-12-04", "2026-12-04T03:51:07Z", "2026-1-4 3:05:07.5 +01:00", "0", "190:20:30.15"])},
    # Each plain: no type reads it.
    {k: v for k, v in zip("abcdefghijklmno", [
        "089", "1e5x", "0.5.2", "y", "n", "a, b", "x:y", "http://h/p", "a (b) c=d+e@f", "12abc", "_x", "/tmp/x",
        "9" * 41 + "a", "2026-12-04T03:51", "ok."])},
]
LEFT_TO_PYYAML = [
    {}, [], "scalar", {"a": 1.5}, {"a": "x" * 120}, {"a": "caf\u00e9"}, {"a": "a: b"}, {"a": "x # y"}, {"a": "a\nb"},
    {"a": " lead"}, {"a": "trail "}, {"a": "- x"}, {"a": "...x"}, {"a": ".5"}, {"a": "it's"}, {"a": "#c"},
    {"a": [["nested"]]}, {"on": 1}, {"1": "x"}, {"a b": 1}, {1: "x"}, {"a": b"bytes"}, {"a": "end:"},
    {"a": "two  spaces"}, {"a": "~"}, {"a": "=x"},
]


@pytest.mark.parametrize("doc", WRITTEN_PLAIN, ids=range(len(WRITTEN_PLAIN)))
def test_a_document_it_writes_is_byte_for_byte_pyyamls(doc):
    assert check(doc)


@pytest.mark.parametrize("doc", LEFT_TO_PYYAML, ids=range(len(LEFT_TO_PYYAML)))
def test_a_document_it_is_unsure_of_is_left_to_pyyaml(doc):
    assert plain_yaml_writer.dump(doc) is plain_yaml.NOT_PLAIN
    assert yamlio.dump(doc) == yamlio.pyyaml_dump(doc)


def test_a_line_is_written_up_to_the_width_and_left_to_pyyaml_past_it():
    fits = {"statement": "w" * (plain_yaml_writer.WIDTH - len("statement: "))}
    assert check(fits)
    assert plain_yaml_writer.dump({"statement": fits["statement"] + "w"}) is plain_yaml.NOT_PLAIN
    words = {"statement": " ".join(["word"] * 40)}  # the dumper folds this one: left to it
    assert plain_yaml_writer.dump(words) is plain_yaml.NOT_PLAIN
    assert yamlio.dump(words) == yamlio.pyyaml_dump(words)


def test_every_file_the_harness_writes_for_a_task_is_pyyamls(h, repo, task):
    h.ok("requirement", "add", "The resumed run keeps its place", "--priority", "must")
    h.ok("invariant", "add", "No run is lost", "--category", "correctness", "--severity", "major")
    files = sorted((repo / ".harness/tasks").rglob("*.yaml"))
    assert {f.name for f in files} >= {"task.yaml", "requirements.yaml", "invariants.yaml"}
    for path in files:
        doc = yamlio.parse(path.read_bytes(), str(path))
        assert check(doc), path  # the common files take the fast way
        assert path.read_bytes() == yamlio.pyyaml_dump(doc)


def test_a_ledger_append_imports_no_yaml(h, task):
    probe = ("import sys, runpy\nsys.argv = ['harness', 'requirement', 'add', 'The answer is 42', '--priority', 'must']\n"
             "try:\n    runpy.run_module('harness', run_name='__main__')\nexcept SystemExit as e:\n    code = e.code\n"
             "print(code, sorted(m for m in sys.modules if m == 'yaml' or m.startswith('yaml.')))\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=h.root, capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "0 []", proc.stdout + proc.stderr


KEYS = st.sampled_from(["a", "id", "state", "F-0001", "tail_bytes", "x.y", "on", "null", "1", "a b", "_k", "Yes"])
TRICKY = st.text(alphabet="0123456789abexoTtZz_-+.:/ ,=@()'#\u00e9", max_size=24)
SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | TRICKY
           | st.text(max_size=110) | st.sampled_from(["", "yes", "NO", "null", "~", "010", "1e5", "0x1f", "a: b",
                                                     "2026-12-04", "2026-12-04 3:04:05", "12:30", "w " * 60]))
DOCS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, DOCS, min_size=1, max_size=5))
def test_fuzzed_documents_are_written_as_pyyaml_writes_them(doc):
    check(doc)


@settings(max_examples=400, deadline=None)
@given(TRICKY)
def test_fuzzed_scalars_are_quoted_exactly_when_pyyaml_quotes_them(value):
    check({"a": value})
    check({"a": [value]})


def test_a_key_the_dumper_writes_as_a_complex_key_is_left_to_it():
    """F-0019 (#28): from 128 characters on, PyYAML writes a key as `? key`, whatever its value."""
    for key in ("k" * 128, "k" * 129):
        for value in ({"a": 1}, ["x"], "v", 1):
            for doc in ({key: value}, {"top": {key: value}}, [{key: value}]):
                assert plain_yaml_writer.dump(doc) is plain_yaml.NOT_PLAIN, (len(key), value)
                assert yamlio.dump(doc) == yamlio.pyyaml_dump(doc)
    assert check({"k" * 90: {"a": 1}})  # a long key short of it is still written here
