"""The tool guard reads the configured notes ref of a plainly written config.yaml without YAML
(harness.agent.notes_ref_plain): whenever it answers, the answer is settings.notes_ref_of's (the
YAML reading), by example and by fuzzing config files built of plain and tricky lines; the file
`harness init` writes is read without YAML; anything it is unsure of is left to YAML."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.agent import hook_facts as facts
from harness.agent import notes_ref_plain
from harness.store import settings
from harness.store.settings import notes_ref_of

EXAMPLES = [b"notes:\n  ref: refs/notes/other\n", b"version: 1\n", b"notes:\n  ref: refs/notes/a\nnotes: {}\n",
            b"notes: [1]\n", b"notes:\n  ref: 5\n", b": not yaml : [\n", b"", b"# only a comment\n",
            "notes:\n  ref: refs/notes/caf\u00e9\n".encode(), b"notes:\n  ref: harness\n", b"notes:\n  ref:\n",
            b"notes: {}\n", b"notes:\n", b"notes:\n    ref: refs/notes/x\n  other: 1\n", b"notes:\n\tref: refs/notes/x\n",
            b"notes:\r\n  ref: refs/notes/x\r\n", b"\xef\xbb\xbfnotes:\n  ref: refs/notes/x\n", b"on: 1\nyes: 2\n",
            b"notes:\n  ref: refs/notes/x\n  ref: refs/notes/y\n", b"notes:\n  ref: refs/notes/x # mine\n",
            b"version: -\nnotes:\n  ref: refs/notes/x\n", b"---\nnotes:\n  ref: refs/notes/x\n",
            b"notes:\n  ref: &a refs/notes/x\n", b"notes:\n  ref: 'refs/notes/x'\n", b"\xff\xfe", None,
            b"notes:\n  ref: refs/notes/x\n# caf\xc3\xa9 \xe2\x80\xa8\n", b"notes:\n  ref: {}\n", b"notes:\n  ref: []\n",
            b"notes: refs/notes/x\n", b"notes:\n  - ref: refs/notes/x\n", b"x:\n  y:\n    z: 1\nnotes:\n  ref: refs/notes/x\n",
            # deeper than two levels: read by harness.store.plain_yaml (a config with evidence commands)
            b'evidence:\n  unit_test:\n    command: ["pytest", "-q"]\nnotes:\n  ref: refs/notes/x\n',
            b'evidence:\n  unit_test:\n    command: ["pytest", "-q"]\nnotes:\n  ref: "refs/notes/\\x78"\n',
            b"evidence:\n  b:\n    c: 1\nnotes:\n  ref: 5\n", b"evidence:\n  b:\n    c: 1\nnotes:\n  ref: 'refs/notes/q'\n",
            b"evidence:\n  b:\n    c: 1\nnotes:\n  - ref: refs/notes/x\n", b"evidence:\n  b:\n    c: 1\nnotes: [a]\n",
            "".join(f"{'  ' * n}k:\n" for n in range(70)).encode() + b"notes:\n  ref: refs/notes/deep\n"]


@pytest.mark.parametrize("raw", EXAMPLES)
def test_an_answer_without_yaml_is_the_yaml_reading(raw):
    plain = notes_ref_plain.read(raw)
    assert plain is None or plain == notes_ref_of(raw)


def test_the_file_harness_init_writes_is_read_without_yaml(h, repo):
    raw = (repo / ".harness" / "config.yaml").read_bytes()
    assert notes_ref_plain.read(raw) == notes_ref_of(raw) == "refs/notes/harness"
    custom = raw.replace(b"ref: refs/notes/harness", b"ref: refs/notes/mine")
    assert notes_ref_plain.read(custom) == notes_ref_of(custom) == "refs/notes/mine"
    (repo / ".harness" / "config.yaml").write_bytes(custom)
    assert facts.notes_ref(repo) == "refs/notes/mine"


def test_what_it_is_unsure_of_is_read_with_yaml(h, repo):
    config = repo / ".harness" / "config.yaml"
    config.write_text('notes:\n  ref: "refs/notes/\\x71uoted"\n')  # an escape: PyYAML's to decode
    assert notes_ref_plain.read(config.read_bytes()) is None
    assert facts.notes_ref(repo) == "refs/notes/quoted"


def test_a_config_with_evidence_commands_is_read_without_yaml(h, repo):
    # A config.yaml as people fill it in: commands as lists of quoted words, three levels deep.
    config = repo / ".harness" / "config.yaml"
    text = config.read_text().replace("ref: refs/notes/harness", "ref: refs/notes/mine")
    config.write_text(text.replace("evidence: {}", 'evidence:\n  unit_test:\n    command: [".venv/bin/python", "-m", "pytest"]'))
    raw = config.read_bytes()
    assert b"evidence: {}" not in raw
    assert notes_ref_plain.read(raw) == notes_ref_of(raw) == "refs/notes/mine"


def test_the_default_is_the_settings_default():
    assert notes_ref_plain.DEFAULT == settings.DEFAULT_NOTES_REF


LINES = ["notes:", "  ref: refs/notes/x", "  ref: refs/notes/y", "    ref: refs/notes/z", "  ref: harness", "  ref:",
         "  ref: {}", "notes: {}", "notes: []", "notes: x/y", "version: 1", "version: -", "version: -1", "# comment",
         "  # indented comment", "", "   ", "output:", "  tail_bytes: 8192  # kept", "   tail_bytes: 1", "on: 1",
         "yes: 2", "Notes:", "---", "...", "  - x", "a: 'q'", "a: &x y", "a: *x", "\tb: 1", "a: [1, 2]", "a:b",
         "a: b c", "  ref: refs/notes/x #c", "  ref: refs/notes/x#c", "null: 1", "x: y/z", "  other: 1", "a: .inf",
         "evidence:", "  build:", '    command: ["true"]', "    command: [a, 'b']", '  ref: "refs/notes/q"', "  ref: 'x/y'"]


@given(st.lists(st.sampled_from(LINES), max_size=8), st.sampled_from(["\n", "\r\n", ""]))
def test_fuzzed_configs_are_read_as_yaml_reads_them(lines, end):
    raw = "\n".join(lines).encode() + end.encode()
    plain = notes_ref_plain.read(raw)
    assert plain is None or plain == notes_ref_of(raw), raw
