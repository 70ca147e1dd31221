"""A value config.yaml's `redaction.patterns` names as secret is one wherever the harness writes it: in a
command's output, and in the free text the CLI takes (titles, statements, a finding's reproducer), which
the store redacts at its one boundary. The commit check reads with the same patterns (#28's task F-0153)."""

from __future__ import annotations

import json

import pytest

from support.cli import validate_staged
from support.records import set_config, tdir

KEY = "ACMEINT-4815162342"
CONFIG = """
redaction:
  patterns: ['ACMEINT-[0-9]{10}']
"""


def _harness_text(repo) -> str:
    return "\n".join(p.read_text("utf-8", "backslashreplace") for p in (repo / ".harness").rglob("*") if p.is_file())


def test_a_value_the_config_names_is_redacted_in_titles_and_statements(h, repo):
    set_config(repo, CONFIG)
    tid = h.ok("task", "new", f"Rotate {KEY}").out.strip()
    h.ok("requirement", "add", f"Login works with service key {KEY}", "--priority", "must")
    h.ok("evidence", "build", "--", "sh", "-c", f"echo {KEY}")
    assert KEY not in _harness_text(repo)
    assert "[REDACTED:" in (tdir(repo, tid) / "requirements.yaml").read_text()
    r = validate_staged(repo)  # redacted before the line was hashed: the chain holds, the commit is accepted
    assert r.returncode == 0, r.stderr


def test_a_hand_written_value_the_config_names_is_refused_at_commit(h, repo, task):
    set_config(repo, CONFIG)
    (repo / ".harness" / "NOTES.md").write_text(f"# notes\n\nthe integration key is {KEY}\n")
    r = validate_staged(repo)
    assert r.returncode == 1, r.stderr
    assert "secret-in-harness-files" in r.stderr and ".harness/NOTES.md:3" in r.stderr, r.stderr
    assert KEY not in r.stderr


def test_the_patterns_of_the_config_a_commit_replaces_still_count(h, repo, task):
    # A commit that drops the pattern and adds the value in one go is read with the parent's patterns too.
    from support.gitrepo import commit_all_ok

    set_config(repo, CONFIG)
    commit_all_ok(repo, "the project's secret pattern")
    set_config(repo, "")
    (repo / ".harness" / "NOTES.md").write_text(f"the integration key is {KEY}\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr


def test_a_pattern_as_broad_as_any_text_leaves_the_harness_working(h, repo):
    # `[A-Z]+-[0-9]+` (ticket keys) matches REQ-001 and TASK-…: the ids, types and times the harness
    # writes are read by the own rules alone, so the ledger keeps them.
    set_config(repo, "\nredaction:\n  patterns: ['[A-Z]+-[0-9]+', '[0-9]{4}-[0-9]{2}']\n")
    tid = h.ok("task", "new", "Ship PROJ-1234").out.strip()
    h.ok("requirement", "add", "Handles PROJ-1234", "--priority", "must")
    h.ok("evidence", "build", "--", "sh", "-c", "echo PROJ-1234")
    text = _harness_text(repo)
    assert "PROJ-1234" not in text and "REQ-001" in text and tid in text
    assert validate_staged(repo).returncode == 0


def test_a_pattern_matching_the_harness_s_times_leaves_task_yaml_committable(h, repo, monkeypatch):
    # task.yaml's timestamps are its ledger's event times, outside any event's data: a pattern matching dates refused
    # task.yaml once the task's first event and its evidence fell in different seconds (seen as a flaky failure of
    # the test above under a busy suite).
    from harness.store import tasks

    set_config(repo, "\nredaction:\n  patterns: ['[0-9]{4}-[0-9]{2}']\n")
    with monkeypatch.context() as early:
        early.setattr(tasks, "now_iso", lambda: "2020-01-02T03:04:05Z")
        h.ok("task", "new", "Ship it")
        h.ok("requirement", "add", "Handles it", "--priority", "must")
    h.ok("evidence", "build", "--", "sh", "-c", "echo built")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


# Free text by the schemas (a string with no enum, const, pattern or format) that the harness writes
# itself, and so reads with its own rules alone; each with why.
WRITTEN_FREE_TEXT = {
    "base": "a commit id", "base_commit": "a commit id", "base_tree": "a tree id", "commit": "a commit id",
    "head": "a commit id", "tree": "a tree id", "tree_after": "a tree id", "run_id": "random hex",
    "created_at": "a time", "updated_at": "a time", "started_at": "a time", "finished_at": "a time",
    "timestamp": "a time", "ts": "a time", "id": "an id the harness gives", "status": "a finding's state",
    "outcome": "a run's outcome", "kind": "a blocker's kind", "check": "a gate check's name",
    "subject": "what a blocker is about (an id, a type)", "blockers": "the gate's own words",
    "blocked_by": "ids", "evidence": "types", "log": "the log's file name", "test_type": "an evidence type",
    "policy": "gate.yaml's digest", "patterns": "config.yaml's patterns themselves", "reused_run": "a run id",
    "uncovered": "requirement ids", "violated": "invariant ids",
}


def _free_text_fields() -> set[str]:
    """Every property name some schema of harness/schemas/ gives a free-text type."""
    import json
    from pathlib import Path

    import harness

    found: set[str] = set()

    def free(sub: object, root: dict) -> bool:
        if isinstance(sub, dict) and str(sub.get("$ref", "")).startswith("#/"):
            for part in sub["$ref"][2:].split("/"):
                root = root[part]
            sub = root
        if not isinstance(sub, dict) or any(k in sub for k in ("enum", "const", "pattern", "format")):
            return False
        types = sub.get("type") if isinstance(sub.get("type"), list) else [sub.get("type")]
        return "string" in types or ("array" in types and free(sub.get("items", {}), root))

    def walk(node: object, root: dict) -> None:
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if free(sub, root):
                    found.add(name)
            for value in node.values():
                walk(value, root)
        elif isinstance(node, list):
            for value in node:
                walk(value, root)

    for path in (Path(harness.__file__).parent / "schemas").glob("*.json"):
        schema = json.loads(path.read_text())
        walk(schema, schema)
    return found


def test_every_free_text_field_is_read_with_the_projects_patterns_but_those_the_harness_writes():
    from harness.store.secrets_check import HARNESS_WRITTEN

    free = _free_text_fields()
    assert {"title", "statement", "claim", "description", "argv", "stdout_tail"} <= free  # the walk finds them
    assert free & HARNESS_WRITTEN == set(WRITTEN_FREE_TEXT) & free, sorted((free & HARNESS_WRITTEN) ^ set(WRITTEN_FREE_TEXT))


def test_a_task_walked_to_done_under_a_broad_pattern_commits(h, repo):
    from support.flows import gated_done

    config = repo / ".harness/config.yaml"
    assert "  patterns: []" in config.read_text()
    config.write_text(config.read_text().replace("  patterns: []", "  patterns: ['[A-Z]+-[0-9]+', '[a-z]+_[a-z]+']"))
    gated_done(h)
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


# -- after a read of those fixes (F-0157, F-0160) ----------------------------------------------------

def test_a_custom_evidence_type_named_after_a_secret_is_refused(h, repo, task):
    # The agent names a custom type: free text, though the harness writes it under `type` and as a file name.
    set_config(repo, "\nredaction:\n  patterns: ['zqx[0-9]{6}']\n")
    r = h("evidence", "custom.zqx123462", "--", "true")
    assert r.code != 0 and "zqx123462" not in r.err, r.err
    assert "zqx123462" not in _harness_text(repo)
    assert not list((repo / ".harness").rglob("*zqx*"))


def test_a_hand_written_custom_type_named_after_a_secret_is_refused_at_commit(h, repo, task):
    set_config(repo, "\nredaction:\n  patterns: ['zqx[0-9]{6}']\n")
    folder = repo / ".harness" / "tasks" / task / "evidence"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "custom.zqx123462.log").write_text("ok\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr, r.stderr


def test_dropping_a_redaction_pattern_needs_a_humans_approval(h, repo, task):
    from support.gitrepo import commit_all_ok

    set_config(repo, CONFIG)
    commit_all_ok(repo, "the project's secret pattern")
    set_config(repo, "")
    r = validate_staged(repo)
    assert r.returncode == 1 and "redaction-patterns-need-approval" in r.stderr, r.stderr
    set_config(repo, CONFIG + "  # a comment changes no pattern\n")
    assert validate_staged(repo).returncode == 0


# -- agent-named text under keys the harness also writes (F-0163) -------------------------------------

def test_a_findings_category_and_a_contracts_test_ids_are_read_with_the_projects_patterns():
    from harness.store.secrets_check import HARNESS_WRITTEN, redact_data, redactor

    assert not {"category", "verified_by"} & HARNESS_WRITTEN
    red = redactor(("zqx[0-9]{6}",))
    data = {"category": "leak_zqx123462", "verified_by": ["tests/test_a.py::test_zqx123462"]}
    assert "zqx123462" not in str(redact_data(data, red))


def test_a_pattern_dropped_with_a_humans_approval_is_accepted(h, repo, tmp_path):
    # The legitimate way to drop one (F-0160's guard): `harness approve config-change`, bound to the new file.
    from support.gitrepo import git
    from support.ssh_keys import approval_line, make_key, repository_id, signers_line

    key, public = make_key(tmp_path / "keys", "human")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    set_config(repo, CONFIG)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt, with the project's secret pattern")
    config = repo / ".harness/config.yaml"
    before = config.read_bytes()
    set_config(repo, "")
    line = approval_line("config-change", config.read_bytes(), key, bind=(repository_id(repo), before))
    approvals = repo / ".harness/approvals.jsonl"
    approvals.write_text((approvals.read_text() if approvals.exists() else "") + line)
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


MARKED = "corp_passkeyabcdefghi"  # a value of the project's pattern, with the words a secret name holds


def test_a_command_printing_a_project_value_as_an_env_marker_keeps_no_value(h, repo, task):
    # Read 62's F-0149: the whole output `[REDACTED:env:<value>]` was taken for the marker of a recorded
    # variable; the recording knows its own variables, and this is none of them.
    set_config(repo, "\nredaction:\n  patterns: ['corp_[a-z]{16}']\n")
    h.ok("evidence", "build", "--", "sh", "-c", f"printf '[REDACTED:env:{MARKED}]'")
    assert MARKED not in _harness_text(repo)
    assert validate_staged(repo).returncode == 0


def test_a_recorded_variable_s_marker_is_accepted_at_commit_in_a_shell_without_it(h, repo, task, monkeypatch):
    # F-0143's side of F-0149: `db_password` was in the recording's shell, not in the committer's; the
    # argv word that is nothing but its marker is the harness's, not a value of `[a-z]+_[a-z]+`.
    set_config(repo, "\nredaction:\n  patterns: ['[a-z]+_[a-z]+']\n")
    monkeypatch.setenv("db_password", "Zq8wQ7pL1xR4vN2")
    h.ok("evidence", "build", "--", "echo", "Zq8wQ7pL1xR4vN2")
    assert "[REDACTED:env:db_password]" in _harness_text(repo)
    monkeypatch.delenv("db_password")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


GREP = ["grep", "-rn", "password:", "config/"]  # no secret, but `password: config/` once the words are joined


def test_a_command_whose_words_read_like_an_assignment_joined_is_recorded_and_committed(h, repo, task):
    # Read 63b's F-0160: the argv was redacted word by word and checked joined: the harness refused its own record.
    from support.records import record

    (repo / "config").mkdir()
    r = h("evidence", "lint", "--", *GREP)
    assert "refusing to write" not in r.err, r.err
    assert record(repo, task, "lint")["argv"][:3] == GREP[:3]
    assert validate_staged(repo).returncode == 0


def test_a_finding_whose_reproducer_reads_like_an_assignment_joined_is_committed(h, repo, task, tmp_path):
    # Read 63b's F-0161: the ledger line the hash chain keeps was refused at every commit. Such a reproducer is
    # kept redacted (`password: [REDACTED:…]`), which names no command, so it is now refused when proposed
    # (F-0329); a ledger an older harness wrote with it still replays and commits.
    from harness.store.secrets_check import redact_data, redactor

    from support.flows import proposal, propose
    from support.records import append_event

    doc = proposal(recommended_reproducer={"type": "unit_test", "description": "grep it", "command": GREP})
    r = propose(h, tmp_path, {"findings": [doc]})
    assert r.code == 2 and "shaped like a secret" in r.err, r.text
    append_event(repo, task, "finding.proposed", {"id": "F-0001", "content": redact_data(doc, redactor(()))})
    assert h("replay", "--write").code == 0 and h("replay").code == 0
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_a_credential_split_over_command_words_is_kept_nowhere(h, repo, task, tmp_path):
    # Read 63b's F-0162: `-H Authorization: TOKEN` is three words, each harmless alone.
    from support.flows import proposal, propose
    from support.paths import PY

    secret = "Zq8vT3kLmN0pQrStUv"
    assert propose(h, tmp_path, {"findings": [proposal()]}).code == 0
    h("finding", "reproduce", "F-0001", "--", PY, "-c", "pass", "-H", "Authorization:", secret)
    assert secret not in _harness_text(repo)
    assert validate_staged(repo).returncode == 0


def test_an_approval_spells_a_command_as_a_record_does(h, repo):
    # Read 63b's F-0174: the approval's list of changes joined the argv unredacted, and the signed line was refused.
    from harness.approvals.approve import config_changes
    from harness.gitio.git import Git
    from harness.store.layout import open_layout
    from harness.store.secrets_check import secrets_in

    from support.gitrepo import commit_all_ok

    commit_all_ok(repo, "adopt the harness")
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("evidence: {}\n", f"evidence:\n  lint:\n    command: {GREP}\n"))
    _, changes = config_changes(open_layout(repo), Git(repo))
    assert changes and "config/" not in changes[0], changes
    assert secrets_in(".harness/approvals.jsonl", (json.dumps({"changes": changes}) + "\n").encode()) == []


BROAD = "\nredaction:\n  patterns: ['[a-z]+_[a-z]+']\n"


def test_an_invariant_s_verification_list_is_the_harness_s_words(h, repo, task):
    # Read 63b's F-0170: invariants.yaml's `verification:` list was read with the project's patterns.
    set_config(repo, BROAD)
    h.ok("invariant", "add", "no data is lost", "--category", "correctness", "--severity", "major")
    h.ok("evidence", "unit_test", "--", "true")
    h.ok("invariant", "set", "INV-001", "--status", "verified", "--evidence", "unit_test")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_a_contract_citing_a_built_in_evidence_type_is_applied_under_a_broad_pattern(h, repo, task):
    # Read 63b's F-0173: `unit_test` in `verified_by` was redacted, and the event then failed its schema.
    set_config(repo, BROAD)
    (repo / ".harness/local").mkdir(exist_ok=True)
    (repo / ".harness/local/contract.yaml").write_text(
        "contract:\n  acceptance_criteria: [users can log in]\n  requirements:\n    - statement: login works\n"
        "      priority: must\n      verified_by: [unit_test]\n")
    h.ok("contract", "apply")
    assert validate_staged(repo).returncode == 0


def test_a_task_s_spec_links_are_redacted(h, repo, task):
    # Read 63b's F-0178: `task spec` wrote its links into task.yaml unredacted.
    token = "ghp_" + "A1b2C3d4E5" * 3 + "F6g7H8"
    h.ok("task", "spec", "--design", f"https://docs.example.com/d?access_token={token}")
    assert token not in _harness_text(repo)


ACCOUNTS = r"\b[0-9]{7,10}\b"


def test_the_harness_s_own_notes_in_a_log_are_its_words():
    # Read 63b's F-0163: the byte counts of `[harness: N bytes of output omitted here; M bytes in all]` refused
    # every recording past the log's cap under a pattern for account numbers.
    from harness.store.secrets_check import redactor, secrets_in

    log = b"ok\n\n[harness: 1811473 bytes of output omitted here; 10200000 bytes in all]\nok\n"
    rel = ".harness/tasks/T/evidence/unit_test.log"
    assert secrets_in(rel, log, redactor([ACCOUNTS]), own=True) == []  # the writer checking what it wrote
    assert secrets_in(rel, log + b"account 4815162342\n", redactor([ACCOUNTS]), own=True)
    assert secrets_in(rel, log, redactor([ACCOUNTS]))  # not known to be the harness's: a person's text


def test_config_yaml_s_numbers_are_not_a_project_s_values(h, repo):
    # Read 63b's F-0164: `log_cap_bytes: 8388608`, as `harness init` writes it, refused the adopting commit.
    set_config(repo, f"output:\n  log_cap_bytes: 8388608\nredaction:\n  patterns: ['{ACCOUNTS}']\n")
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr



@pytest.mark.parametrize(("rel", "text"), [
    (".harness/notes.yaml", "commit: ACME-12345678\n"), (".harness/notes.yaml", "verification: ACME-12345678\n"),
    (".harness/notes.yaml", "tail_bytes: ACME-12345678\n"), (".harness/notes.yaml", "ACME-12345678: the account\n"),
    (".harness/notes.json", '{"commit": "ACME-12345678"}'), (".harness/notes.json", '{"ACME-12345678": "the account"}'),
])
def test_a_project_s_value_is_found_under_the_harness_s_keys_and_as_a_key(rel, text):
    # Read 64's F-0209: values under the harness's keys, and keys, were read by the built-in rules alone.
    from harness.store.secrets_check import redactor, secrets_in

    assert secrets_in(rel, text.encode(), redactor(["ACME-[0-9]{8}"]))


SHAPED = ["account [REDACTED:env:key_acct_12345678]", "card [harness: 4111111111111111 bytes of output omitted here; "
          "1 bytes in all]"]
CARDS = ["acct_[0-9]{8}", "(?<![0-9])4[0-9]{15}(?![0-9])"]


@pytest.mark.parametrize("line", SHAPED, ids=["env-marker", "note"])
@pytest.mark.parametrize("rel", [".harness/notes.txt", ".harness/tasks/T/notes.yaml", ".harness/config.yaml",
                                 ".harness/tasks/T/evidence/unit_test.log.bak"])
def test_a_hand_written_file_gets_no_leniency_for_the_harness_s_words(rel, line):
    # Read 64's F-0210: an env marker of a secret-named variable another shell had, and the byte counts of the
    # harness's note, were its words in every file; a hand-written line carried a project's value past the check.
    from harness.store.secrets_check import secrets_in, stored_redactor

    assert secrets_in(rel, f"{line}\n".encode(), stored_redactor(CARDS))


CUT_AND_BROAD = "\nredaction:\n  patterns: ['[a-z]+_[a-z]+', '\\b[0-9]{7,10}\\b']\noutput:\n  log_cap_bytes: 4096\n"
CONTRACT = """
contract:
  acceptance_criteria: ["the server reads its password from /run/secrets/dbpw"]
  requirements:
    - {statement: "the password is read from /run/secrets/dbpw at start", priority: must, verified_by: [unit_test]}
"""


def _recorded_in_another_shell(h, repo, monkeypatch, tmp_path):
    """A task whose ledger, rendered files, contract, evidence record and log (cut, with the harness's note) hold
    the marker of `db_password`, a variable of the recording's shell the committing shell lacks."""
    set_config(repo, CUT_AND_BROAD)
    monkeypatch.setenv("db_password", "/run/secrets/dbpw")
    (tmp_path / "contract.yaml").write_text(CONTRACT)
    h.ok("contract", "apply", "--file", str(tmp_path / "contract.yaml"))
    h.ok("evidence", "build", "--", "sh", "-c", "echo /run/secrets/dbpw; seq 1 20000")
    monkeypatch.delenv("db_password")


def test_the_files_the_harness_writes_keep_its_words_at_commit(h, repo, task, monkeypatch, tmp_path):
    # What F-0210's fix must not refuse: a variable of the recording's shell (F-0143) and a note's byte counts
    # (F-0163), in each file harness commands write, committed from a shell without the variable (read 69: the
    # contract, rendered from the ledger, was read strictly).
    _recorded_in_another_shell(h, repo, monkeypatch, tmp_path)
    text = _harness_text(repo)
    assert "/run/secrets/dbpw" not in text and "[REDACTED:env:db_password]" in text and "bytes of output omitted" in text
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("where", ["requirements.yaml", "contract.yaml", "evidence/build.log", "evidence/build.json",
                                   "../NOTES/evidence/build.log", "../NOTES/events.jsonl.txt"])
def test_the_harness_s_words_typed_by_hand_into_its_files_are_refused(h, repo, task, monkeypatch, tmp_path, where):
    # Read 69: the leniency went by a file's name; a line typed into a rendered file's free text, or a file named
    # like evidence in a folder no ledger binds, carried a project's value in the harness's shapes.
    _recorded_in_another_shell(h, repo, monkeypatch, tmp_path)
    path = tdir(repo, task) / where
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_text() if path.exists() else ""
    path.write_text(old.replace("[REDACTED:env:db_password]", "[REDACTED:env:key_acct_12345678]", 1)
                    if "[REDACTED:env:db_password]" in old and where != "evidence/build.log"
                    else old + "\nsee [REDACTED:env:key_acct_12345678]\n")
    r = validate_staged(repo)
    rel = path.resolve().relative_to(repo.resolve()).as_posix()
    assert r.returncode == 1 and f"{rel}:" in r.stderr and "secret-in-harness-files" in r.stderr, r.stderr


def test_a_hand_written_marker_shaped_value_is_refused_at_commit(h, repo, task):
    set_config(repo, f"\nredaction:\n  patterns: {json.dumps(CARDS)}\n")
    (repo / ".harness" / "NOTES.md").write_text(f"# notes\n\n{SHAPED[0]}\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and ".harness/NOTES.md:3" in r.stderr, r.stderr


def test_a_spec_link_holding_a_variable_s_value_commits_from_a_shell_without_it(h, repo, task, monkeypatch):
    # Read 72's F-0236: a spec link is no ledger's, so the commit check reads it as a person's text; the marker the
    # harness wrote named the variable, which `[a-z]+_[a-z]+` matched there.
    set_config(repo, "\nredaction:\n  patterns: ['[a-z]+_[a-z]+']\n")
    monkeypatch.setenv("wiki_token", "Zq8wQ7pL1xR4vN2")
    h.ok("task", "spec", "--design", "https://wiki.example.com/s/Zq8wQ7pL1xR4vN2/design")
    monkeypatch.delenv("wiki_token")
    text = (tdir(repo, task) / "task.yaml").read_text()
    assert "Zq8wQ7pL1xR4vN2" not in text and "[REDACTED:env]" in text
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("rel", [".harness/approvals.jsonl", ".harness/tasks/NOTES/events.jsonl"])
def test_a_file_anyone_may_append_to_gets_no_leniency_for_the_harness_s_words(h, repo, task, rel):
    # Read 72's F-0237, F-0238: approvals.jsonl (an unsigned line counts as none, and nothing refuses it) and a
    # "ledger" in a folder no check reads as a task were read with the harness's leniency.
    set_config(repo, f"\nredaction:\n  patterns: {json.dumps(CARDS)}\n")
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fh.write(f"{SHAPED[0]}\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and f"{rel}:" in r.stderr and "secret-in-harness-files" in r.stderr, r.stderr


def test_a_record_copying_another_shell_s_recording_is_written(repo):
    # Read 72's F-0239: PASS_TO_PASS reusing a run copies its output tail, the recording shell's variable's marker
    # with it; the writer's check read that marker as this shell's, and refused its own copy.
    from harness.store.secrets_check import redactor
    from harness.store.tasks import _no_secret_in

    record = repo / ".harness/tasks/T/evidence/pass_to_pass.json"
    _no_secret_in({record: b'{"stdout_tail": "connected with [REDACTED:env:db_password]"}\n'}, repo,
                  redactor(["db_[a-z]+"]))


def test_a_signed_approval_s_own_words_are_no_project_value():
    # Read 75's F-0256: under `[a-z]+_[a-z]+` an approval's keys (approved_by, os_user, from_digest) and its change
    # text (`verification.unit_test required → optional`) refused every approval at commit.
    from harness.store.secrets_check import secrets_in, stored_redactor

    line = json.dumps({"kind": "gate-change", "changes": ["verification.unit_test required → optional"],
                       "approved_by": "A <a@b>", "os_user": "a", "from_digest": "0" * 64, "signer": "a@b"})
    assert secrets_in(".harness/approvals.jsonl", f"{line}\n".encode(), stored_redactor(["[a-z]+_[a-z]+"])) == []
    assert secrets_in(".harness/approvals.jsonl", f"{line}\n".encode()[:-2] + b', "x": "acct_reveal"}\n',
                      stored_redactor(["[a-z]+_[a-z]+"]))  # a value that is no word of the harness's is still read


@pytest.mark.parametrize(("rel", "text"), [
    (".harness/config.yaml", "evidence:\n  integration_test:\n    command: [curl, 'https://x/accounts/acct_48151623']\n"),
    (".harness/notes/accounts.yaml", "- id: acct_48151623\n"),
    (".harness/tasks/TASK-20261205-abcdef/requirements.yaml", "requirements: []\n# billing account acct_48151623\n"),
])
def test_a_project_value_under_the_harness_s_keys_or_in_a_comment_of_a_file_it_did_not_write_is_found(rel, text):
    # Read 75's F-0257 (a key named like the ledger's exempted its value in every file) and F-0258 (comments were
    # read by the harness's own rules alone).
    from harness.store.secrets_check import secrets_in, stored_redactor

    assert secrets_in(rel, text.encode(), stored_redactor(["acct_[0-9]{8}"]))


def test_the_unnamed_env_marker_is_the_harness_s():
    # Read 75's F-0259: `[REDACTED:env]` was no label of the harness's, so `\b[A-Z0-9]{8}\b` read REDACTED in it.
    from harness.store.secrets_check import secrets_in, stored_redactor

    raw = b"task:\n  spec:\n    design: https://wiki.example.com/s/[REDACTED:env]/design\n"
    assert secrets_in(".harness/tasks/T/task.yaml", raw, stored_redactor([r"\b[A-Z0-9]{8}\b"])) == []


def test_a_project_match_reaching_past_one_of_the_harness_s_words_is_found():
    # Read 77's F-0269: masking `integration_test` hid the password the pattern's match went on to.
    from harness.store.secrets_check import secrets_in, stored_redactor

    red = stored_redactor([r"[a-z_]+:[^@\s]+@db\.acme\.internal"])
    assert secrets_in(".harness/NOTES.md", b"test database: integration_test:S3cr3tPass@db.acme.internal\n", red)


def test_harness_init_s_own_comments_are_its_words_after_a_key_too():
    # Read 77's F-0270: a comment after a key (`critical_allowed: 0  # open findings (not REJECTED, …)`) was read
    # with the project's patterns, and refused the adopting commit.
    from harness import resources
    from harness.store.secrets_check import secrets_in, stored_redactor

    red = stored_redactor([r"\b[A-Z0-9]{8}\b"])
    assert secrets_in(".harness/gate.yaml", resources.template("gate.yaml"), red) == []
    assert secrets_in(".harness/gate.yaml", resources.template("gate.yaml") + b"# ticket ABCD1234\n", red)


def test_config_yaml_s_patterns_are_not_read_with_themselves():
    # Read 77's F-0271: `ACCT (?P<secret>\S+)` refused the commit that added it.
    from harness.store.secrets_check import secrets_in, stored_redactor

    red = stored_redactor([r"ACCT (?P<secret>\S+)"])
    config = b"redaction:\n  patterns: ['ACCT (?P<secret>\\S+)']\n"
    assert secrets_in(".harness/config.yaml", config, red) == []
    assert secrets_in(".harness/config.yaml", config + b"# billing: ACCT 4815162342\n", red)
    assert secrets_in(".harness/notes.yaml", config, red)  # only config.yaml's patterns are patterns


# -- read 83: a `.harness/` path is read as its names are (F-0288) ---------------------------------------------------

def test_the_harness_s_own_file_names_commit_under_broad_patterns(h, repo, tmp_path):
    # Every part of a changed `.harness/` path is read now: the ids, evidence types and files the harness names
    # (`TASK-…`, `F-0001.yaml`, `unit_test.json`, `events.jsonl`, `allowed_signers`) by its own rules alone.
    from support.flows import gated_done
    from support.ssh_keys import make_key, signers_line

    _, public = make_key(tmp_path / "keys", "human")
    (repo / ".harness/allowed_signers").write_text(signers_line("test@example.com", public))
    config = repo / ".harness/config.yaml"
    broad = "['[A-Z]+-[0-9]+', '[a-z]+_[a-z]+', '[a-z]+[.](?:jsonl|yaml|json|log)']"
    config.write_text(config.read_text().replace("  patterns: []", f"  patterns: {broad}"))
    gated_done(h)
    r = validate_staged(repo)
    assert r.returncode == 0, r.stderr


def test_a_project_value_in_a_harness_file_name_is_refused_at_commit(h, repo, task):
    set_config(repo, CONFIG)
    (repo / ".harness" / f"{KEY}.md").write_text("notes\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "secret-in-harness-files" in r.stderr and KEY not in r.stderr, r.stderr
