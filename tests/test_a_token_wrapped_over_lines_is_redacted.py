"""A token a command prints wrapped over lines is redacted in every line it spans (read 149's F-0525): a message wrapped
by textwrap (which breaks long words), `fold -w`, a table whose value column wraps a long value. Each piece alone
is no token's shape (`ghp_` and 16 characters, a JWT's payload without its `eyJ` header), so the rules read the
pieces joined, as a reader who takes the line breaks (and a table's borders) out reads them."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from harness.core.redact import compile_patterns
from harness.store.secrets_check import secrets_in

# Assembled at run time: this file holds no token a scanner would find.
GHP = "ghp_" + "x7Kq2MvR9tLw4ZpN8sYb" + "3Hc6Jd1Fg5Ae0Ui9"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiJkZXBsb3ktYm90Iiwic2NvcGUiOiJhZG1pbiJ9."
       + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")
XOXB = "xoxb-" + "2718281828-3141592653-" + "ZmFrZVNsYWNrVG9rZW4x"


def folded(text: str, width: int) -> str:
    return "\n".join(text[i:i + width] for i in range(0, len(text), width))


def table(label: str, value: str, width: int) -> str:
    cells = [value[i:i + width] for i in range(0, len(value), width)]
    return "\n".join(f"| {label if n == 0 else '':<6}| {cell:<{width}} |" for n, cell in enumerate(cells))


def kept(secret: str, text: str, piece: int = 8) -> list[str]:
    """The pieces of ``secret`` (each ``piece`` characters, its first four skipped: a prefix is no secret) that
    ``text`` still holds once its line breaks, spaces and table borders are taken out."""
    flat = "".join(text.replace("|", " ").split())
    return [secret[i:i + piece] for i in range(4, len(secret) - piece + 1, piece) if secret[i:i + piece] in flat]


WRAPPED = {
    "fold -w 20": (GHP, folded(GHP, 20)),
    "fold -w 10, three lines and more": (GHP, folded(GHP, 10)),
    "textwrap, long words broken": (JWT, "\n".join(textwrap.wrap(
        f"request rejected: the client sent Bearer {JWT} which the server refused", 40))),
    "textwrap with an indent": (JWT, "\n".join(textwrap.wrap(
        f"error: token {JWT} expired", 30, subsequent_indent="    "))),
    "a table's wrapped cell": (XOXB, table("slack", XOXB, 16)),
    "a box-drawn table": (XOXB, table("slack", XOXB, 12).replace("|", "\u2502")),
    "a line continued with a backslash": (GHP, f"curl -H 'Authorization: token {GHP[:22]}\\\n{GHP[22:]}' https://x"),
    "windows line ends": (GHP, folded(GHP, 20).replace("\n", "\r\n")),
}


@pytest.mark.parametrize("secret, text", WRAPPED.values(), ids=WRAPPED.keys())
def test_a_wrapped_token_is_redacted_in_every_line_it_spans(secret: str, text: str) -> None:
    out = compile_patterns().redact(text)
    assert kept(secret, out) == [], out
    assert out.count("\n") == text.count("\n")  # line for line: what was around it stays where it was


@pytest.mark.parametrize("secret, text", WRAPPED.values(), ids=WRAPPED.keys())
def test_the_commit_check_finds_a_wrapped_token_in_a_text_file(secret: str, text: str) -> None:
    assert secrets_in("notes.txt", f"before\n{text}\nafter\n".encode())


def test_the_words_around_a_wrapped_token_are_kept() -> None:
    text = "\n".join(textwrap.wrap(f"request rejected: the client sent Bearer {JWT} which the server refused", 40))
    out = compile_patterns().redact(text)
    assert out.startswith("request rejected: the client sent") and out.endswith("which the server refused"), out


ORDINARY = {
    "prose wrapped": textwrap.fill("the quick brown fox jumps over the lazy dog " * 20, 37),
    "commit ids, one a line": "\n".join(["9b6e3ca4f1d2" * 3 + "abcd"] * 6),
    "test ids": "\n".join(f"tests/test_calc.py::test_case_{n} PASSED" for n in range(40)),
    "a table of words": table("name", "alpha beta gamma delta epsilon zeta eta theta iota", 16),
    "a wrapped path": folded("/home/user/projects/harness/tests/test_a_token_wrapped_over_lines_is_redacted.py", 20),
    "a hex digest folded": folded("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", 16),
}


@pytest.mark.parametrize("text", ORDINARY.values(), ids=ORDINARY.keys())
def test_ordinary_wrapped_output_is_left_as_written(text: str) -> None:
    assert compile_patterns().redact(text) == text
    assert secrets_in("notes.txt", text.encode()) == []


def test_the_evidence_log_and_record_keep_no_piece_of_a_wrapped_token(h, repo, task, tmp_path):
    (tmp_path / "secrets.json").write_text(json.dumps([GHP, JWT, XOXB]))  # read from a file: no secret in the argv
    script = tmp_path / "show.py"
    script.write_text(textwrap.dedent(f"""\
        import json, textwrap
        gh, jwt, xoxb = json.load(open({str(tmp_path / "secrets.json")!r}))
        print("\\n".join(textwrap.wrap(f"request rejected: the client sent Bearer {{jwt}} which it refused", 40)))
        print("\\n".join(gh[i:i + 20] for i in range(0, len(gh), 20)))
        for n, i in enumerate(range(0, len(xoxb), 16)):
            print(f"| {{'slack' if n == 0 else '':<6}}| {{xoxb[i:i + 16]:<16}} |")
        """))
    h.ok("evidence", "build", "--", sys.executable, str(script))
    folder = repo / ".harness" / "tasks" / task / "evidence"
    for name in ("build.log", "build.json"):
        written = (folder / name).read_text()
        for secret in (GHP, JWT, XOXB):
            assert kept(secret, written.replace("\\n", "\n")) == [], (name, written)
