"""A secret spelled as an HTML report, a hex dump or a mail body spells it (character references, hex
digits, quoted-printable) is redacted as its plain form is: each is undone as `%XX` and base64 are
(#28's task F-0155). Text that only looks like them (an object id, a colour, `a=B1`) is left alone."""

from __future__ import annotations

import json

import pytest

from harness.core.redact import compile_patterns

TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"
ENV_VALUE = "Zq9xW2vB7nM4kL8p"


def _forms(secret: str) -> dict[str, str]:
    return {
        "html decimal": "".join(f"&#{ord(c)};" for c in secret),
        "html hex": "".join(f"&#x{ord(c):x};" for c in secret),
        "hex digits": secret.encode().hex(),
        "HEX DIGITS": secret.encode().hex().upper(),
        "quoted-printable": "".join(f"={ord(c):02X}" for c in secret),
    }


@pytest.mark.parametrize("form", list(_forms(TOKEN)))
def test_a_token_spelled_otherwise_is_redacted(form):
    text = f"report: {_forms(TOKEN)[form]} (end)"
    out = compile_patterns(detector=True).redact(text)
    assert _forms(TOKEN)[form] not in out and "[REDACTED:" in out, out
    assert out.startswith("report: ") and out.endswith(" (end)")


@pytest.mark.parametrize("form", list(_forms(ENV_VALUE)))
def test_a_secret_variables_value_spelled_otherwise_is_redacted(form):
    red = compile_patterns(literals={"MY_API_TOKEN": ENV_VALUE})
    spelled = _forms(ENV_VALUE)[form]
    assert spelled not in red.redact(f"value={spelled}")


@pytest.mark.parametrize("text", [
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 and tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "color=FF0000; a=B1 and x=0A=0D",
    "&#169; 2026 &#x2014; all rights reserved &amp; more",
    "68656c6c6f20776f726c64 is hello world in hex",
    "Content-Transfer-Encoding: quoted-printable =3D=3D",
])
def test_text_that_only_looks_encoded_is_untouched(text):
    assert compile_patterns(detector=True).redact(text) == text


# -- read 135's F-0475: a hex dump cuts the bytes into groups and lines, and shows them beside ----------------------

REQUEST = f"GET / HTTP/1.1\r\nAuthorization: Bearer {TOKEN}\r\nAccept: */*\r\n".encode()


def _xxd(data: bytes, group: int = 2) -> str:
    rows = []
    for off in range(0, len(data), 16):
        row = data[off:off + 16]
        hexes = " ".join(row[i:i + group].hex() for i in range(0, len(row), group))
        rows.append(f"{off:08x}: {hexes:<{16 * 2 + 16 // group - 1}}  " + "".join(chr(b) if 32 <= b < 127 else "." for b in row))
    return "\n".join(rows) + "\n"


def _hexdump_c(data: bytes) -> str:
    rows = []
    for off in range(0, len(data), 16):
        row = data[off:off + 16]
        left, right = " ".join(f"{b:02x}" for b in row[:8]), " ".join(f"{b:02x}" for b in row[8:])
        rows.append(f"{off:08x}  {left:<23}  {right:<23}  |" + "".join(chr(b) if 32 <= b < 127 else "." for b in row) + "|")
    return "\n".join(rows) + f"\n{len(data):08x}\n"


def _od(data: bytes, offsets: bool) -> str:
    return "".join((f"{off:07o}" if offsets else "") + "".join(f" {b:02x}" for b in data[off:off + 16]) + "\n"
                   for off in range(0, len(data), 16))


def _hexdump_words(data: bytes) -> str:  # `hexdump` without -C: 16-bit words, little-endian
    padded = data + b"\0" * (len(data) % 2)
    return "".join(f"{off:07x} " + " ".join(padded[i + 1:i + 2].hex() + padded[i:i + 1].hex()
                                               for i in range(off, min(off + 16, len(padded)), 2)) + "\n"
                   for off in range(0, len(padded), 16))


def _rows(data: bytes, offset: str, group: int, halves: str, gap: str, chars: bool = True, little: bool = False) -> str:
    """A dump of ``data`` sixteen bytes a line: ``offset`` formats the offset, groups of ``group`` bytes (each
    reversed when ``little``), ``halves`` between the two halves of a line, ``gap`` before the characters."""
    rows = []
    for off in range(0, len(data), 16):
        row = data[off:off + 16]
        cut = [row[i:i + group] for i in range(0, len(row), group)]
        words = [(c[::-1] if little else c).hex() for c in cut]
        half = len(words) // 2 if len(row) == 16 else len(words)
        hexes = " ".join(words[:half]) + (halves + " ".join(words[half:]) if words[half:] else "")
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row) if chars else ""
        rows.append(f"{offset.format(off)}{hexes:<{16 * 2 + 16 // group}}{gap}{text}".rstrip())
    return "\n".join(rows) + "\n"


DUMPS = {"xxd": _xxd(REQUEST), "xxd -g1": _xxd(REQUEST, 1), "xxd -g4": _xxd(REQUEST, 4),
         "hexdump -C": _hexdump_c(REQUEST), "od -tx1": _od(REQUEST, True), "od -An -tx1": _od(REQUEST, False),
         "hexdump": _hexdump_words(REQUEST),
         # read 137's F-0477: two spaces after the offset, or between the halves of a line
         "tcpdump -X": _rows(REQUEST, "\t0x{:04x}:  ", 2, " ", "  "),
         "tshark -x": _rows(REQUEST, "{:04x}  ", 1, " ", "   "),
         "python hexdump": _rows(REQUEST, "{:08X}: ", 1, "  ", "  "),
         # read 137's F-0478: 32- and 64-bit little-endian words
         "xxd -e": _rows(REQUEST, "{:08x}: ", 4, " ", "  ", little=True),
         "od -tx4": _rows(REQUEST, "{:07o} ", 4, " ", "", chars=False, little=True),
         "od -tx8": _rows(REQUEST, "{:07o} ", 8, " ", "", chars=False, little=True),
         # read 139's F-0494: groups not one space apart; F-0495: two groups a row, one row
         "hexdump -x": "".join(f"{off:07x}" + "".join(f"    {REQUEST[i:i + 2][::-1].hex():>4}" for i in range(off, min(
             off + 16, len(REQUEST)), 2)) + "\n" for off in range(0, len(REQUEST), 16)),
         "hexyl": "".join(f"│{off:08x}│ " + " ".join(f"{b:02x}" for b in REQUEST[off:off + 8]) + " ┊ "
                          + " ".join(f"{b:02x}" for b in REQUEST[off + 8:off + 16]) + " │"
                          + "".join(chr(b) if 32 <= b < 127 else "." for b in REQUEST[off:off + 16]) + "│\n"
                          for off in range(0, len(REQUEST), 16)),
         "xxd -i": "unsigned char request[] = {\n" + "".join(
             "  " + ", ".join(f"0x{b:02x}" for b in REQUEST[off:off + 12]) + ",\n" for off in range(0, len(REQUEST), 12))
             + "};\n",
         "od -An -tx8": _rows(REQUEST, "", 8, " ", "", chars=False, little=True),
         "Buffer": "<Buffer " + " ".join(f"{b:02x}" for b in REQUEST) + ">\n",
         "bytes.hex": REQUEST.hex(" ") + "\n"}


@pytest.mark.parametrize("dump", list(DUMPS))
def test_a_token_in_a_hex_dump_is_redacted_in_both_columns(dump):
    text = f"request sent:\n{DUMPS[dump]}response: 200 OK\n"
    out = compile_patterns().redact(text)
    assert out.startswith("request sent:\n") and out.endswith("response: 200 OK\n"), out
    assert "[REDACTED:hexdump]" in out and TOKEN[4:12] not in out and TOKEN[-8:] not in out, out
    assert out.count("\n") == text.count("\n")  # line for line
    assert compile_patterns().redact(out) == out
    assert compile_patterns().secret_spans(text)  # what the stream-by-stream check asks


def _go_test_json(dump: str) -> str:
    return "".join(json.dumps({"Time": "2026-12-06T18:00:00Z", "Action": "output", "Package": "example.com/x",
                               "Test": "TestRequest", "Output": line + "\n"}) + "\n" for line in dump.splitlines())


@pytest.mark.parametrize("shape", ["go test -json", "one JSON string"])
@pytest.mark.parametrize("dump", ["xxd", "hexdump -C"])
def test_a_token_in_a_hex_dump_inside_json_is_redacted(shape, dump):
    # Read 137's F-0479: each line of the dump a JSON record of its own, or the dump one string with `\n` escapes.
    text = _go_test_json(DUMPS[dump]) if shape == "go test -json" else json.dumps({"log": DUMPS[dump]}) + "\n"
    out = compile_patterns().redact(text)
    assert "[REDACTED:hexdump]" in out and TOKEN[4:12] not in out and TOKEN[-8:] not in out, out
    assert compile_patterns().redact(out) == out
    assert out.count("\n") == text.count("\n")  # a record a line, as written


@pytest.mark.parametrize("data", [b"\x7fELF\x02\x01\x01\x00" + bytes(range(56)), b"Hello, world! Nothing to hide here.\n" * 3])
def test_a_hex_dump_that_holds_no_secret_is_kept_as_written(data):
    for text in (_xxd(data), _hexdump_c(data), _od(data, True)):
        assert compile_patterns().redact(text) == text


def test_a_token_spelled_otherwise_never_reaches_the_evidence(h, repo, task, tmp_path):
    import sys

    script = tmp_path / "enc.py"
    script.write_text("import sys\nfor line in sys.argv[1:]:\n    print(line)\n")
    forms = list(_forms(TOKEN).values())
    h.ok("evidence", "build", "--", sys.executable, str(script), *forms)
    text = "\n".join(p.read_text("utf-8", "backslashreplace") for p in (repo / ".harness").rglob("*") if p.is_file())
    for spelled in forms:
        assert spelled not in text


# -- after a read of that fix (F-0159) ----------------------------------------------------------------

AWS = "AKIAIOSFODNN7EXAMPLE"


@pytest.mark.parametrize("spelled", [
    "0x" + AWS.encode().hex(),                                              # hex as C and Python write it
    "g" + AWS.encode().hex(),                                               # glued to a word
    "a" + AWS.encode().hex(),                                               # glued to a hex letter
    "".join(f"={ord(c):02x}" for c in AWS),                                 # quoted-printable, lower case
    "".join(f"={ord(c):02X}" for c in AWS[:10]) + "=\n" + "".join(f"={ord(c):02X}" for c in AWS[10:]),  # soft break
    AWS[:8] + "=4F" + AWS[9:],                                              # one character escaped
])
def test_the_other_spellings_of_hex_and_quoted_printable_are_redacted(spelled):
    out = compile_patterns(detector=True).redact(f"key: {spelled}\n")
    assert "[REDACTED:" in out and spelled not in out, out


# -- a rule newer than the text it reads (F-0161) ------------------------------------------------------

def test_text_an_older_harness_let_in_does_not_refuse_every_later_commit(h, repo, task, tmp_path, monkeypatch):
    # A finding proposed before the redactor read this spelling: its YAML is rendered again at each change
    # of its state, from a ledger line that cannot change. Only what a commit brings is judged.
    import yaml

    from harness.store import secrets_check

    from support.cli import validate_staged
    from support.gitrepo import git

    proposal = tmp_path / "f.yaml"
    proposal.write_text(yaml.safe_dump({
        "type": "suspected_defect", "severity": "minor", "category": "secret_leak", "title": "a spelling",
        "claim": f"the log printed {AWS[:8]}=4F{AWS[9:]}", "related_requirements": [],
        "location": {"file": "app.py", "line": 1}, "failure_scenario": ["run it"], "expected_behavior": "redacted",
        "recommended_reproducer": {"type": "unit_test", "description": "a run", "command": ["true"]}}))
    with monkeypatch.context() as older:  # the older harness's store knew no such spelling
        older.setattr(secrets_check, "redact_data", lambda data, red, key=None, written=False: data)
        older.setattr(secrets_check, "agents_name_flagged", lambda data, red: None)
        h.ok("finding", "propose", "--file", str(proposal))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "committed by the older harness")
    h("finding", "reproduce", "F-0001")  # its state changes, whatever the run says
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    # what a commit brings is still judged: the same spelling written now into a file is refused
    (repo / ".harness" / "NOTES.md").write_text(f"key {AWS[:8]}=4F{AWS[9:]}\n")
    assert validate_staged(repo).returncode == 1


# -- a read of those fixes (F-0162, F-0164) -------------------------------------------------------------

def test_a_new_secret_inside_a_value_whose_first_line_a_parent_held_is_refused(h, repo, task):
    from support.cli import validate_staged
    from support.gitrepo import commit_all_ok
    from support.records import tdir

    h.ok("requirement", "add", "Keys like PROJ-1234 are rotated " + "every quarter by the platform team " * 4,
         "--priority", "must")
    commit_all_ok(repo, "a requirement")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("  patterns: []", "  patterns: ['PROJ-[0-9]{4}']"))
    path = tdir(repo, task) / "requirements.yaml"
    text = path.read_text()
    assert "every quarter by the platform team\n" in text or text.count("\n    ") >= 1, text  # a value over lines
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if "PROJ-1234" in line)
    lines[at + 1] = lines[at + 1].replace("platform", f"{TOKEN} platform", 1)  # inside the value, on its 2nd line
    path.write_text("\n".join(lines))
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr


def test_a_token_broken_by_quoted_printable_soft_line_breaks_is_redacted():
    import quopri

    # As an encoder breaks a line at its width, wherever that falls: here inside the token.
    body = f"your token is {TOKEN[:21]}=\n{TOKEN[21:]} keep it safe\n"
    assert quopri.decodestring(body.encode()).decode() == f"your token is {TOKEN} keep it safe\n"
    assert TOKEN not in body
    out = compile_patterns(detector=True).redact(body)
    assert "[REDACTED:" in out, out


@pytest.mark.parametrize("text", ["see =bA\x1b[31mKIA222222222234567B here", "=bA\x1b[31mKIA222222222234567B",
                                  "x=FA\x1b[0mKIA222222222234567B"])
def test_a_key_split_by_a_colour_code_is_redacted_as_the_terminal_shows_it(text):
    """#27's task F-0021: the colour code is removed and `=bA` decoded as quoted-printable in one round, which
    took the key's `A`; a terminal shows the key whole, and so must the redactor's view."""
    out = compile_patterns([]).redact(text)
    assert "234567B" not in out, out


# -- read 83: a token split by an invisible format character (F-0287) ---------------------------------------------------

# Unicode's default-ignorable format characters (DerivedCoreProperties.txt: Default_Ignorable_Code_Point of category
# Cf): a terminal shows nothing for them, so a token with one inside reads whole.
INVISIBLE_FORMAT = [0x00AD, 0x061C, 0x180E, *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065),
                    *range(0x2066, 0x2070), 0xFEFF, *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B), 0xE0001,
                    *range(0xE0020, 0xE0080)]


def test_the_invisible_format_characters_are_unicode_s_format_characters():
    import unicodedata

    assert {unicodedata.category(chr(cp)) for cp in INVISIBLE_FORMAT} == {"Cf"}


@pytest.mark.parametrize("cp", INVISIBLE_FORMAT, ids=[f"U+{cp:04X}" for cp in INVISIBLE_FORMAT])
def test_a_token_split_by_an_invisible_format_character_is_redacted(cp):
    text = f"rotate {TOKEN[:20]}{chr(cp)}{TOKEN[20:]} now"
    out = compile_patterns(detector=True).redact(text)
    assert out == "rotate [REDACTED:github_token] now", repr(out)


def test_text_holding_invisible_format_characters_is_kept_as_written():
    # Removed in the rules' view only: a soft hyphen or a direction mark in prose stays where it was.
    text = "co\u00adoperate \u200eשלום\u200f and \u2066isolated\u2069 text"
    assert compile_patterns(detector=True).redact(text) == text


@pytest.mark.parametrize("cp", [0x00AD, 0x200E, 0x2063, 0x2066, 0x202E], ids=lambda cp: f"U+{cp:04X}")
def test_a_title_holding_a_token_split_by_an_invisible_character_is_stored_redacted(h, repo, cp):
    from support.cli import validate_staged

    h.ok("task", "new", f"rotate {TOKEN[:20]}{chr(cp)}{TOKEN[20:]}")
    text = "\n".join(p.read_text("utf-8", "backslashreplace") for p in (repo / ".harness").rglob("*") if p.is_file())
    assert TOKEN[20:] not in text and "[REDACTED:github_token]" in text
    assert validate_staged(repo).returncode == 0


# -- read 87: a token split by a default-ignorable character of another category (F-0303) -----------------------------

# Unicode's Default_Ignorable_Code_Point that are not of category Cf, by class: a terminal shows nothing for them either.
DEFAULT_IGNORABLE_OTHERWISE = {
    "variation-selector": [0xFE00, 0xFE0E, 0xFE0F, 0xE0100, 0xE01EF],
    "combining-grapheme-joiner": [0x034F],
    "mongolian-free-variation-selector": [0x180B, 0x180C, 0x180D, 0x180F],
    "khmer-inherent-vowel": [0x17B4, 0x17B5],
    "hangul-filler": [0x115F, 0x1160, 0x3164, 0xFFA0],
    "unassigned": [0x2065, 0xFFF0, 0xFFF8, 0xE0000, 0xE0002, 0xE0080, 0xE01F0, 0xE0FFF],
}
_OTHERWISE = [(kind, cp) for kind, cps in DEFAULT_IGNORABLE_OTHERWISE.items() for cp in cps]


@pytest.mark.parametrize("cp", [cp for _, cp in _OTHERWISE], ids=[f"{kind}-U+{cp:04X}" for kind, cp in _OTHERWISE])
def test_a_token_split_by_a_default_ignorable_character_is_redacted(cp):
    text = f"rotate {TOKEN[:20]}{chr(cp)}{TOKEN[20:]} now"
    out = compile_patterns(detector=True).redact(text)
    assert out == "rotate [REDACTED:github_token] now", repr(out)


def test_the_default_ignorable_format_characters_are_every_format_character_but_the_visible_ones():
    # The constant's Cf part against this Python's unicodedata: every format character is default-ignorable but the
    # prepended concatenation marks, the interlinear annotation and the Egyptian hieroglyph format controls, which
    # a terminal shows (DerivedCoreProperties.txt's derivation).
    import re
    import sys
    import unicodedata

    from harness.core.redact import DEFAULT_IGNORABLE

    shown = {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
             *range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440)}
    formats = "".join(chr(cp) for cp in range(sys.maxunicode + 1) if unicodedata.category(chr(cp)) == "Cf")
    ignorable = {ord(c) for c in re.findall(f"[{DEFAULT_IGNORABLE}]", formats)}
    assert ignorable == {ord(c) for c in formats} - shown


def test_every_variation_selector_and_hangul_filler_is_default_ignorable():
    import re
    import sys
    import unicodedata

    from harness.core.redact import DEFAULT_IGNORABLE

    named = [chr(cp) for cp in range(sys.maxunicode + 1)
             if "VARIATION SELECTOR" in (name := unicodedata.name(chr(cp), "")) or name.endswith("HANGUL FILLER")
             or name in ("HANGUL CHOSEONG FILLER", "HANGUL JUNGSEONG FILLER")]
    assert len(named) == 16 + 240 + 4 + 4, len(named)
    assert all(re.fullmatch(f"[{DEFAULT_IGNORABLE}]", c) for c in named)


def test_text_holding_default_ignorable_characters_is_kept_as_written():
    # Removed in the rules' view only: an emoji's presentation selector, a Hangul filler stay where they were.
    text = "build \u2714\ufe0f passed; \u3164\u1160 name and \u034f joined, rotate the token tomorrow"
    assert compile_patterns(detector=True).redact(text) == text


@pytest.mark.parametrize("cp", [0xFE0F, 0x034F, 0x3164, 0xE0100, 0x180B, 0x17B4],
                         ids=lambda cp: f"default-ignorable-U+{cp:04X}")
def test_a_title_holding_a_token_split_by_a_default_ignorable_character_is_stored_redacted(h, repo, cp):
    from support.cli import validate_staged

    h.ok("task", "new", f"rotate {TOKEN[:20]}{chr(cp)}{TOKEN[20:]}")
    text = "\n".join(p.read_text("utf-8", "backslashreplace") for p in (repo / ".harness").rglob("*") if p.is_file())
    assert TOKEN[20:] not in text and "[REDACTED:github_token]" in text
    assert validate_staged(repo).returncode == 0


@pytest.mark.parametrize("prefix", ["2024-05-01 10:00:00,123 DEBUG request: ", "May 01 10:00:00 host app[1]: ",
                                    "[2024-05-01 10:00:00] ", "10:00:00.123 "])
@pytest.mark.parametrize("dump", ["xxd", "hexdump -C", "od -tx1"])
def test_f0499_a_dump_whose_rows_a_logger_prefixes_is_redacted(prefix, dump):
    # Read 141's F-0499: the timestamp's digits were the first candidate row on each line, and the only one tried.
    text = "".join(prefix + line + "\n" for line in DUMPS[dump].splitlines())
    out = compile_patterns().redact(text)
    assert TOKEN[4:12] not in out and TOKEN[-8:] not in out, out

