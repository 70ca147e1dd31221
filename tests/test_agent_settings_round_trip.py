"""`harness agent install` / `uninstall` write the user's settings file back byte-for-byte
outside the harness's own hook entries (numbers, key order, non-ASCII, layout), or refuse
with the reason and leave it untouched."""

from __future__ import annotations

import json

import pytest

PATH = ".claude/settings.json"


def _round_trip(h, text: str) -> bytes:
    path = h.root / PATH
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    h.ok("agent", "install", "--host", "claude")
    installed = path.read_bytes()
    h.ok("agent", "uninstall", "--host", "claude")
    assert path.read_bytes() == text.encode("utf-8")
    return installed


@pytest.mark.parametrize("text", [
    '{\n  "big": 1e400,\n  "tiny": -1e-400,\n  "zero": -0\n}\n',
    '{\n    "precise": 0.1000000000000000055511151231257827,\n    "n": 12345678901234567890123\n}\n',
    '{"zeta": 1, "alpha": {"b": 2, "a": [3, 2.50]}, "mid": true}',
    '{\n\t"name": "Zoë — 東京 🎉",\n\t"raw": "é"\n}',
    '{\n  "name": "\\u00e9\\u6771",\n  "path": "C:\\\\dir"\n}\n',
    '{"compact":{"a":[1,2],"b":null}}\n',
], ids=["huge-and-negative-zero", "precise-and-big-integer", "key-order-one-line", "tabs-and-non-ascii",
        "escaped-non-ascii", "compact"])
def test_the_users_settings_come_back_byte_for_byte(h, text) -> None:
    installed = _round_trip(h, text)
    doc = json.loads(installed)
    assert "hooks" in doc and list(doc)[:-1] == list(json.loads(text))  # the user's keys first, in their order


def test_numbers_outside_our_entries_keep_their_text_while_installed(h) -> None:
    installed = _round_trip(h, '{\n  "big": 1e400,\n  "p": 0.1000000000000000055511151231257827\n}\n')
    assert b'"big": 1e400' in installed and b'"p": 0.1000000000000000055511151231257827' in installed
    assert b"Infinity" not in installed


def test_a_second_install_changes_no_byte(h) -> None:
    path = h.root / PATH
    path.parent.mkdir()
    path.write_text('{\n  "n": 1E+2\n}\n')
    h.ok("agent", "install", "--host", "claude")
    once = path.read_bytes()
    h.ok("agent", "install", "--host", "claude")
    assert path.read_bytes() == once and b'"n": 1E+2' in once


@pytest.mark.parametrize(("text", "reason"), [
    ('{"first": 0, "a": 1, "a": 2}', "key 'a' appears twice"),
    ('{\n  "a": 1,\n    "b": 2\n}', "layout"),
    ('{"a": "\\/"}', "layout"),
    ('{"a": NaN}', "not valid JSON"),
    ('{"raw": "é", "escaped": "\\u00e9"}', "layout"),
    ('[1, 2]', "not a JSON object"),
    ('{"a": "\\udc80"}', "lone surrogate"),
    ('{"a": ' + '[' * 100_000 + ']' * 100_000 + '}', "nested too deeply"),
], ids=["duplicate-key", "mixed-indent", "escaped-slash", "nan", "mixed-escapes", "not-an-object", "lone-surrogate",
        "deep-nesting"])
def test_a_file_that_cannot_come_back_exactly_is_refused_untouched(h, text, reason) -> None:
    path = h.root / PATH
    path.parent.mkdir()
    path.write_text(text)
    r = h("agent", "install", "--host", "claude")
    assert r.code == 2 and reason in r.err, r.text
    assert path.read_text() == text


def test_a_temporary_a_killed_write_left_is_swept_and_only_that(h) -> None:
    folder = h.root / ".claude"
    folder.mkdir()
    ours, theirs = folder / ".settings.json.x1y2.tmp", folder / ".notes.tmp"
    ours.write_text("{")
    theirs.write_text("mine")
    h.ok("agent", "install", "--host", "claude")
    assert not ours.exists() and theirs.read_text() == "mine"


def test_a_settings_file_linked_from_dotfiles_stays_a_link_to_the_same_bytes(h, tmp_path) -> None:
    dotfile = tmp_path / "dotfiles" / "claude-settings.json"
    dotfile.parent.mkdir()
    dotfile.write_bytes(b'{\n    "n": 1.50\n}\n')
    link = h.root / PATH
    link.parent.mkdir()
    link.symlink_to(dotfile)
    h.ok("agent", "install", "--host", "claude")
    assert link.is_symlink() and b'"n": 1.50' in dotfile.read_bytes() and b"hook agent" in dotfile.read_bytes()
    h.ok("agent", "uninstall", "--host", "claude")
    assert link.is_symlink() and dotfile.read_bytes() == b'{\n    "n": 1.50\n}\n'
