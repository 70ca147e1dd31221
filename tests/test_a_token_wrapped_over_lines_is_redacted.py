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


# -- read 150 ------------------------------------------------------------------------------------------------------

def wide(text: str) -> int:
    """Display width, as tabulate (wcwidth) and rich pad: East Asian wide characters take two columns."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def grid(value: str, width: int, label: str) -> str:
    """tabulate's `grid` format of one row whose token cell wraps, its first cell ``label`` (padded by display width)."""
    cells = [value[i:i + width] for i in range(0, len(value), width)]
    rows = ["+--------+" + "-" * (width + 2) + "+---------+",
            "| " + "name" + " " * 2 + " | " + "token".ljust(width) + " | scope   |",
            "+========+" + "=" * (width + 2) + "+=========+"]
    for n, cell in enumerate(cells):
        first = label if n == 0 else ""
        rows.append(f"| {first}{' ' * (6 - wide(first))} | {cell.ljust(width)} | {'admin' if n == 0 else '':<7} |")
    return "\n".join(rows)


def ruled(value: str, width: int) -> str:
    """tabulate's default `simple` format (no vertical borders) with `maxcolwidths`, the token in the middle column."""
    cells = [value[i:i + width] for i in range(0, len(value), width)]
    rows = ["name    " + "token".ljust(width) + "  scope", "------  " + "-" * width + "  -------"]
    rows += [f"{'slack' if n == 0 else '':<6}  {cell:<{width}}  {'admin' if n == 0 else ''}".rstrip()
             for n, cell in enumerate(cells)]
    return "\n".join(rows)


TABLES = {
    "a grid whose first cell holds wide characters": (XOXB, grid(XOXB, 16, "日本語")),
    "a grid of plain characters": (XOXB, grid(XOXB, 16, "slack")),
    "a table with no vertical borders, ruled with dashes": (XOXB, ruled(XOXB, 16)),
}
PREFIXED = {
    "a colour code around each line": (GHP, "\x1b[31mtoken rejected: \x1b[0m\n" + "\n".join(
        f"\x1b[31m{GHP[i:i + 16]}\x1b[0m" for i in range(0, len(GHP), 16))),
    "docker compose's service prefix": (GHP, "web-1  | error: token rejected:\n" + "\n".join(
        f"web-1  | {GHP[i:i + 16]}" for i in range(0, len(GHP), 16))),
    "a CI log's timestamp": (GHP, "\n".join(f"2026-12-06T12:00:01.1234567Z {GHP[i:i + 16]}" for i in range(0, len(GHP), 16))),
    "a quote's `> `": (GHP, "The deploy bot answered:\n" + "\n".join(f"> {GHP[i:i + 16]}" for i in range(0, len(GHP), 16))),
}


@pytest.mark.parametrize("secret, text", [*TABLES.values(), *PREFIXED.values()], ids=[*TABLES, *PREFIXED])
def test_f0526_f0527_a_token_wrapped_in_a_table_or_under_a_line_prefix_is_redacted(secret: str, text: str) -> None:
    out = compile_patterns().redact(text)
    assert kept(secret, out.replace("\x1b[31m", "").replace("\x1b[0m", "").replace("web-1", "")) == [], out
    assert secrets_in("notes.md", f"{text}\n".encode())


def test_f0528_a_log_cut_inside_a_wrapped_token_keeps_none_of_its_lines(h, repo, task, tmp_path):
    import base64
    import hashlib
    import hmac

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    claims = {"sub": "deploy-bot", "scope": " ".join(f"repo:org/service-{n}:write" for n in range(90))}
    head = b64(b'{"alg":"HS256","typ":"JWT"}')
    body = b64(json.dumps(claims, separators=(",", ":")).encode())
    sig = b64(hmac.new(b"k3y-0f-the-issuer", f"{head}.{body}".encode(), hashlib.sha256).digest())
    (tmp_path / "jwt").write_text(f"{head}.{body}.{sig}")
    script = tmp_path / "show.py"
    script.write_text(textwrap.dedent(f"""\
        import textwrap
        jwt = open({str(tmp_path / "jwt")!r}).read()
        for n in range(120):
            print(f"tests/test_deploy.py::test_step_{{n:03d}} PASSED")
        print("\\n".join(textwrap.wrap(f"E   PermissionError: the registry refused the request with Bearer {{jwt}}", 64)))
        print("1 failed, 120 passed")
        """))
    import yaml

    config = repo / ".harness" / "config.yaml"
    settings = yaml.safe_load(config.read_text())
    settings.setdefault("output", {}).update(tail_bytes=1024, log_cap_bytes=4096)
    config.write_text(yaml.safe_dump(settings))
    h.ok("evidence", "build", "--", sys.executable, str(script))
    folder = repo / ".harness" / "tasks" / task / "evidence"
    for name in ("build.log", "build.json"):
        written = "".join((folder / name).read_text().replace("\\n", "\n").split())
        assert sig not in written and body[-40:] not in written, name
    assert "120 passed" in (folder / "build.log").read_text()


ORDINARY_AFTER_A_SECRET = {
    "a test id after a password": ("login with password=hunter2\ntests/test_login.py::test_ok PASSED",
                                   "tests/test_login.py::test_ok PASSED"),
    "a status line after a bearer token": ("Authorization: Bearer abcdef123456\nHTTP/1.1 401 Unauthorized",
                                           "HTTP/1.1 401 Unauthorized"),
    "a YAML key after a token's": ("token: abcd1234efgh\nretries: 3", "retries: 3"),
    "the environment after an empty secret": ("API_TOKEN=\nHOME=/root\nHOSTNAME=ci-runner-7", "HOSTNAME=ci-runner-7"),
    "a markdown table's alignment row": ("| name | token |\n|:-----|:------|\n| ci   | none  |", "|:-----|:------|"),
    "a markdown table's cell": ("| name | token |\n|:-----|:------|\n| ci   | none  |", "| ci   | none  |"),
    "a summary after a wrapped token": (folded(GHP, 16) + "\n1 failed, 120 passed", "1 failed, 120 passed"),
}


@pytest.mark.parametrize("text, line", ORDINARY_AFTER_A_SECRET.values(), ids=ORDINARY_AFTER_A_SECRET.keys())
def test_f0529_the_line_after_a_secret_is_kept_as_written(text: str, line: str) -> None:
    assert line in compile_patterns().redact(text).split("\n")


# -- read 152 ------------------------------------------------------------------------------------------------------

def test_f0533_a_wrapped_token_after_a_longer_sentence_is_redacted() -> None:
    text = (f"Your new token is below.\n{folded(GHP, 20)}\n"
            f"Issued a service account token for deploy-bot\n{folded(JWT, 40)}\n")
    out = compile_patterns().redact(text)
    assert kept(GHP, out) == [] and kept(JWT, out) == [], out
    assert secrets_in("notes.txt", text.encode())


LISTS = {
    "test ids": "\n".join(f"tests/unit/test_module_{n // 10:03d}.py::test_behaviour_{n:04d}" for n in range(400)),
    "paths": "\n".join(f"src/github.com/org/project/internal/module_{n:04d}" for n in range(400)),
    "names of one length": "\n".join(f"test_behaviour_{n:04d}" for n in range(400)),
    "commit ids": "\n".join(f"{n:040x}" for n in range(400)),
}


@pytest.mark.parametrize("listing", LISTS.values(), ids=LISTS.keys())
def test_f0535_a_cut_through_a_list_keeps_the_list(listing: str) -> None:
    from harness.evidence.outputcut import cut_end, cut_start

    data = listing.encode()[-6000:] + b"\n\n400 tests collected in 0.31s\n"  # a tail's window, mid-line
    assert len(cut_start(data)) > len(data) - 200  # the line the cut fell in goes, and no more
    data = b"collected 400 items\n\n" + listing.encode()[:6000]  # a head's, mid-line
    assert len(cut_end(data)) > len(data) - 200


ORDINARY_AFTER_A_WHOLE_TOKEN = {
    "a word after a GitHub token": (f"using token {GHP}\nRunning deploy to staging", "Running deploy to staging"),
    "a status line after a JWT": (f"> Authorization: Bearer {JWT}\nHTTP/1.1 401 Unauthorized", "HTTP/1.1 401 Unauthorized"),
    "a word after a Slack token": (f"slack bot {XOXB}\nPosted message to release-notes", "Posted message to release-notes"),
    "a date after a GitHub token": (f"token {GHP}\n2024-05-01 12:00:00 deploy finished",
                                    "2024-05-01 12:00:00 deploy finished"),
}


@pytest.mark.parametrize("text, line", ORDINARY_AFTER_A_WHOLE_TOKEN.values(), ids=ORDINARY_AFTER_A_WHOLE_TOKEN.keys())
def test_f0536_the_line_after_a_token_printed_whole_is_kept(text: str, line: str) -> None:
    out = compile_patterns().redact(text).split("\n")
    assert line in out and "[REDACTED:" in out[0], out


def _long_jwt() -> str:
    import base64
    import hashlib
    import hmac

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    head = b64(b'{"alg":"HS256","typ":"JWT"}')
    body = b64(json.dumps({"sub": "deploy-bot", "scope": " ".join(f"repo:org/s-{n}:write" for n in range(90))}).encode())
    return f"{head}.{body}.{b64(hmac.new(b'k3y', body.encode(), hashlib.sha256).digest())}"


PREFIXES = {"docker compose's service": "web-1  | ", "a timestamp": "2026-12-06T12:00:01.123Z ", "a quote": "> "}


@pytest.mark.parametrize("prefix", PREFIXES.values(), ids=PREFIXES.keys())
def test_f0534_a_cut_inside_a_token_wrapped_under_a_prefix_keeps_none_of_its_lines(prefix: str) -> None:
    from harness.evidence.outputcut import cut_start

    jwt = _long_jwt()
    lines = [prefix + line for line in textwrap.wrap(f"PermissionError: refused the request with Bearer {jwt}", 64)]
    data = "\n".join([*lines, "1 failed, 120 passed"]).encode()
    kept_part = cut_start(data[len(data) // 3:]).decode()  # the tail's window starts inside the token
    assert jwt.rsplit(".", 1)[1] not in "".join(line.removeprefix(prefix) for line in kept_part.split("\n"))
    assert kept_part.endswith("1 failed, 120 passed")


# -- read 153 ------------------------------------------------------------------------------------------------------

def _openai_key(seed: int, length: int) -> str:
    import random
    import string

    rnd = random.Random(seed)
    return "sk-" + "proj-" + "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(length))


def test_f0537_the_rest_of_a_wrapped_token_its_first_line_already_matches_is_redacted() -> None:
    keys = [_openai_key(153 + n, 100) for n in range(3)]
    text = "\n".join([
        "the key, folded (fold -w 64):", folded(keys[0], 64),
        *textwrap.wrap(f"the client was started with {keys[1]} as its key", 72),
        *("web-1  | " + keys[2][i:i + 54] for i in range(0, len(keys[2]), 54)), "1 failed, 120 passed"])
    out = compile_patterns().redact(text).replace("web-1  | ", "")
    assert [kept(key, out) for key in keys] == [[], [], []], out


@pytest.mark.parametrize("prefix", ["web-1  | ", "> ", ""])
def test_f0538_a_prefixed_wrap_whose_first_piece_is_short_is_redacted(prefix: str) -> None:
    key = _openai_key(153, 92)
    lines = textwrap.wrap(f"E   RuntimeError: the upstream rejected the api key {key}", 57, break_on_hyphens=False)
    out = compile_patterns().redact("\n".join(prefix + line for line in lines))
    assert kept(key, out.replace(prefix, "") if prefix else out) == [], out


def test_f0539_a_cut_just_after_bearer_keeps_none_of_the_wrapped_token(h, repo, task, tmp_path):
    import yaml

    key = _openai_key(1, 112)
    (tmp_path / "sk").write_text(key)
    script = tmp_path / "show.py"
    script.write_text(textwrap.dedent(f"""\
        import textwrap
        sk = open({str(tmp_path / "sk")!r}).read()
        for n in range(120):
            print(f"tests/test_login.py::test_step_{{n:03d}} PASSED")
        print("\\n".join(textwrap.wrap(f"E   RuntimeError: unexpected reply from the provider Bearer {{sk}}", 40,
                                       break_on_hyphens=False)))
        for n in range(4):
            print(f"FAILED tests/test_login.py::test_refresh_{{n}} - RuntimeError: unexpected reply")
        print("1 failed, 120 passed")
        """))
    import subprocess

    printed = subprocess.run([sys.executable, str(script)], capture_output=True, check=True).stdout
    config = repo / ".harness" / "config.yaml"
    settings = yaml.safe_load(config.read_text())
    settings.setdefault("output", {})["tail_bytes"] = len(printed) - printed.index(b" sk-proj-")  # cut in `Bearer `
    config.write_text(yaml.safe_dump(settings))
    h.ok("evidence", "build", "--", sys.executable, str(script))
    tail = json.loads((repo / ".harness" / "tasks" / task / "evidence" / "build.json").read_text())["stdout_tail"]
    assert "1 failed, 120 passed" in tail
    assert kept(key, tail, piece=16) == [], tail
