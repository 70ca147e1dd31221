"""A `.harness/` YAML file is checked in its comments too (F-0117): config.yaml and gate.yaml are edited by hand
(config.yaml ships commented-out commands to adapt), and the check read only the values the parser returns, so a
token in a comment was committed while the same token as a value was refused. What is a comment is the parser's
to say: a `#` inside a quoted value or a block scalar is that value's, checked by the rules the value gets."""

from __future__ import annotations

import pytest

from harness.store.secrets_check import secrets_in

from support.cli import validate_staged

TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"
KEY_ID = "AKIA" + "QWERTYUIOPASDFGH"


@pytest.mark.parametrize(("text", "line"), [
    (f"evidence:\n#  smoke:\n#    command: [curl, -H, 'Authorization: Bearer {TOKEN}']\n", 3),
    (f"version: 1  # staging key {KEY_ID}\n", 1),
    (f"items:\n  - a   #{TOKEN}\n", 2),
    (f"flow: [a, b]  # {TOKEN}\n", 1),
], ids=["whole-line", "end-of-line", "after-a-sequence-item", "after-a-flow-sequence"])
def test_a_token_in_a_yaml_comment_is_found_on_its_line(text, line):
    assert [n for n, _ in secrets_in(".harness/config.yaml", text.encode())] == [line]


@pytest.mark.parametrize(("text", "line"), [
    (f"\ufeff# old key {TOKEN}\nversion: 1\n", 1),
    (f"version: 1\r# old key {TOKEN}\n", 1),
    (f"version: 1\u0085# old key {TOKEN}\n", 1),
    (f"flow: [x,#{TOKEN}\n  y]\n", 1),
    (f"flow: [x]#{TOKEN}\n", 1),
    (f'key: "x"#{TOKEN}\n', 1),
    (f"title: 'h\u00e9llo w\u00f6rld'  # {TOKEN}\n", 1),
    (f"version: &{TOKEN} 1\n", 1),
    (f"base: &a {{x: 1}}\nother: *{TOKEN}\n", None),
    (f"%TAG !e! tag:{TOKEN}:\n---\nversion: 1\n", 1),
], ids=["after-a-byte-order-mark", "after-a-lone-cr", "after-nel", "after-a-comma-in-flow", "after-a-closing-bracket",
        "after-a-closing-quote", "after-non-ascii-text", "an-anchor-name", "an-alias-name", "a-tag-directive"])
def test_a_token_anywhere_outside_the_values_is_found(text, line):
    """Read 57's F-0121, F-0122: where the parser starts a comment (or reads an anchor, an alias, a directive) is
    the parser's to say; everything outside the scalars is read."""
    from harness.store.secrets_check import flagged_values

    raw = text.encode()
    found = secrets_in(".harness/config.yaml", raw)
    if line is None:  # the parser refuses an alias to no anchor: the file's lines are read instead
        assert found, flagged_values(".harness/config.yaml", raw)
    else:
        assert [n for n, _ in found] == [line]


@pytest.mark.parametrize("text", [
    'command: ["sh", "-c", "echo #1 of 4"]\n',
    "note: 'issue #42 is fixed'\n",
    "script: |\n  # a shell comment, inside the value\n  echo done\n",
    "url: https://example.com/page#section\n",
    "# the harness's own configuration\nversion: 1  # no secret here\n",
    "base: &defaults {timeout: 30}\nunit: *defaults\ntyped: !!str 42\n",
], ids=["hash-in-a-quoted-argv", "hash-in-a-single-quoted-value", "hash-in-a-block-scalar", "url-fragment",
        "plain-comments", "ordinary-anchors-aliases-and-tags"])
def test_what_is_no_secret_stays_unflagged_wherever_its_hash_is(text):
    assert secrets_in(".harness/config.yaml", text.encode()) == []


def test_a_token_in_a_comment_of_config_yaml_is_refused_at_commit_naming_file_and_line(h, repo, task):
    config = repo / ".harness/config.yaml"
    lines = config.read_text().splitlines()
    config.write_text("\n".join([*lines, f"#    command: [curl, -H, 'Authorization: Bearer {TOKEN}']"]) + "\n")
    r = validate_staged(repo)
    assert r.returncode == 1, r.stderr
    assert f".harness/config.yaml:{len(lines) + 1}" in r.stderr and "secret-in-harness-files" in r.stderr, r.stderr
    assert TOKEN not in r.stderr + r.stdout


def test_a_project_s_broad_pattern_does_not_refuse_a_commented_out_field(h, repo, task):
    """What a careless check would refuse: a project naming `[a-z]+_[a-z]+` as secret, and config.yaml's own
    commented-out fields (`#  unit_test:`) and a person's comment naming one. Its values are still read by it."""
    config = repo / ".harness/config.yaml"
    text = config.read_text().replace("  patterns: []", "  patterns: ['[a-z]+_[a-z]+']")
    config.write_text(text + "# unit_test runs the whole suite\n")
    assert "#  unit_test:" in text
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize(("text", "line"), [
    (f"ref: |-  # {TOKEN}\n  the value\n", 1),
    (f"ref: >2-  # {TOKEN}\n   the value\n", 1),
    (f"ref: &n  # {TOKEN}\n  the value\n", 1),
    (f"ref: !!str  # {TOKEN}\n  the value\n", 1),
    (f"\ufeffversion: &{TOKEN} 1\n", 1),
    (f"\ufeff&{TOKEN} version: 1\n", 1),
], ids=["block-scalar-header", "folded-header-with-indent", "after-an-anchor", "after-a-tag", "bom-then-anchor",
        "bom-then-key-anchor"])
def test_a_token_inside_a_scalar_node_s_span_but_not_its_value_is_found(text, line):
    """Read 58's F-0128, F-0132: a node's span takes in its properties, a comment after them and a block scalar's
    header line; libyaml's marks do not count a leading byte-order mark."""
    assert [n for n, _ in secrets_in(".harness/config.yaml", text.encode())] == [line]


@pytest.mark.parametrize("breaking", ["\x85", "\u2028", "\u2029", "\n\ufeff"], ids=["nel", "ls", "ps", "bom-at-a-line-start"])
def test_a_comment_after_a_tag_past_a_unicode_line_break_is_found(breaking):
    """Read 59's F-0134: libyaml breaks lines at NEL, LS and PS, and skips a BOM at a line's start."""
    text = f"ref: !!str{breaking}# {TOKEN}{breaking}    the value\n"
    assert secrets_in(".harness/config.yaml", text.encode())
