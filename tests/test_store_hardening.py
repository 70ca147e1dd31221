"""Hardening of the store against hostile or odd input: duplicate YAML keys, aliases,
huge invalid values, `replay --write` keeping what it can, folders where files belong,
and readers racing writers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from harness import context
from harness.errors import HarnessError

from support.records import tdir

CLI = [sys.executable, "-m", "harness"]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1))


def no_traceback(r) -> None:
    assert "Traceback" not in r.text, r.text


# -- 1. duplicate keys --------------------------------------------------------------------

def test_yamlio_refuses_a_duplicate_key_naming_file_line_and_key():
    from harness.store import yamlio

    with pytest.raises(HarnessError) as err:
        yamlio.parse("task:\n  state: DONE\n  state: VERIFYING\n", "t.yaml")
    assert "t.yaml:3:" in err.value.message and "duplicate key 'state'" in err.value.message
    assert "line 2" in err.value.message  # where the first one is
    # the same key in two different mappings is not a duplicate
    assert yamlio.parse("a: {x: 1}\nb: {x: 2}\n", "t.yaml") == {"a": {"x": 1}, "b": {"x": 2}}


def test_replay_refuses_a_task_yaml_with_two_states(h, repo, task):
    edit(tdir(repo, task) / "task.yaml", "  state: CREATED\n", "  state: DONE\n  state: CREATED\n")
    r = h("replay")
    assert r.code == 2, r.text
    assert f".harness/tasks/{task}/task.yaml:6:" in r.text and "first at line 5" in r.text and "duplicate key 'state'" in r.text
    no_traceback(r)


# -- 2. aliases, and short messages for huge values ---------------------------------------

LAUGHS = "requirements:\n- &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"- &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10))


def test_yamlio_refuses_anchors_and_aliases_in_rendered_task_files():
    from harness.store import yamlio

    name = ".harness/tasks/TASK-20240101-abcdef/task.yaml"
    for text, needle in (("a: &x 1\nb: *x\n", f"{name}:1:"), ("a: 1\nb: &unused 2\n", f"{name}:2:")):
        with pytest.raises(HarnessError) as err:
            yamlio.parse(text, name)
        assert needle in err.value.message and "anchor" in err.value.message
    assert yamlio.parse("a: 'R&D *not* an alias'\n", name) == {"a": "R&D *not* an alias"}


def test_yamlio_allows_small_aliases_in_settings_but_not_a_bomb():
    from harness.store import yamlio

    # What yaml.safe_dump writes for a shared list: a person's (or a tool's) config may hold it.
    assert yamlio.parse("a: &id001 [x, y]\nb: *id001\n", ".harness/config.yaml") == {"a": ["x", "y"], "b": ["x", "y"]}
    with pytest.raises(HarnessError) as err:
        yamlio.parse(LAUGHS.replace("requirements", "evidence"), ".harness/config.yaml")
    assert ".harness/config.yaml:" in err.value.message and "aliases expand" in err.value.message


def test_the_harness_never_writes_an_anchor():
    from harness.store import yamlio

    shared = ["REQ-001"]
    out = yamlio.dump({"a": shared, "b": shared})
    assert b"&" not in out and b"*" not in out
    assert yamlio.parse(out, ".harness/tasks/T/x.yaml") == {"a": shared, "b": shared}


@pytest.mark.parametrize("target", ["requirements.yaml", "config.yaml"])
def test_billion_laughs_is_refused_within_a_1_gib_address_space(h, repo, task, target):
    if target == "config.yaml":
        path, rel, text = repo / ".harness/config.yaml", ".harness/config.yaml", LAUGHS.replace("requirements", "x")
    else:
        path, rel, text = tdir(repo, task) / target, f".harness/tasks/{task}/{target}", LAUGHS
    path.write_text(text)
    # A real process under a 1 GiB address-space cap: expanding the aliases would need far more.
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    p = subprocess.run([sys.executable, "-c", limit + "from harness.cli.launch import entry; entry()", "status"],
                       cwd=repo, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"{rel}:" in p.stderr and ("anchor" in p.stderr or "aliases expand" in p.stderr), p.stderr
    assert "Traceback" not in p.stderr


def test_a_deeply_nested_invalid_value_gives_a_short_message(h, repo, task):
    deep = "[" * 900 + "]" * 900
    (tdir(repo, task) / "requirements.yaml").write_text(f"requirements: [{deep}]\n")
    r = h("replay")
    assert r.code == 2, r.text
    line = next(x for x in r.err.splitlines() if "requirements.yaml" in x)
    assert "nested more than 64 levels deep" in line  # refused before any walk could recurse
    assert len(line) < 300, line
    no_traceback(r)


def test_describe_caps_long_strings_and_many_unknown_fields():
    from harness.store import validate

    item = {"id": "x" * 5000, "statement": "s", "source": "user", "priority": "must", "status": "pending",
            "evidence": [], **{f"field{i}": 1 for i in range(30)}}
    errors = validate._errors({"requirements": [item]}, "requirement")
    assert errors and all(len(e) < 1000 for e in errors), [len(e) for e in errors]
    assert any("(+20 more)" in e for e in errors)


# -- 3 and 6. replay --write keeps what it can, and says what it could not fix ------------

def test_replay_write_keeps_freeform_text_of_files_that_still_parse(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    h.ok("invariant", "add", "Never lose data", "--category", "recovery", "--severity", "major")
    folder = tdir(repo, task)
    edit(folder / "task.yaml", "    design: null\n", "    design: docs/d.md\n")
    edit(folder / "task.yaml", "  state: CREATED\n", "  state: DONE\n")              # a hand edit to undo
    edit(folder / "requirements.yaml", "statement: Resume", "statement: Resume after SIGKILL")
    edit(folder / "invariants.yaml", "severity: major", "severity: [major")           # a syntax slip
    r = h("replay", "--write")
    assert r.code == 0, r.text
    assert f".harness/tasks/{task}/invariants.yaml" in r.err and "replaced by the ledger" in r.err
    assert "requirements.yaml: " not in r.err and "task.yaml: " not in r.err  # only the broken file is named
    assert "files agree" in r.out
    doc = yaml.safe_load((folder / "task.yaml").read_text())["task"]
    assert doc["spec"] == {"design": "docs/d.md", "plan": None} and doc["state"] == "CREATED"
    reqs = yaml.safe_load((folder / "requirements.yaml").read_text())["requirements"]
    assert reqs[0]["statement"] == "Resume after SIGKILL"
    assert yaml.safe_load((folder / "invariants.yaml").read_text())["invariants"][0]["severity"] == "major"
    h.ok("replay")


def test_replay_write_salvages_the_text_of_a_file_that_fails_its_schema(h, repo, task):
    h.ok("requirement", "add", "Resume", "--priority", "must")
    path = tdir(repo, task) / "requirements.yaml"
    edit(path, "statement: Resume", "statement: Resume from the last checkpoint")
    edit(path, "priority: must", "priority: urgent")  # parses, but the schema refuses it
    edit(tdir(repo, task) / "task.yaml", "  title: Add resumable execution\n", "  title: Resumable runs\n  colour: red\n")
    assert h("replay").code == 2
    r = h("replay", "--write")
    assert r.code == 0, r.text
    assert "replaced by the ledger" not in r.text
    req = yaml.safe_load(path.read_text())["requirements"][0]
    assert req["statement"] == "Resume from the last checkpoint" and req["priority"] == "must"
    task_doc = yaml.safe_load((tdir(repo, task) / "task.yaml").read_text())["task"]
    assert task_doc["title"] == "Resumable runs" and "colour" not in task_doc
    h.ok("replay")


def test_replay_write_reports_a_tampered_evidence_file_it_cannot_fix(h, repo, task):
    h.ok("evidence", "build", "--", sys.executable, "-c", "pass")
    record = tdir(repo, task) / "evidence" / "build.json"
    record.write_text(record.read_text().replace('"exit_code": 0', '"exit_code": 0 '))
    edit(tdir(repo, task) / "task.yaml", "  iteration: 0\n", "  iteration: 3\n")
    r = h("replay", "--write")
    assert r.code == 2, r.text
    assert "1 problem(s) remain" in r.out and "build.json" in r.err and "digest differs" in r.err
    assert "task.iteration" not in r.err  # the hand edit was undone
    r = h("replay")
    assert r.code == 2 and "build.json" in r.err


# -- 4. odd filesystem shapes -------------------------------------------------------------

def test_a_folder_in_place_of_task_yaml_is_named_and_leaves_no_journal(h, repo, task):
    path = tdir(repo, task) / "task.yaml"
    path.unlink()
    path.mkdir()
    r = h("replay", "--write")
    assert r.code == 2, r.text
    assert f".harness/tasks/{task}/task.yaml: cannot read a folder" in r.text
    no_traceback(r)
    assert not (repo / ".harness/local/journal").exists()
    assert list(tdir(repo, task).glob(".*.tmp")) == []
    path.rmdir()
    h.ok("replay", "--write")
    h.ok("replay")


def test_a_journal_promising_a_path_now_a_folder_says_how_to_finish(h, repo, task):
    from harness.store import fsio

    path = tdir(repo, task) / "task.yaml"
    journal = repo / ".harness/local/journal"
    tmp = fsio.write_temp(path, path.read_bytes().replace(b"title: Add resumable execution", b"title: promised"))
    journal.write_text(json.dumps([[str(tmp), str(path)]]))
    path.unlink()
    path.mkdir()
    for _ in range(2):  # every command says the same, and nothing promised is lost
        r = h("status")
        assert r.code == 2, r.text
        assert str(path) in r.text and f"mv {path} {path}.bak" in r.text and str(journal) in r.text
        no_traceback(r)
        assert journal.exists() and tmp.exists()
    path.rename(path.with_name("task.yaml.bak"))
    h.ok("status")
    assert not journal.exists()
    assert yaml.safe_load(path.read_text())["task"]["title"] == "promised"


def test_local_being_a_file_is_named(h, repo, task):
    local = repo / ".harness/local"
    for child in local.iterdir():
        child.unlink()
    local.rmdir()
    local.write_text("oops")
    for args in (("requirement", "add", "x", "--priority", "must"), ("replay",)):
        r = h(*args)
        assert r.code == 2, (args, r.text)
        assert f"{local} is not a folder" in r.text, r.text
        no_traceback(r)


def test_journal_being_a_folder_is_named_with_the_fix(h, repo, task):
    journal = repo / ".harness/local/journal"
    journal.mkdir()
    r = h("status")
    assert r.code == 2, r.text
    assert f"rm -r {journal}" in r.text
    no_traceback(r)
    journal.rmdir()
    h.ok("status")


def test_current_being_a_folder_is_named_by_task_switch(h, repo, task):
    current = repo / ".harness/local/current"
    current.unlink()
    current.mkdir()
    r = h("task", "switch", task)
    assert r.code == 2, r.text
    assert str(current) in r.text and "is a folder" in r.text
    no_traceback(r)
    assert [p.name for p in (repo / ".harness/local").glob(".*.tmp")] == []


def test_an_oserror_escaping_a_command_is_a_message_naming_the_path(h, repo, task, monkeypatch):
    from harness.store import fsio

    def denied(dest, data):
        raise PermissionError(13, "Permission denied", str(dest))

    monkeypatch.setattr(fsio, "write_temp", denied)
    r = h("requirement", "add", "x", "--priority", "must")
    assert r.code == 2, r.text
    assert "task.yaml: Permission denied" in r.err and r.err.startswith("harness: ")
    no_traceback(r)


def test_a_bug_still_raises(h, repo, task, monkeypatch):
    from harness.cli.main import main
    from harness.store import fsio

    def bug(dest, data):
        raise ValueError("a real bug")

    monkeypatch.setattr(fsio, "write_temp", bug)
    monkeypatch.chdir(repo)
    with pytest.raises(ValueError):
        main(["requirement", "add", "x", "--priority", "must"])


# -- 5. readers take the lock shared ------------------------------------------------------

# Forty writer processes at once, forked from one that imported the CLI already: each runs
# `harness requirement add` (the CLI's main) as its own process, and none spends ~0.2 s of
# CPU importing the same modules as the thirty-nine others — on two cores that was most of the test.
FORTY_WRITERS = """
import json, os, sys
from harness.cli.main import main
import harness.cli.items, jsonschema  # what every writer imports: once, before the fork
devnull = os.open(os.devnull, os.O_WRONLY)
writers = []
for i in range(40):
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            os.dup2(devnull, 1)
            code = main(["requirement", "add", f"requirement {i}", "--priority", "should"])
        finally:
            sys.stderr.flush()
            os._exit(code)
    writers.append(pid)
print(json.dumps([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in writers]), flush=True)
"""


def test_replays_racing_forty_writers_never_see_a_half_written_render(h, repo, task):
    writers = subprocess.Popen([sys.executable, "-c", FORTY_WRITERS], cwd=repo, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    replays = []
    while writers.poll() is None or len(replays) < 5:
        p = subprocess.run([*CLI, "replay"], cwd=repo, capture_output=True, text=True, timeout=120)
        replays.append((p.returncode, p.stderr))
    out, err = writers.communicate(timeout=120)
    assert writers.returncode == 0 and json.loads(out) == [0] * 40, (out, err)
    failed = [err for code, err in replays if code != 0]
    assert failed == [], f"{len(failed)}/{len(replays)} replays failed, e.g.:\n{failed[0]}"
    assert len(yaml.safe_load((tdir(repo, task) / "requirements.yaml").read_text())["requirements"]) == 40


def test_a_shared_lock_inside_the_exclusive_one_does_not_deadlock(h, repo, task):
    from harness.store import fsio
    from harness.store.layout import open_layout
    from harness.store.tasks import TaskStore

    s = TaskStore(open_layout(repo))
    with fsio.locked(s.layout.local / "lock"):
        assert s.load(task).id == task  # would wait for ourselves forever on a second flock
    with s.reading(), pytest.raises(RuntimeError), fsio.locked(s.layout.local / "lock"):
        pass


def test_the_known_valid_cache_is_trimmed_instead_of_growing_forever(tmp_path):
    from harness.store import validate

    cache = tmp_path / "valid"
    cache.write_text("".join(f"{n:032x}\n" for n in range(3 * validate.CACHE_KEEP)), "ascii")
    validate.use_cache(cache)
    kept = cache.read_text("ascii").split()
    assert len(kept) == validate.CACHE_KEEP and kept[-1] == f"{3 * validate.CACHE_KEEP - 1:032x}"


def test_a_text_parsed_again_gives_an_equal_new_document_each_time():
    from harness.store import yamlio

    text = b"a: &x [1, {b: 2}]\nc: *x\nwhen: 2025-01-01\n"
    first = yamlio.parse(text, "config.yaml")
    assert (True, text, False) in context.process().yaml_parsed  # so the next parse is a copy of what is kept
    again = yamlio.parse(text, "config.yaml")
    assert again == first == yaml.safe_load(text) and again is not first
    assert again["a"] is again["c"]  # an alias still names one object, as PyYAML builds it
    again["a"].append("changed by a caller")
    assert yamlio.parse(text, "config.yaml") == first  # what one caller changes, the next never sees


def test_a_text_remembered_as_settings_is_still_refused_as_a_task_file():
    from harness.store import yamlio

    text = b"requirements: &r []\nalso: *r\n"
    assert yamlio.parse(text, ".harness/config.yaml") == {"requirements": [], "also": []}
    with pytest.raises(HarnessError, match="anchor &r refused"):
        yamlio.parse(text, ".harness/tasks/TASK-20250101-abcdef/requirements.yaml")
    with pytest.raises(HarnessError, match="malformed YAML"):  # refusals are never remembered
        yamlio.parse(b"a: [", "x.yaml")
    with pytest.raises(HarnessError, match="malformed YAML"):
        yamlio.parse(b"a: [", "x.yaml")


def test_the_remembered_documents_stay_within_their_bounds(monkeypatch):
    from harness.store import yamlio

    memo = context.Process()  # this process's parses, empty
    monkeypatch.setattr(context, "_PROCESS", memo)  # what context.process() hands out
    monkeypatch.setattr(yamlio, "PARSED_BYTES", 16 * 1024)

    def held() -> int:
        return sum(len(text) + len(kept) for (_, text, _), kept in memo.yaml_parsed.items())

    # (A flow mapping: the plain texts harness.store.plain_yaml reads, a flow list of words among
    # them, are not PyYAML's, nor kept.)
    for n in range(2000):
        assert yamlio.parse(f"n: {{k: {n}}}\n".encode(), "x.yaml") == {"n": {"k": n}}
    assert 0 < held() == memo.yaml_bytes <= yamlio.PARSED_BYTES
    assert (True, b"n: {k: 0}\n", False) not in memo.yaml_parsed and (True, b"n: {k: 1999}\n", False) in memo.yaml_parsed
    # A merge key makes a pickle far larger than its text: what is held counts both.
    swelling = b"a: &a {" + b", ".join(b"k%d: %d" % (i, i) for i in range(200)) + b"}\n" + \
        b"".join(b"b%d: {<<: *a}\n" % i for i in range(100))
    assert len(yamlio.parse(swelling, "x.yaml")) == 101
    assert (True, swelling, False) not in memo.yaml_parsed  # over a sixteenth of the bound: not kept
    assert held() == memo.yaml_bytes <= yamlio.PARSED_BYTES
    assert yamlio.parse("n: {k: 1999}\n", "x.yaml") == {"n": {"k": 1999}}  # a str is its own entry
    assert (False, "n: {k: 1999}\n", False) in memo.yaml_parsed
