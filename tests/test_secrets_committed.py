"""No secret in anything committed (#25 item 6): redaction at the store's one boundary (titles,
statements, findings and their reproducer argv, evidence, notes), on text as a terminal shows it
and in the encodings secrets travel in; and a last check at commit, push and server that refuses
a `.harness/` file holding what a detector flags, naming file and line."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.core.redact import compile_patterns
from harness.store.secrets_check import redact_data, secrets_in

from support.cli import cli, validate_staged
from support.flows import gated_done
from support.gitrepo import ZERO, git, head
from support.records import tdir
from support.ssh_keys import approval_line, make_key, signers_line

PY = sys.executable
TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"           # 36 characters after the prefix
ACCOUNT_KEY = base64.b64encode(bytes(range(7, 71))).decode()      # 88 characters, as Azure's are
CLOUD = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def _red():
    return compile_patterns(detector=True)


def _harness_text(repo) -> str:
    return "\n".join(p.read_text("utf-8", "backslashreplace") for p in (repo / ".harness").rglob("*") if p.is_file())


# -- each defect class of the report, through the redactor ------------------------------------------

DEFECTS = {
    "colour code inside a token": (TOKEN[:14] + "\x1b[31m" + TOKEN[14:] + "\x1b[0m", TOKEN[14:]),
    "docker auth": (json.dumps({"auths": {"registry.example.com": {
        "auth": base64.b64encode(b"robot:s3cr3t-Passw0rd-xyz").decode()}}}),
        base64.b64encode(b"robot:s3cr3t-Passw0rd-xyz").decode()),
    "docker auth of user:token": (base64.b64encode(f"robot:{TOKEN}".encode()).decode(),
                                  base64.b64encode(f"robot:{TOKEN}".encode()).decode()[8:]),
    "url-encoded cloud secret": ("GET /?q=" + urllib.parse.quote(f"aws_secret_access_key={CLOUD}", safe=""),
                                 urllib.parse.quote(CLOUD, safe="")),
    "storage AccountKey=": (f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={ACCOUNT_KEY};"
                            "EndpointSuffix=core.windows.net", ACCOUNT_KEY),
    "json \\u escape inside a token": (json.dumps({"t": TOKEN[:10]}).rstrip('"}') + "\\u0041" + TOKEN[11:] + '"}',
                                        TOKEN[11:]),
}


@pytest.mark.parametrize("text,secret", DEFECTS.values(), ids=list(DEFECTS))
def test_each_defect_class_is_redacted(text, secret):
    out = _red().redact(text)
    assert secret not in out and "[REDACTED:" in out, out


def test_the_own_patterns_alone_catch_them_too():
    """Without detect-secrets (a read-only path, or the package missing) the same defects go."""
    for text, secret in DEFECTS.values():
        assert secret not in compile_patterns().redact(text)


# -- the store's boundary: titles, statements, finding reproducers, evidence ------------------------

def test_a_token_in_a_title_a_statement_and_a_reproducer_is_not_written(h, repo, tmp_path):
    from support.cli import walk_to
    from support.flows import proposal, propose

    tid = h.ok("task", "new", f"Deploy with {TOKEN}").out.strip()
    h.ok("requirement", "add", f"Use AccountKey={ACCOUNT_KEY} for storage", "--priority", "must")
    walk_to(h, "SPECIFYING", "PLANNED", "IMPLEMENTING", "VERIFYING", "REVIEWING")
    secret_args = ["--password", "hunter2-hunter2", f"--token={TOKEN}"]
    with_secrets = proposal(recommended_reproducer={"type": "unit_test", "description": "x",
                                                    "command": [PY, "-c", "pass", *secret_args]})
    # A reproducer the ledger would keep redacted names no command (F-0329): refused, and never echoed.
    r = propose(h, tmp_path, [with_secrets])
    assert r.code == 2 and "shaped like a secret" in r.err, r.text
    assert all(secret not in r.text for secret in (TOKEN, "hunter2-hunter2"))
    r = propose(h, tmp_path, [proposal(claim=f"it runs with {' '.join(secret_args)}")])  # free text: kept redacted
    assert r.code == 0, r.text
    text = _harness_text(repo)
    for secret in (TOKEN, ACCOUNT_KEY, "hunter2-hunter2"):
        assert secret not in text
    assert "[REDACTED:" in (tdir(repo, tid) / "task.yaml").read_text()
    # the ledger's hash chain still holds (redacted before hashing): the commit is accepted
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_evidence_with_hidden_and_encoded_secrets_is_committed_clean(h, repo, task, tmp_path):
    payload = tmp_path / "out.txt"
    payload.write_text("\n".join(text for text, _ in DEFECTS.values()) + "\n")
    h("evidence", "unit_test", "--", PY, "-c", f"print(open({str(payload)!r}).read())")
    text = _harness_text(repo)
    for _, secret in DEFECTS.values():
        assert secret not in text
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_the_store_refuses_an_extra_file_a_writer_left_a_secret_in(h, repo, task):
    from harness.errors import HarnessError
    from harness.store.layout import Layout
    from harness.store.tasks import TaskStore

    s = TaskStore(Layout(repo))
    before = (tdir(repo, task) / "events.jsonl").read_bytes()
    with pytest.raises(HarnessError, match="secret"):
        s.append(task, [], extra_files={tdir(repo, task) / "evidence" / "x.log": f"out {TOKEN}\n".encode()})
    assert (tdir(repo, task) / "events.jsonl").read_bytes() == before
    assert not (tdir(repo, task) / "evidence" / "x.log").exists()


# -- the last check: commit, push guard, server ---------------------------------------------------

def test_a_hand_written_secret_in_harness_is_refused_at_commit_naming_file_and_line(h, repo, task):
    notes = repo / ".harness" / "NOTES.md"
    notes.write_text("# notes\n\nthe deploy key is\n" + TOKEN + "\n")
    r = validate_staged(repo)
    assert r.returncode == 1, r.stderr
    assert "secret-in-harness-files" in r.stderr and ".harness/NOTES.md:4" in r.stderr, r.stderr
    assert TOKEN not in r.stderr


def test_a_hand_written_secret_is_refused_by_the_push_guard_and_pre_receive(h, repo, task):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task")
    old = head(repo)
    (repo / ".harness" / "NOTES.md").write_text(
        f"DefaultEndpointsProtocol=https;AccountName=a;AccountKey={ACCOUNT_KEY}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "notes", "--no-verify")
    new = head(repo)
    git(repo, "update-ref", "refs/heads/main", old)  # the server has not got it yet
    p = cli(repo, "hook", "push-guard", "origin", "url", stdin=f"refs/heads/main {new} refs/heads/main {old}\n")
    assert p.returncode == 1 and "secret-in-harness-files" in p.stdout + p.stderr, p.stdout + p.stderr
    assert ".harness/NOTES.md:1" in p.stdout + p.stderr
    p = cli(repo, "hook", "pre-receive", stdin=f"{old} {new} refs/heads/main\n")
    assert p.returncode == 1 and "secret-in-harness-files" in p.stdout + p.stderr, p.stdout + p.stderr
    assert ACCOUNT_KEY not in p.stdout + p.stderr


def test_a_root_commit_holding_a_secret_is_refused_by_pre_receive(h, repo, task):
    (repo / ".harness" / "creds.json").write_text(json.dumps({"auths": {"r.io": {
        "auth": base64.b64encode(b"u:p4ssw0rd-long-enough").decode()}}}, indent=2))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "harness", "--no-verify")
    new = head(repo)
    git(repo, "update-ref", "-d", "refs/heads/main")  # a first push of the branch: no ref holds it yet
    p = cli(repo, "hook", "pre-receive", stdin=f"{ZERO} {new} refs/heads/main\n")
    assert p.returncode == 1 and ".harness/creds.json:4" in p.stdout + p.stderr, p.stdout + p.stderr


def test_a_normal_done_commit_with_signed_approvals_is_not_refused(h, repo, tmp_path):
    key, public = make_key(tmp_path / "keys", "human")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text().replace("major_allowed: 0", "major_allowed: 1"))
    (repo / ".harness/approvals.jsonl").write_text(approval_line("gate-change", gate.read_bytes(), key))
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    git(repo, "commit", "-qm", "loosen, approved")
    gated_done(h)
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr
    git(repo, "commit", "-qm", "done")
    h.ok("stamp")
    notes = subprocess.run(["git", "notes", "--ref", "refs/notes/harness", "show", "HEAD"], cwd=repo,
                           capture_output=True, text=True)
    assert "[REDACTED" not in notes.stdout
    for path in (repo / ".harness").rglob("*"):
        if path.is_file():
            rel = path.relative_to(repo).as_posix()
            assert secrets_in(rel, path.read_bytes()) == [], rel


# -- legitimate content is untouched --------------------------------------------------------------

LEGIT = [
    "sha256:" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904 tree 3c4e9cd789d88d8d89c1073707c3585e41b0e614",
    "run 9c1f3e5a7b2d4f60",
    "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgJ2Bi8m1Yq3Qx0t5uQb1xKq\n"
    "-----END SSH SIGNATURE-----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ2Bi8m1Yq3Qx0t5uQb1xKqlWv0fJ8p3cT1e6hYl5o2B test@example.com",
    "Interrupted runs resume from the last completed step (see docs/design.md, 100% of cases).",
    "Authorization flow: the author writes; tokens are never logged",
    "TASK-20250101-a1b2c3 REQ-001 F-0001 INV-002",
    "base64 of nothing: SGVsbG8sIHdvcmxkIQ== is hello world",
    "C:\\Users\\dev\\x41\\path and a\\u00e9ccent",
]


@pytest.mark.parametrize("text", LEGIT)
def test_legitimate_content_is_untouched(text):
    assert _red().redact(text) == text


def test_structural_fields_are_never_redacted():
    data = {"digest": "AccountKey=" + ACCOUNT_KEY, "signature": TOKEN, "title": TOKEN}
    out = redact_data(data, _red())
    assert out["digest"] == data["digest"] and out["signature"] == TOKEN and TOKEN not in out["title"]


# -- properties: a generated secret, hidden by escape codes or encoded, never survives ------------

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
SECRETS = st.one_of(
    st.text(ALNUM, min_size=36, max_size=36).map(lambda b: "ghp_" + b),
    st.text(ALNUM + "_-", min_size=20, max_size=30).map(lambda b: "glpat-" + b),
    st.text(ALNUM + "_-", min_size=24, max_size=40).map(lambda b: "sk-ant-" + b),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16).map(lambda b: "AKIA" + b),
    st.text(ALNUM + "-", min_size=12, max_size=24).map(lambda b: "xoxb-" + b),
).filter(lambda s: len(set(s)) >= 10)
CODES = st.sampled_from(["\x1b[31m", "\x1b[0m", "\x1b[1;32m", "\x1b[38;5;208m", "\x1b[K", "\x1b]0;t\x07",
                         "\x1b]8;;https://x.io\x1b\\", "\u200b", "\x07"])
PROSE = st.text(" abcdefghij.,:=\n", max_size=12)


@st.composite
def hidden(draw):
    secret = draw(SECRETS)
    how = draw(st.sampled_from(["codes", "url", "json", "base64", "codes+json", "url+codes"]))
    chars = list(secret)
    if "codes" in how:
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(1, len(chars) - 1))
            chars.insert(at, draw(CODES))
    text = "".join(chars)
    if "url" in how:
        picks = draw(st.sets(st.integers(0, len(text) - 1), min_size=1, max_size=6))
        text = "".join(urllib.parse.quote(c, safe="") if i in picks or not c.isalnum() else c
                       for i, c in enumerate(text))
    if "json" in how:
        picks = draw(st.sets(st.integers(0, len(text) - 1), min_size=1, max_size=6))
        text = "".join(f"\\u{ord(c):04x}" if i in picks or c < " " else "\\\\" if c == "\\" else c
                       for i, c in enumerate(text))
    if how == "base64":
        text = base64.b64encode(draw(st.sampled_from(["user:", "", "Bearer "])).encode() + secret.encode()).decode()
    return secret, draw(PROSE) + text + draw(PROSE)


def _shown(text: str) -> str:
    """``text`` decoded as a reader would: URL and JSON escapes undone, escape codes dropped."""
    import re

    text = urllib.parse.unquote(text)
    text = re.sub(r"\\(u[0-9a-fA-F]{4}|\\)", lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1)[1:], 16)),
                  text)
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|[\u200b\x07]", "", text)


@settings(max_examples=400, deadline=None, database=None)
@given(hidden())
def test_a_hidden_or_encoded_secret_never_survives_redaction(case):
    secret, text = case
    out = _red().redact(text)
    # The secret's last twelve characters, whatever its prefix: a body cut at its first "_" or "-" was empty
    # for a token ending in "_" (`glpat-…012_`), and "" is in every text.
    body = secret
    for form in (out, _shown(out)):
        assert body[-12:] not in form, (text, out)
    for run in __import__("re").findall(r"[A-Za-z0-9+/]{16,}={0,2}", out):
        try:
            assert body[-12:] not in base64.b64decode(run + "=" * (-len(run) % 4)).decode("utf-8", "replace")
        except ValueError:
            pass


@settings(max_examples=150, deadline=None, database=None)
@given(hidden())
def test_the_last_check_flags_what_redaction_would_have_hidden(case):
    secret, text = case
    assert secrets_in(".harness/NOTES.md", text.encode()) != []
    assert secrets_in(".harness/NOTES.md", _red().redact(text).encode()) == []


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.sampled_from(LEGIT) | st.text(" abcdefghijklmnopqrstuvwxyz0123456789.,-", max_size=40),
                max_size=6))
def test_legitimate_text_passes_the_redactor_and_the_last_check(parts):
    text = "\n".join(parts)
    assert _red().redact(text) == text
    assert secrets_in(".harness/NOTES.md", text.encode()) == []


# -- found by review (F-0001, F-0002 of TASK-20261203-eaa54c) --------------------------------------

def test_a_secret_split_by_a_yaml_line_continuation_is_found():
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    text = f'title: "{token[:20]}\\\n  {token[20:]}"\n'
    assert token not in text
    assert secrets_in(".harness/tasks/T/task.yaml", text.encode())


@pytest.mark.parametrize("doc", [{"ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8": 1},
                                 {"commit": "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8x"}], ids=["key", "structural-name"])
def test_a_secret_as_a_json_key_or_under_a_structural_name_is_found(doc):
    assert secrets_in(".harness/notes.jsonl", (json.dumps(doc) + "\n").encode())
    assert secrets_in(".harness/notes.json", json.dumps(doc).encode())


def test_the_harness_own_ids_under_structural_names_stay_unflagged():
    doc = {"commit": "a" * 40, "digest": "b" * 64, "run_id": "2e25d7dc33b7d2b9", "repository": "c" * 40, "head": None}
    assert secrets_in(".harness/x.jsonl", (json.dumps(doc) + "\n").encode()) == []


# -- found running this repository's own PASS_TO_PASS (F-0004 of TASK-20261203-eaa54c) --------------

def test_a_lost_case_named_after_a_token_is_recorded_redacted(h, repo):
    from support.gitrepo import commit_all_ok
    from support.protected_project import BUGGY, CALC, TESTS, protect, write
    from support.records import record

    named = TESTS + f'\n\n@pytest.mark.parametrize("word", ["{TOKEN}"])\ndef test_word(word):\n    assert mul(2, 5) == 10\n'
    write(repo, {"calc.py": CALC, "tests/test_calc.py": named})
    protect(repo)
    commit_all_ok(repo, "a test whose id holds a token-shaped word")
    tid = h.ok("task", "new", "x").out.strip()
    write(repo, {"calc.py": BUGGY})  # the case (and others) is lost
    r = h("evidence", "pass_to_pass")
    assert r.code == 1 and "nothing was written" not in r.err, r.text
    rec = record(repo, tid, "pass_to_pass")
    assert TOKEN not in json.dumps(rec) and any("REDACTED" in item["case"] for item in rec["pass_to_pass"]["lost"])


def test_an_identifier_holding_a_token_prefix_inside_a_word_is_no_token():
    # F-0005 of TASK-20261203-eaa54c: "laughs_is_…" holds "ghs_" followed by 36 word characters.
    name = "tests.test_yaml_reading_refuses_hostile_input::test_billion_laughs_is_refused_quickly_with_bounded_memory[config.yaml]"
    assert _red().redact(name) == name
    assert TOKEN not in _red().redact(f"token={TOKEN}")  # a real one, standing alone, still goes


TOKEN = "ghp_" + "A1b2C3d4E5" * 3 + "F6g7H8"


def test_a_secret_as_a_yaml_key_is_found():
    # Read 63b's F-0175: a key was read only as the context of a one-word value.
    from harness.store.secrets_check import secrets_in

    assert secrets_in(".harness/notes.yaml", f"{TOKEN}:\n  note: the old one\n".encode())


def test_a_yaml_value_under_a_structural_key_is_read_unless_it_is_an_id():
    # Read 63b's F-0176: everything under `commit`, `repository`, ... was skipped, whatever it held.
    from harness.store.secrets_check import secrets_in

    assert secrets_in(".harness/release.yaml", f"commit: {TOKEN}\n".encode())
    assert secrets_in(".harness/release.yaml", b"repository:\n  url: https://bob:hunter2hunter2@git.example.com/x\n")
    assert not secrets_in(".harness/release.yaml", b"commit: 0123456789abcdef0123456789abcdef01234567\n")


def test_a_json_key_given_twice_hides_no_value():
    # Read 63b's F-0177: json.loads keeps the last value of a key given twice.
    from harness.store.secrets_check import secrets_in

    assert secrets_in(".harness/handover.json", f'{{"note": "{TOKEN}", "note": "nothing"}}'.encode())
    assert secrets_in(".harness/tasks/T/events.jsonl", f'{{"note": "{TOKEN}", "note": "nothing"}}\n'.encode())



def test_an_argv_is_checked_as_its_writer_reads_it_joined():
    # Read 65's F-0214: `env GITHUB_TOKEN= sh` joined read like `GITHUB_TOKEN=sh`; the writer keeps it as it is, and
    # the check must not refuse what the writer kept, while a token an argv's words reveal joined is still found.
    import json

    from harness.store.secrets_check import secrets_in

    kept = {"argv": ["env", "GITHUB_TOKEN=", "sh", "check.sh"]}
    assert secrets_in(".harness/tasks/T/events.jsonl", (json.dumps(kept) + "\n").encode()) == []
    split = {"argv": ["curl", "-H", "Authorization:", "Zq8vT3kLmN0pQrStUv"]}
    assert secrets_in(".harness/tasks/T/events.jsonl", (json.dumps(split) + "\n").encode())


# -- read 83: what the whole text of a hand-written file shows (F-0285), a marker's shape (F-0286), a name (F-0288) --

def _wrapped_hex(text: str, width: int = 60) -> str:
    """``text`` as `xxd -p` prints it: hex digits wrapped at ``width`` columns."""
    digits = text.encode().hex()
    return "".join(digits[i:i + width] + "\n" for i in range(0, len(digits), width))


ACROSS_LINES = {
    "curl-continued": ("curl https://api.example.com/v1/items \\\n  -u admin:Hunter2Secret\n", [2]),
    "hex-wrapped": (_wrapped_hex(f"export GH={TOKEN}\n"), [1, 2]),
    "qp-soft-break": (f"your token is {TOKEN[:21]}=\n{TOKEN[21:]} keep it safe\n", [1, 2]),
}


@pytest.mark.parametrize("text,lines", ACROSS_LINES.values(), ids=list(ACROSS_LINES))
def test_a_secret_only_the_whole_text_shows_is_found_on_the_lines_it_spans(text, lines):
    assert all(secrets_in(".harness/NOTES.md", (line + "\n").encode()) == [] for line in text.split("\n"))
    found = secrets_in(".harness/NOTES.md", ("# notes\n" + text).encode())
    assert sorted({line for line, _ in found}) == [n + 1 for n in lines], found


@pytest.mark.parametrize("name", ["NOTES.md", "broken.json"])
def test_a_secret_over_lines_of_a_hand_written_file_is_refused_at_commit(h, repo, task, name):
    text = ACROSS_LINES["curl-continued"][0] + ACROSS_LINES["hex-wrapped"][0]
    (repo / ".harness" / name).write_text("# notes\n" + text)
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr
    assert f".harness/{name}:3" in r.stderr and f".harness/{name}:4" in r.stderr, r.stderr
    assert "Hunter2Secret" not in r.stderr and TOKEN not in r.stderr


# -- read 87: the text of a .jsonl file read whole, as any text file's is (F-0304) -------------------------------------

RECORD = json.dumps({"event": "note", "text": "rotated the keys"})


@pytest.mark.parametrize("text,lines", ACROSS_LINES.values(), ids=list(ACROSS_LINES))
def test_a_secret_only_the_whole_text_shows_is_found_in_a_jsonl_file(text, lines):
    # A record first and after: the text's lines keep their own numbers, and the records are read as data.
    raw = f"{RECORD}\n# notes\n{text}{RECORD}\n".encode()
    found = secrets_in(".harness/notes.jsonl", raw)
    assert sorted({line for line, _ in found}) == [n + 2 for n in lines], found


def test_a_secret_over_a_text_line_and_a_json_scalar_of_a_jsonl_file_is_found():
    # `"-u admin:…"` parses as JSON (a string) and is nothing alone: the whole text shows curl's password.
    raw = b'curl https://api.example.com/v1/items \\\n"-u admin:Hunter2Secret"\n'
    assert secrets_in(".harness/notes.jsonl", raw) != []


def test_a_secret_over_lines_of_a_jsonl_file_is_refused_at_commit(h, repo, task):
    text = ACROSS_LINES["curl-continued"][0] + ACROSS_LINES["hex-wrapped"][0]
    (repo / ".harness" / "notes.jsonl").write_text(f"{RECORD}\n# notes\n{text}")
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr
    assert ".harness/notes.jsonl:4" in r.stderr and ".harness/notes.jsonl:5" in r.stderr, r.stderr
    assert "Hunter2Secret" not in r.stderr and TOKEN not in r.stderr


def test_a_jsonl_file_of_records_and_text_holding_no_secret_is_committed(h, repo, task):
    notes = repo / ".harness" / "notes.jsonl"
    notes.write_text(f"{RECORD}\n# notes: the unit_test ran twice\n"
                     f"curl https://api.example.com/v1/items \\\n  -H 'Accept: text/plain'\n{RECORD}\n")
    assert secrets_in(".harness/notes.jsonl", notes.read_bytes()) == []
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


MARKED_PW = "Sup3rS3cretPw"


@pytest.mark.parametrize("text", [f"db at postgres://app:[REDACTED:db:{MARKED_PW}]@db.example.com/app",
                                  f"DB_PASSWORD=[REDACTED:x:{MARKED_PW}]", f"--password [REDACTED:x:{MARKED_PW}]"],
                         ids=["url-password", "secret-variable", "secret-flag"])
def test_the_last_check_finds_a_secret_in_a_markers_shape(text):
    assert secrets_in(".harness/NOTES.md", (text + "\n").encode()) != []
    assert secrets_in(".harness/notes.json", json.dumps({"note": text}).encode()) != []
    assert secrets_in(".harness/tasks/T/events.jsonl", (json.dumps({"note": text}) + "\n").encode()) != []


def test_a_title_and_an_output_in_a_markers_shape_are_stored_redacted(h, repo):
    tid = h.ok("task", "new", f"db at postgres://app:[REDACTED:db:{MARKED_PW}]@db.example.com/app").out.strip()
    h.ok("evidence", "build", "--", PY, "-c", f"print('DB_PASSWORD=[REDACTED:x:{MARKED_PW}]')")
    assert MARKED_PW not in _harness_text(repo) and "[REDACTED:url_password]" in (tdir(repo, tid) / "task.yaml").read_text()
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_a_hand_written_secret_in_a_markers_shape_is_refused_at_commit(h, repo, task):
    (repo / ".harness" / "NOTES.md").write_text(f"# notes\n\npostgres://app:[REDACTED:db:{MARKED_PW}]@db/app\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and ".harness/NOTES.md:3" in r.stderr, r.stderr
    assert MARKED_PW not in r.stderr


AKIA = "AKIA" + "IOSFODNN7EXAMPLE"


@pytest.mark.parametrize("rel,shown", [(f"keys/{TOKEN}.txt", "keys/[REDACTED:github_token].txt"),
                                       (f"{TOKEN}/notes.txt", "[REDACTED:github_token]/notes.txt"),
                                       (f"keys/{AKIA}", "keys/[REDACTED:aws_access_key_id]")],
                         ids=["file-name", "folder-name", "aws-key-id"])
def test_a_secret_in_a_harness_path_is_refused_at_commit_and_shown_redacted(h, repo, task, rel, shown):
    path = repo / ".harness" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("rotate me\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr
    assert f".harness/{shown}" in r.stderr, r.stderr
    assert TOKEN not in r.stdout + r.stderr and AKIA not in r.stdout + r.stderr


def test_a_secret_in_a_harness_path_is_refused_by_the_push_guard(h, repo, task):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "task")
    old = head(repo)
    (repo / ".harness" / "keys").mkdir()
    (repo / ".harness" / "keys" / f"{TOKEN}.txt").write_text("rotate me\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "keys", "--no-verify")
    new = head(repo)
    git(repo, "update-ref", "refs/heads/main", old)  # the server has not got it yet
    p = cli(repo, "hook", "push-guard", "origin", "url", stdin=f"refs/heads/main {new} refs/heads/main {old}\n")
    assert p.returncode == 1 and "secret-in-harness-files" in p.stdout + p.stderr, p.stdout + p.stderr
    assert ".harness/keys/[REDACTED:github_token].txt" in p.stdout + p.stderr and TOKEN not in p.stdout + p.stderr


def test_a_recorded_secret_named_variable_keeps_its_own_marker_whatever_its_value_s_length():
    # Only markers the harness writes count as redacted (F-0286): `[REDACTED:env:NAME]` under its own name in a record's
    # `env` is one, though a value shorter than 8 characters is no rule of the writer's redactor.
    data = {"env": {"API_TOKEN": "[REDACTED:env:API_TOKEN]", "DB_PASSWORD": None}}
    assert redact_data(data, compile_patterns(detector=True)) == data
