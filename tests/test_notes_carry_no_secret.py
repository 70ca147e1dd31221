"""A git note never carries a secret to the remote (F-0355). At the source: the stamp copies messages about the
committed `.harness/` files into the note (a schema message quoting the refused value, a YAML message quoting a
duplicate key), and redacts them with the rules the commit check reads with — detect-secrets' and the project's
`redaction.patterns` too — and a YAML message never quotes a value unredacted. At the gate: every note a push's
notes refs add is read for secrets as a committed file is, by the push guard (its code-only fast path too) and the
server's hook; a note holding one is refused, with the way to drop it. The notes shared with the remote are not read
again, and an ordinary push with its stamps is still answered from git alone. A note is read as the harness's own only
where it has exactly the stamp's shape: a note written by hand as JSON is read with every rule, the project's patterns
too, as a plain-text one is (F-0377)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import launch
from harness.errors import HarnessError

from support.cli import Harness, cli
from support.gitrepo import NOTES, commit_all_ok, git, head, out, push, raw_note, remote_ref
from support.templates import Template, copies_naming, template

URL = "/nowhere/remote.git"
ZERO = "0" * 40
PATTERN = "ACME-[0-9A-F]{16}"
PROJECT_SECRET = "ACME-7F3A9C0B5D2E8146"  # a value only the project's pattern knows
SLACK_HOOK = "https://hooks.slack.com/services/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"  # detect-secrets' alone
GITHUB_TOKEN = "ghp_" + "a1B2" * 9  # the harness's own rules know it
SECRETS = {"project pattern": PROJECT_SECRET, "detect-secrets": SLACK_HOOK, "own rule": GITHUB_TOKEN}
HARMLESS = "reviewed by alice in PR 42 (https://example.com/pr/42); the flaky retry is tracked as BUG-17"
HARMLESS_JSON = json.dumps({"state": "reviewed by alice", "verdict": "looks good", "source": "PR 42",
                            "kind": "review", "log": ["retry tracked as BUG-17"]})
HONEST_TASK = {"state": "IMPLEMENTING", "iteration": 2, "gate": "BLOCKED", "blockers": ["unit_test evidence is missing"],
               "fresh_evidence": ["lint", "unit_test"]}


def stamp_like(task: dict, **top: object) -> str:
    """A note in the shape the stamp writes (harness.history.stamp), with one task ``task`` and ``top`` beside."""
    return json.dumps({"harness": "0.1.0", "commit": "a1" * 20, "source_tree": "b2" * 20,
                       "tasks": {"TASK-20261203-f84cd9": task}, **top}, indent=2, sort_keys=True)


# Notes written by hand as JSON, each holding the project's secret where the harness writes its own words (F-0377).
JSON_SECRETS = {
    "the reproducer's": json.dumps({"state": PROJECT_SECRET}),
    "under log": json.dumps({"log": f"deploy token {PROJECT_SECRET}"}),
    "under another key": json.dumps({"reviewer": "alice", "verdict": PROJECT_SECRET}),
    "nested": json.dumps({"review": {"source": "PR 42", "kind": [f"token {PROJECT_SECRET}"]}}),
    "a stamp's state": stamp_like({**HONEST_TASK, "state": PROJECT_SECRET}),
    "a stamp's verdict": stamp_like(HONEST_TASK, verdict=PROJECT_SECRET),
    "a key no stamp writes": stamp_like(HONEST_TASK, status=PROJECT_SECRET),
}


def with_pattern(repo: Path, pattern: str = PATTERN) -> None:
    config = repo / ".harness" / "config.yaml"
    text = config.read_text()
    assert "  patterns: []" in text
    config.write_text(text.replace("  patterns: []", f"  patterns: ['{pattern}']", 1))


def secrets_in(text: str) -> list[str]:
    return [name for name, value in SECRETS.items() if value in text]


def hand_edit_committed_without_the_check(repo: Path, tid: str) -> str:
    """What the reproducer commits with --no-verify: a task state holding the project's secret (the schema message
    quotes it) and gate.yaml with a key given twice that is a Slack webhook (the YAML message quotes it)."""
    task = repo / ".harness" / "tasks" / tid / "task.yaml"
    text = task.read_text()
    assert "  state: CREATED\n" in text
    task.write_text(text.replace("  state: CREATED\n", f"  state: [{PROJECT_SECRET}]\n", 1))
    with (repo / ".harness" / "gate.yaml").open("a") as gate:
        gate.write(f"'{SLACK_HOOK}': 1\n'{SLACK_HOOK}': 2\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "wip", "--no-verify")
    return head(repo)


def pre_push(repo: Path, monkeypatch, stdin: str, full: bool = False) -> subprocess.CompletedProcess:
    """The pre-push hook's answer to ``stdin`` (from the fast path where it answers; ``full``: the full guard's)."""
    monkeypatch.chdir(repo)
    with monkeypatch.context() as m:
        if full:
            m.setattr(launch, "push_answer", lambda _args: None)
        return cli(repo, "hook", "run", "pre-push", "origin", URL, stdin=stdin)


def line(ref: str, new: str, old: str) -> str:
    return f"{ref} {new} {ref} {old}\n"


def note_by_hand(repo: Path, text: str, rev: str = "HEAD") -> str:
    """A note written with `git notes add` (no stamp redacted it); returns the notes ref's new tip."""
    git(repo, "notes", "--ref", NOTES, "add", "-f", "-m", text, rev)
    return head(repo, NOTES)


# -- at the source: the messages a note carries ------------------------------------------------------------------

def test_a_duplicate_key_message_names_the_line_but_never_quotes_a_secret():
    from harness.store import yamlio

    with pytest.raises(HarnessError) as refused:
        yamlio.parse(f"version: 1\n'{SLACK_HOOK}': 1\n'{SLACK_HOOK}': 2\n".encode(), ".harness/gate.yaml")
    message = refused.value.message
    assert "duplicate key" in message and "line 2" in message and ".harness/gate.yaml:3" in message, message
    assert SLACK_HOOK not in message and "hooks.slack.com/services/T04ABCD12" not in message, message


def test_a_duplicate_key_that_is_no_secret_is_still_named():
    from harness.store import yamlio

    with pytest.raises(HarnessError) as refused:
        yamlio.parse(b"state: DONE\nstate: VERIFYING\n", "task.yaml")
    assert "duplicate key 'state'" in refused.value.message, refused.value.message


def test_the_stamp_of_a_commit_made_without_the_check_carries_no_secret(h, repo):
    with_pattern(repo)
    tid = h.ok("task", "new", "t").out.strip()
    commit_all_ok(repo, "adopt")
    wip = hand_edit_committed_without_the_check(repo, tid)
    h.ok("stamp")
    stamped = raw_note(repo, wip)
    assert stamped is not None and secrets_in(stamped) == [], stamped
    # Still the messages, redacted: the note says which file is broken and why.
    assert f".harness/tasks/{tid}/task.yaml" in stamped and "duplicate key" in stamped, stamped

    # A code-only commit on top is stamped from what the stamp kept (the messages as they were found).
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    code = commit_all_ok(repo, "code on top", "--no-verify")
    h.ok("hook", "stamp")
    quick = raw_note(repo, code)
    assert quick is not None and secrets_in(quick) == [] and "duplicate key" in quick, quick


# -- at the gate: the notes a push sends -------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(SECRETS))
@pytest.mark.parametrize("full", [False, True], ids=["fast path", "full guard"])
def test_a_note_holding_a_secret_is_refused_at_push(h, repo, monkeypatch, kind, full):
    with_pattern(repo)
    commit_all_ok(repo, "adopt")
    before = head(repo)
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    code = commit_all_ok(repo, "code")
    tip = note_by_hand(repo, f"deploy with {SECRETS[kind]} (do not share)")
    stdin = line("refs/heads/main", code, before) + line(NOTES, tip, ZERO)
    p = pre_push(repo, monkeypatch, stdin, full)
    text = out(p)
    assert p.returncode == 1, text
    assert "[secret-in-notes]" in text and NOTES in text and code[:12] in text, text
    assert f"git update-ref -d {NOTES}" in text, text  # the hint: how to drop the notes this push would add
    assert secrets_in(text) == [], text


def test_a_note_added_then_removed_before_the_push_is_still_refused(h, repo, monkeypatch):
    """The notes commit that added it is sent with the ref: the note's text reaches the remote all the same."""
    commit_all_ok(repo, "adopt")
    note_by_hand(repo, f"token {GITHUB_TOKEN}")
    git(repo, "notes", "--ref", NOTES, "remove", "HEAD")
    p = pre_push(repo, monkeypatch, line(NOTES, head(repo, NOTES), ZERO))
    assert p.returncode == 1 and "[secret-in-notes]" in out(p), out(p)


def test_only_the_notes_a_push_adds_are_read(h, repo, monkeypatch):
    """A note the remote already holds is not read again (it was sent before): a push reads the notes it adds."""
    commit_all_ok(repo, "adopt")
    on_remote = note_by_hand(repo, f"token {GITHUB_TOKEN}")  # pushed earlier, when no check read notes
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commit_all_ok(repo, "code")
    tip = note_by_hand(repo, HARMLESS)
    p = pre_push(repo, monkeypatch, line(NOTES, tip, on_remote))
    assert p.returncode == 0, out(p)
    assert pre_push(repo, monkeypatch, line(NOTES, tip, ZERO)).returncode == 1  # to a remote without it: read


def test_a_note_holding_a_harmless_value_is_accepted(h, repo, monkeypatch):
    with_pattern(repo)
    commit_all_ok(repo, "adopt")
    tip = note_by_hand(repo, HARMLESS)
    fast = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO))
    full = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO), full=True)
    assert (fast.returncode, full.returncode) == (0, 0), out(fast) + out(full)
    assert "no problems" in out(fast) and "refused" not in out(full), out(full)


def test_the_stamps_notes_pass_under_a_pattern_as_broad_as_the_harness_words(h, repo, monkeypatch):
    """What the stamp writes, the push reads back as its own: a project's pattern that matches the harness's words
    (`unit_test`, `source_tree`) refuses none of its notes."""
    with_pattern(repo, "[a-z]+_[a-z]+")
    h.ok("task", "new", "t")
    commit_all_ok(repo, "adopt")
    h.ok("stamp")
    tid = h.ok("task", "new", "u").out.strip()
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commit_all_ok(repo, "code")
    h.ok("stamp")
    assert tid in (raw_note(repo, "HEAD") or "")
    for full in (False, True):
        p = pre_push(repo, monkeypatch, line(NOTES, head(repo, NOTES), ZERO), full)
        assert p.returncode == 0, out(p)


@pytest.mark.parametrize("note", sorted(JSON_SECRETS))
def test_a_note_shaped_as_json_is_read_with_the_projects_patterns(note):
    """A note written by hand that parses as a JSON object is no stamp: its values under the keys a ledger's records
    use (`state`, `log`, `verdict`) were read with the harness's own rules alone, and the project's secret passed."""
    from harness.store.note_check import flagged

    assert flagged([("c0ffee", JSON_SECRETS[note].encode())], (PATTERN,)), JSON_SECRETS[note]


def test_a_stamp_and_a_harmless_json_note_are_no_secret_under_broad_patterns():
    """The stamp's own words (a state, a gate's or the audit's verdict, a built-in evidence type, its version, object
    ids) are read with the harness's rules alone; a hand-written JSON note holding none of the project's secrets is
    accepted as its plain-text twin is."""
    from harness.store.note_check import flagged
    from harness.store.secrets_check import note_text

    broad = ("[A-Z]{5,}", "[a-z]+_[a-z]+", "[0-9a-f]{12,}", "[0-9]+[.][0-9]+")
    for verdict in ("PASS", "REFUSED", "UNCHECKED"):
        stamp = json.loads(stamp_like(HONEST_TASK, verdict=verdict))
        written = note_text(stamp, broad)
        assert json.loads(written) == stamp, written  # the stamp keeps its words: none is the project's secret
        assert flagged([("c0ffee", written.encode())], broad) == [], written
    assert flagged([("c0ffee", HARMLESS_JSON.encode())], (PATTERN,)) == []


def test_the_stamps_the_harness_writes_have_the_stamps_shape(h, repo):
    """What the push reads as the harness's own words is what the stamp writes: a task's state and gate, the messages
    about a commit whose files it could not read, a code-only commit's stamp from what an earlier stamp kept."""
    from harness.core.stamp_shape import is_stamp

    with_pattern(repo)
    tid = h.ok("task", "new", "t").out.strip()
    adopt = commit_all_ok(repo, "adopt")
    h.ok("stamp")
    wip = hand_edit_committed_without_the_check(repo, tid)
    h.ok("stamp")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    code = commit_all_ok(repo, "code on top", "--no-verify")
    h.ok("hook", "stamp")
    for rev in (adopt, wip, code):
        note = json.loads(raw_note(repo, rev) or "{}")
        assert is_stamp(note), note


@pytest.mark.parametrize("note", ["the reproducer's", "under another key"])
@pytest.mark.parametrize("full", [False, True], ids=["fast path", "full guard"])
def test_a_note_shaped_as_json_holding_a_secret_is_refused_at_push(h, repo, monkeypatch, note, full):
    with_pattern(repo)
    commit_all_ok(repo, "adopt")
    tip = note_by_hand(repo, JSON_SECRETS[note])
    p = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO), full)
    text = out(p)
    assert p.returncode == 1, text
    assert "[secret-in-notes]" in text and "custom" in text and PROJECT_SECRET not in text, text


def test_a_harmless_note_shaped_as_json_is_accepted_at_push(h, repo, monkeypatch):
    with_pattern(repo)
    commit_all_ok(repo, "adopt")
    tip = note_by_hand(repo, HARMLESS_JSON)
    fast = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO))
    full = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO), full=True)
    assert (fast.returncode, full.returncode) == (0, 0), out(fast) + out(full)
    assert "no problems" in out(fast), out(fast)


def test_the_stamps_notes_pass_under_a_pattern_matching_their_states_and_verdicts(h, repo, monkeypatch):
    """A project's pattern as broad as `[A-Z]{5,}` matches a task's state and a gate's verdict: the stamp keeps them,
    and the push reads them as the harness's own words, never as a person's text."""
    with_pattern(repo, "[A-Z]{5,}")
    tid = h.ok("task", "new", "t").out.strip()
    commit_all_ok(repo, "adopt")
    h.ok("stamp")
    stamped = json.loads(raw_note(repo, "HEAD") or "{}")
    assert stamped["tasks"][tid]["state"] == "CREATED" and stamped["tasks"][tid]["gate"] == "BLOCKED", stamped
    for full in (False, True):
        p = pre_push(repo, monkeypatch, line(NOTES, head(repo, NOTES), ZERO), full)
        assert p.returncode == 0, out(p)


def test_an_ordinary_push_with_its_stamps_is_answered_from_git_alone(h, repo):
    """The notes a push adds are read without click or pygit2: every push with `harness install`'s refspec
    carries the stamps of its commits."""
    commit_all_ok(repo, "adopt")
    h.ok("stamp")
    before, notes_before = head(repo), head(repo, NOTES)
    for i in range(3):
        (repo / "app.py").write_text(f"def answer():\n    return {i}\n")
        commit_all_ok(repo, f"code {i}")
        h.ok("hook", "stamp")
    stdin = line("refs/heads/main", head(repo), before) + line(NOTES, head(repo, NOTES), notes_before)
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in "
             "('click', 'pygit2') or m.startswith(('harness.history', 'harness.store.reader')))))\n"
             f"sys.argv = ['harness', 'hook', 'run', 'pre-push', 'origin', {URL!r}]\n"
             "from harness.cli.launch import entry\n"
             "entry()\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=repo, input=stdin, text=True, capture_output=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "LOADED []" in proc.stdout, proc.stdout
    assert "commit(s) checked, no problems" in proc.stderr, proc.stderr


# -- through real hooks: the reproducer's push, and the server -----------------------------------------------------

@pytest.fixture(scope="session")
def native_notes_template(tmp_path_factory, h_template) -> Template:
    """`harness init` with a project pattern and a task, committed through the native shims and pushed (with the
    notes refspecs `harness install` adds) to a bare remote."""

    def build(repo: Path, h: Harness) -> dict:
        with_pattern(repo)
        remote = repo.parent / "remote.git"
        git(repo.parent, "init", "-q", "--bare", str(remote))
        git(repo, "remote", "add", "origin", str(remote))
        h.ok("install")
        tid = h.ok("task", "new", "t").out.strip()
        commit_all_ok(repo, "adopt")
        p = push(repo)
        assert p.returncode == 0, out(p)
        assert copies_naming(repo.parent, str(repo.parent)) == [repo / ".git" / "config"]
        return {"task": tid}

    return template(tmp_path_factory, "native-notes-secrets", build, on=h_template)


@pytest.mark.e2e
def test_a_plain_push_sends_no_secret_of_a_commit_the_guard_refuses(native_notes_template, repo, tmp_path):
    remote = tmp_path / "remote.git"
    git(repo, "switch", "-q", "-c", "wip")
    hand_edit_committed_without_the_check(repo, native_notes_template.data["task"])
    git(repo, "switch", "-q", "main")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    code = commit_all_ok(repo, "code change")
    p = push(repo)
    assert p.returncode == 0, out(p)
    assert remote_ref(remote, "refs/heads/main") == code and remote_ref(remote, NOTES) == head(repo, NOTES)
    for sha in git(repo, "rev-list", NOTES).stdout.split():
        blobs = git(repo, "ls-tree", "-r", sha).stdout.split()[2::4]
        for blob in blobs:
            assert secrets_in(git(remote, "cat-file", "-p", blob).stdout) == [], blob
    assert push(repo, "origin", "wip").returncode != 0  # the commit itself is still refused


@pytest.mark.e2e
def test_a_plain_push_of_a_hand_written_note_holding_a_secret_is_refused(native_notes_template, repo, tmp_path):
    remote = tmp_path / "remote.git"
    notes_before = remote_ref(remote, NOTES)
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commit_all_ok(repo, "code change")
    note_by_hand(repo, f"the staging key is {PROJECT_SECRET}")
    p = push(repo)
    assert p.returncode != 0 and "[secret-in-notes]" in out(p), out(p)
    assert PROJECT_SECRET not in out(p)
    assert remote_ref(remote, NOTES) == notes_before


@pytest.fixture(scope="session")
def server_notes_template(tmp_path_factory, h_template) -> Template:
    """`harness init` with a project pattern, pushed to a bare repository holding the server's hook."""

    def build(repo: Path, h: Harness) -> dict:
        with_pattern(repo)
        commit_all_ok(repo, "adopt")
        bare = repo.parent / "remote.git"
        git(repo.parent, "init", "-q", "--bare", str(bare))
        r = h("install", "--server", cwd=bare)
        assert r.code == 0, r.text
        git(repo, "remote", "add", "origin", str(bare))
        p = push(repo, "origin", "main")
        assert p.returncode == 0, out(p)
        assert copies_naming(repo.parent, str(repo.parent)) == [repo / ".git" / "config"]
        return {}

    return template(tmp_path_factory, "server-notes-secrets", build, on=h_template)


@pytest.mark.e2e
@pytest.mark.parametrize("kind", ["project pattern", "detect-secrets"])
def test_the_server_refuses_a_note_holding_a_secret(server_notes_template, repo, tmp_path, kind):
    server = tmp_path / "remote.git"
    note_by_hand(repo, f"deploy with {SECRETS[kind]}")
    p = push(repo, "--no-verify", "origin", NOTES)
    assert p.returncode != 0 and "[secret-in-notes]" in out(p) and "pre-receive" in out(p), out(p)
    assert secrets_in(out(p)) == []
    assert remote_ref(server, NOTES) is None


@pytest.mark.e2e
@pytest.mark.parametrize("note", ["the reproducer's", "under log"])
def test_the_server_refuses_a_note_shaped_as_json_holding_a_secret(server_notes_template, repo, tmp_path, note):
    server = tmp_path / "remote.git"
    note_by_hand(repo, JSON_SECRETS[note])
    p = push(repo, "--no-verify", "origin", NOTES)
    assert p.returncode != 0 and "[secret-in-notes]" in out(p) and "pre-receive" in out(p), out(p)
    assert PROJECT_SECRET not in out(p)
    assert remote_ref(server, NOTES) is None


@pytest.mark.e2e
def test_the_server_accepts_a_harmless_note_shaped_as_json(server_notes_template, repo, tmp_path):
    note_by_hand(repo, HARMLESS_JSON)
    p = push(repo, "--no-verify", "origin", NOTES)
    assert p.returncode == 0, out(p)
    assert remote_ref(tmp_path / "remote.git", NOTES) == head(repo, NOTES)


@pytest.mark.e2e
def test_the_server_accepts_the_stamps_and_a_harmless_note(server_notes_template, repo, tmp_path, capfd):
    server = tmp_path / "remote.git"
    Harness(repo, capfd).ok("stamp")
    (repo / "app.py").write_text("def answer():\n    return 43\n")
    commit_all_ok(repo, "code")
    note_by_hand(repo, HARMLESS)
    p = push(repo, "--no-verify", "origin", "main", NOTES)
    assert p.returncode == 0, out(p)
    assert remote_ref(server, NOTES) == head(repo, NOTES)


def test_the_fast_path_reads_notes_as_the_full_path_does(h, repo, monkeypatch):
    """The code-only push's note cap is the full path's (it does not import the caps), and so is its answer: of a note in plain text, shaped as JSON or as a stamp, holding a secret or not (F-0377)."""
    from harness.core.file_caps import CAPS
    from harness.gitio import push_fast_path

    assert CAPS["note"] == push_fast_path.NOTE_CAP

    with_pattern(repo)
    commit_all_ok(repo, "adopt")
    notes = {**{f"{name} (a secret)": (text, 1) for name, text in JSON_SECRETS.items()},
             "plain text (a secret)": (f"deploy with {PROJECT_SECRET}", 1),
             "plain text": (HARMLESS, 0), "JSON": (HARMLESS_JSON, 0), "a stamp": (stamp_like(HONEST_TASK), 0)}
    for name, (text, refused) in notes.items():
        tip = note_by_hand(repo, text)
        fast = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO))
        full = pre_push(repo, monkeypatch, line(NOTES, tip, ZERO), full=True)
        assert (fast.returncode, full.returncode) == (refused, refused), f"{name}: {out(fast)}{out(full)}"
        git(repo, "update-ref", "-d", NOTES)  # the next note is the only one the next push adds
