"""F-0401: Gemini CLI reads its settings through strip-json-comments (`//` to the end of the line and `/* … */`
outside strings; a trailing comma stays an error), so a settings file with comments is a valid Gemini settings file:
`harness agent install --host gemini` adds its entries with every comment and every other byte kept, uninstall gives
the file back as it was, and a change that would have to cross a comment is refused saying so."""

from __future__ import annotations

import json
import re

import pytest

PATH = ".gemini/settings.json"
OURS = "harness hook agent gemini pre-tool-use"


def without_comments(text: str) -> str:
    """What Gemini parses (strip-json-comments; good enough for these files: no `//` or `/*` inside a string
    but the URL below, which the pattern skips)."""
    return re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)


def comments(text: str) -> list[str]:
    return [m.group(0) for m in re.finditer(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', text, flags=re.S)
            if not m.group(0).startswith('"')]


def write(h, text: str):
    path = h.root / PATH
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


COMMENTED = {
    "line-comment-above-a-key": '{\n  // team theme, see wiki\n  "ui": {\n    "theme": "GitHub"\n  }\n}\n',
    "trailing-and-block-comments": (
        '/* settings for the team */\n{\n  "ui": {\n    "theme": "GitHub" // dark later\n  },\n'
        '  /* a block\n     over two lines, with "quotes" and { braces } */\n'
        '  "docs": "https://example.com/a//b",\n  "n": 1.50\n}\n// end of file\n'),
    "comment-as-the-last-line-of-the-object": '{\n\t"ui": {\n\t\t"theme": "GitHub"\n\t}\n\t// more to come\n}',
    "users-own-hooks-with-comments": (
        '{\n  "hooks": {\n    // my audit runs first\n    "BeforeTool": [\n      {\n        "matcher": "run_shell_command",\n'
        '        "hooks": [\n          {\n            "type": "command", // mine\n'
        '            "command": "~/bin/audit"\n          }\n        ]\n      }\n    ]\n  }\n}\n'),
}


@pytest.mark.parametrize("text", COMMENTED.values(), ids=COMMENTED.keys())
def test_f0401_a_gemini_settings_file_with_comments_gets_the_hooks_and_keeps_every_comment(h, text):
    path = write(h, text)
    h.ok("agent", "install", "--host", "gemini")
    installed = path.read_text()
    assert comments(installed) == comments(text)
    doc = json.loads(without_comments(installed))  # what Gemini reads
    assert OURS in json.dumps(doc["hooks"]["BeforeTool"])
    mine = json.loads(without_comments(text))
    assert {k: v for k, v in doc.items() if k != "hooks"} == {k: v for k, v in mine.items() if k != "hooks"}
    again = h.ok("agent", "install", "--host", "gemini")
    assert "already installed" in again.out and path.read_text() == installed
    h.ok("agent", "uninstall", "--host", "gemini")
    assert path.read_text() == text  # byte for byte


def test_f0401_a_trailing_comma_gemini_refuses_too_is_still_refused_untouched(h):
    text = '{\n  // theme\n  "ui": {"theme": "GitHub"},\n}\n'
    path = write(h, text)
    r = h("agent", "install", "--host", "gemini")
    assert r.code == 2 and "not valid JSON" in r.err
    assert path.read_text() == text


def test_f0401_an_unclosed_block_comment_is_refused_untouched(h):
    text = '{\n  /* never closed\n  "ui": {"theme": "GitHub"}\n}\n'
    path = write(h, text)
    r = h("agent", "install", "--host", "gemini")
    assert r.code == 2 and "comment" in r.err
    assert path.read_text() == text


def test_f0401_a_change_that_would_remove_a_comment_is_refused_naming_it(h):
    path = write(h, '{\n  "ui": {\n    "theme": "GitHub"\n  }\n}\n')
    h.ok("agent", "install", "--host", "gemini")
    # a note written inside the harness's own entry: uninstall would have to delete it with the entry
    text = path.read_text().replace('"type": "command",', '"type": "command", // installed by the harness', 1)
    path.write_text(text)
    r = h("agent", "uninstall", "--host", "gemini")
    assert r.code == 2 and "comment" in r.err and "line" in r.err, r.text
    assert path.read_text() == text


def test_f0401_claude_code_reads_strict_json_so_its_file_with_a_comment_is_still_refused(h):
    # Claude Code rejects a settings.json with comments ("Invalid or malformed JSON"): only Gemini's are kept.
    path = h.root / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text('{\n  // a comment\n  "model": "opus"\n}\n')
    r = h("agent", "install", "--host", "claude")
    assert r.code == 2 and "not valid JSON" in r.err
    assert path.read_text() == '{\n  // a comment\n  "model": "opus"\n}\n'
