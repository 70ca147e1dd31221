"""Fuzzing the readers of files and inputs the installers and the agent hooks take from
anyone: a host's settings file, the install record, the skills manifest, an agent hook's
payload, a git note, approvals.jsonl and the agent hooks' local log. Each example mutates a
realistic input (byte flips, truncation, insertions, JSON-specific edits: huge and precise
numbers, duplicate keys, escapes, deep nesting, invalid UTF-8, BOM, CRLF). Asserted: nothing
but the reader's own refusal escapes (a HarnessError naming the file, or the ValueError the
caller turns into one), and what is accepted has its types. For settings, the stronger
oracle: what is accepted is written back byte-for-byte, after install and uninstall too.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from harness.errors import HarnessError

SETTINGS = (b'{\n  "model": "opus",\n  "n": 0.1000000000000000055511151231257827,\n  "name": "Zo\xc3\xab",\n'
            b'  "hooks": {\n    "Notification": [\n      {\n        "hooks": [\n          {\n'
            b'            "type": "command",\n            "command": "notify-send done"\n          }\n'
            b'        ]\n      }\n    ]\n  }\n}\n')
RECORD = json.dumps({"added_rewrite_ref": "refs/notes/harness", "previous_rewrite_mode": "concatenate",
                     "added_refspecs": {"origin": [["push", "HEAD"], ["fetch", "+refs/notes/harness*:x*"]]},
                     "pending": "install", "previous_server_config": {"receive.fsckObjects": None}}).encode()
MANIFEST = json.dumps({"installed_by": "engineering-harness", "files": {"a/SKILL.md": "ab" * 32},
                       "pending": {"a/SKILL.md": ""}}, indent=2).encode()
PAYLOAD = json.dumps({"session_id": "s", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "git commit -m x"}}).encode()
NOTE = json.dumps({"verdict": "PASS", "tasks": {"T-1": {"state": "DONE", "gate": "PASS"}}}).encode()
APPROVALS = (json.dumps({"kind": "history-rewrite", "digest": "ab" * 32, "by": "me"}) + "\n").encode() * 2
HOOKLOG = (json.dumps({"at": "2026-01-01T00:00:00Z", "event": "release", "host": "claude"}) + "\n").encode() * 2


@st.composite
def mutated(draw, raw: bytes) -> bytes:
    kind = draw(st.sampled_from(["flip", "truncate", "insert", "json", "json", "bom", "crlf", "invalid utf-8",
                                 "deep nesting", "huge integer", "none"]))
    at = draw(st.integers(0, len(raw)))
    if kind == "flip" and raw:
        i = min(at, len(raw) - 1)
        return raw[:i] + bytes([raw[i] ^ draw(st.integers(1, 255))]) + raw[i + 1:]
    if kind == "truncate":
        return raw[:at]
    if kind == "insert":
        return raw[:at] + draw(st.binary(min_size=1, max_size=12)) + raw[at:]
    if kind == "json":  # a token JSON allows (or nearly): where a value, a key or a space stands
        token = draw(st.sampled_from([b"1e400", b"-0", b"0.1000000000000000055511151231257827", b"NaN",
                                      b'"\\u00e9"', b'"\\ud800"', b'"\\/"', b"\t", b"  ", b'"a": 1, "a": 2,',
                                      b"9" * 5000, b"[]", b"{}", b"null", b"\xe2\x80\xa8"]))
        return raw[:at] + token + raw[at:]
    if kind == "bom":
        return b"\xef\xbb\xbf" + raw
    if kind == "crlf":
        return raw.replace(b"\n", b"\r\n")
    if kind == "invalid utf-8":
        return raw[:at] + b"\xff\xfe" + raw[at:]
    if kind == "deep nesting":
        n = draw(st.sampled_from([70, 5000, 100_000]))
        return raw[:at] + b"[" * n + b"]" * n + raw[at:]
    if kind == "huge integer":
        return raw[:at] + b"9" * 5000 + raw[at:]
    return raw


def _file(tmp_path_factory, name: str, raw: bytes) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(raw)
    return path


@given(data=st.data())
def test_a_settings_file_is_read_only_to_be_written_back_exactly(tmp_path_factory, data):
    from harness.agent import hook_settings as install
    from harness.agent import settings_text

    raw = data.draw(mutated(SETTINGS))
    path = _file(tmp_path_factory, "settings.json", raw)
    try:
        settings = install.read_settings(path)
    except HarnessError as exc:
        assert str(path) in exc.message
        return
    if not raw.strip():
        return
    assert settings_text.dump(settings, settings.doc) == raw
    try:
        installed = install.with_ours(settings.doc, "claude", path)
    except HarnessError as exc:  # hooks of a shape the user must fix by hand
        assert str(path) in exc.message
        return
    assert settings_text.dump(settings, install.without_ours(installed, path)) == raw


@given(data=st.data())
def test_an_install_record_is_refused_or_has_its_types(tmp_path_factory, data):
    from harness.install import journal as install_journal
    raw = data.draw(mutated(RECORD))
    folder = tmp_path_factory.mktemp("git")
    (folder / "harness-install.json").write_bytes(raw)

    class Git:  # all the reader needs of a repository: where its git folder is
        common_dir = folder

    try:
        record = install_journal.read(Git())  # type: ignore[arg-type]
    except HarnessError as exc:
        assert "harness-install.json" in exc.message
        return
    assert isinstance(record, dict)
    assert record.get("pending") in (None, *install_journal.PENDING)
    for value in (record.get("previous_server_config") or {}).values():
        assert value is None or isinstance(value, str)
    for entries in (record.get("added_refspecs") or {}).values():
        assert all(kind in ("push", "fetch") and isinstance(spec, str) for kind, spec in entries)


@given(data=st.data())
def test_a_skills_manifest_is_refused_or_maps_files_to_digests(tmp_path_factory, data):
    from harness.agent.skills_install import MANIFEST as NAME
    from harness.agent.skills_install import _read_manifest

    example = _file(tmp_path_factory, NAME, MANIFEST).parent  # as written: a pending file, new or old is ours
    assert _read_manifest(example) == {"a/SKILL.md": "ab" * 32 + " "}
    for wrong in ({"files": {"a": 1}}, {"files": {}, "pending": {"a": 1}}, {"files": []}, {"files": {}, "pending": ["a"]}):
        try:
            _read_manifest(_file(tmp_path_factory, NAME, json.dumps(wrong).encode()).parent)
            raise AssertionError(f"{wrong} read as a manifest")
        except HarnessError as exc:
            assert NAME in exc.message
    raw = data.draw(mutated(MANIFEST))
    target = _file(tmp_path_factory, NAME, raw).parent
    try:
        files = _read_manifest(target)
    except HarnessError as exc:
        assert NAME in exc.message
        return
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
    body = json.loads(raw)
    assert all(isinstance(v, str) for v in body["files"].values())
    assert all(isinstance(v, str) for v in (body.get("pending") or {}).values())


@given(data=st.data())
def test_an_agent_payload_is_refused_or_read(data):
    from harness.agent.hosts import payload, read_payload, tool_action

    assert read_payload("") == {} and read_payload(PAYLOAD.decode())["tool_name"] == "Bash"
    for not_an_object in ("[1]", '"x"', "null"):
        try:
            read_payload(not_an_object)
            raise AssertionError(f"{not_an_object} read as a payload")
        except ValueError:
            pass
    raw = data.draw(mutated(PAYLOAD))
    try:
        p = payload(read_payload(raw.decode("utf-8", "surrogateescape")))
        tool_action(p)
    except (ValueError, RecursionError):  # the agent hook's failure policy judges these
        return
    assert isinstance(p.session_id, str) and isinstance(p.tool_name, str)


@given(data=st.data())
def test_a_git_note_is_refused_or_summarized(data):
    from harness.core.limits import decode_json
    from harness.history.audit import note_summary

    assert note_summary(json.loads(NOTE), "PASS") == {"verdict": "PASS", "agrees": True}  # the example, as written
    for wrong in ({"verdict": 1}, {"tasks": []}, {"tasks": {"T-1": 1}}, {"tasks": {"T-1": {"state": 1}}},
                  {"tasks": {"T-1": {"gate": ["PASS"]}}}):
        assert note_summary(wrong, "PASS")["verdict"] == "UNREADABLE", wrong
    raw = data.draw(mutated(NOTE))
    try:
        doc = decode_json(raw)
    except ValueError:
        return
    if not isinstance(doc, dict):
        return
    tasks = doc.get("tasks")
    typed = _typed(doc.get("verdict"), str) and _typed(tasks, dict) and all(
        isinstance(task, dict) and _typed(task.get("state"), str) and _typed(task.get("gate"), str)
        for task in (tasks or {}).values())
    summary = note_summary(doc, "PASS")
    assert (summary["verdict"] != "UNREADABLE" or "problem" not in summary) == typed, (doc, summary)


def _typed(value: object, kind: type) -> bool:
    """As the note's reader types a field: absent (or null), or of its type, and a str is text."""
    from harness.core.limits import is_text

    return value is None or (isinstance(value, kind) and (not isinstance(value, str) or is_text(value)))


@given(data=st.data())
def test_approvals_are_read_as_well_formed_records_only(data):
    from harness.core.approvals import candidates, malformed_claims, record_problem, records

    assert len(records(APPROVALS)) == 2
    claim = b"\n" + json.dumps({"kind": "history-rewrite", "digest": "ab" * 32, "changes": 1}).encode()
    assert [c.split(":")[0] for c in malformed_claims(claim, "history-rewrite", "ab" * 32)] == ["line 2"]
    raw = data.draw(mutated(APPROVALS))
    for record in records(raw):
        assert isinstance(record, dict) and record_problem(record) is None
    candidates(raw, "history-rewrite", "ab" * 32)
    assert all(claim.startswith("line ") for claim in malformed_claims(raw, "history-rewrite", "ab" * 32))


@given(data=st.data())
def test_the_agent_hooks_local_log_is_refused_naming_the_line_or_read(tmp_path_factory, data):
    from harness.agent import stopstate

    _log_examples(tmp_path_factory)
    raw = data.draw(mutated(HOOKLOG))
    root = tmp_path_factory.mktemp("root")
    log = stopstate._local(root) / stopstate.LOG
    log.parent.mkdir(parents=True)
    log.write_bytes(raw)
    try:
        entries = stopstate.read_log(root)
    except HarnessError as exc:
        assert stopstate.LOG_NAME in exc.message
        return
    assert all(isinstance(e, dict) and isinstance(e["event"], str) for e in entries)


def _log_examples(tmp_path_factory) -> None:
    """The log's reader on lines written to be read (two records, a torn one skipped) and on lines
    no hook writes (refused, naming the line)."""
    from harness.agent import stopstate

    def read(raw: bytes) -> list | str:
        root = tmp_path_factory.mktemp("root")
        log = stopstate._local(root) / stopstate.LOG
        log.parent.mkdir(parents=True)
        log.write_bytes(raw)
        try:
            return stopstate.read_log(root)
        except HarnessError as exc:
            return exc.message

    assert len(read(HOOKLOG + b'{"event": "rel')) == 2
    for line in (b"[1]", b'{"event": 1}', b'{"host": "claude"}', b'{"event": "x", "host": 2}'):
        answer = read(HOOKLOG + line + b"\n")
        assert isinstance(answer, str) and f"{stopstate.LOG_NAME}:3:" in answer, (line, answer)
