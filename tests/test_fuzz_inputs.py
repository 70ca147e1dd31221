"""Fuzzing every kind of file the harness reads: bad input never crashes, hangs, runs
unbounded or is silently accepted.

Each example mutates one file of a realistic repository (byte flips, truncation, wrong
types, unknown keys, deep nesting, huge values, aliases, duplicate keys, invalid UTF-8,
BOM, CRLF, special files, symlinks) and runs `status`, `replay`, `gate` and the commit
hook in-process, each under a timer. Asserted: no traceback, no hang, bounded memory,
exit 2 (or the hook's refusal) naming the file, and no command succeeding on a file its
schema refuses. `pytest --hypothesis-profile=long tests/test_fuzz_inputs.py` runs more.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from harness.cli.main import main
from harness.core.ledger import encode_event, line_hash
from harness.errors import HarnessError

from support.environment import GIT_ENV
from support.flows import FINDING_PROPOSAL

CALL_SECONDS = 10  # a call this slow is a hang (the slowest legitimate one takes ~1 s)
MEMORY_GROWTH_KB = 600 * 1024  # peak RSS growth allowed over the whole run
PY = sys.executable


class Hang(Exception):
    pass


@contextlib.contextmanager
def timer(seconds: float) -> Iterator[None]:
    def ring(*_: object) -> None:
        raise Hang(f"no answer after {seconds}s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV})


def run(root: Path, capfd, *args: str) -> tuple[int, str]:
    """`harness ARGS` in-process; any exception escaping main() is a traceback and fails."""
    capfd.readouterr()
    old = os.getcwd()
    os.chdir(root)
    try:
        with timer(CALL_SECONDS):
            code = main(list(args))
    finally:
        os.chdir(old)
    out, err = capfd.readouterr()
    return code, out + err


# -- the repository every example starts from ----------------------------------------------

@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A committed repository with a task carrying a contract, evidence, a finding and an
    approval; returns (root, task id, {rel: original bytes})."""
    home = tmp_path_factory.mktemp("fuzz-home")
    os.environ.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    root = tmp_path_factory.mktemp("fuzz") / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "app.py").write_text("def answer():\n    return 42\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    old = os.getcwd()
    os.chdir(root)
    try:
        from harness import resources

        contract = root.parent / "contract.yaml"
        contract.write_bytes(resources.template("contract.example.yaml"))
        proposal = root.parent / "proposal.yaml"
        proposal.write_text(yaml.safe_dump(FINDING_PROPOSAL))
        for args in (["init"], ["task", "new", "Fuzz"], ["contract", "apply", "--file", str(contract)],
                     ["evidence", "unit_test", "--", PY, "-c", "print('ok')"],
                     ["finding", "propose", "--file", str(proposal)]):
            assert main(args) == 0, args
    finally:
        os.chdir(old)
    (root / ".harness/approvals.jsonl").write_text(json.dumps({"kind": "gate-change", "digest": "0" * 64}) + "\n")
    git(root, "add", "-A")
    assert git(root, "commit", "-qm", "harness state", "--no-verify").returncode == 0
    tid = next(p.name for p in (root / ".harness/tasks").iterdir())
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in (root / ".harness").rglob("*")
             if p.is_file() and "local" not in p.relative_to(root).parts}
    return Base(root, tid, files)


class Base(tuple):
    """(root, task id, {rel: bytes}), shown briefly when hypothesis reports an example."""

    def __new__(cls, *items: object) -> Base:
        return super().__new__(cls, items)

    def __repr__(self) -> str:
        return f"<repository {self[0]}>"


def restore(root: Path, files: dict[str, bytes], unstage: bool = True) -> None:
    for rel, raw in files.items():
        path = root / rel
        if path.is_symlink() or (path.exists() and not path.is_file()):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        if not path.exists() or path.read_bytes() != raw:
            path.write_bytes(raw)
    for extra in (root / ".harness/tasks").rglob("*"):  # files a command may have added
        if extra.is_file() and extra.relative_to(root).as_posix() not in files:
            extra.unlink()
    if unstage:
        git(root, "reset", "-q")


# -- mutations -----------------------------------------------------------------------------

SPECIAL = ("fifo", "folder", "link to /dev/zero", "link to a copy")


def _paths(doc: object) -> list[list]:
    """Every path to a value inside ``doc`` (iteratively: mutations may be deep)."""
    out, stack = [], [([], doc)]
    while stack and len(out) < 500:
        path, node = stack.pop()
        out.append(path)
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((path + [k], v) for k, v in items)
    return out


def _set(doc: object, path: list, value: object) -> object:
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def nested(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


VALUES = st.one_of(st.booleans(), st.integers(), st.floats(), st.text(max_size=12), st.none(),
                   st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
                   st.integers(60, 400).map(nested), st.integers(1000, 1_200_000).map(lambda n: "x" * n))


def structured(draw, raw: bytes, rel: str) -> bytes | None:
    """A wrong type, an unknown key or deep nesting at a random place of the parsed document;
    a ledger is re-chained afterwards so the hash chain does not hide the change."""
    what = draw(st.sampled_from(["wrong type", "unknown key"]))
    if rel.endswith(".jsonl"):
        try:
            events = [json.loads(line) for line in raw.decode().splitlines()]
        except ValueError:
            return None
        if not events:
            return None
        i = draw(st.integers(0, len(events) - 1))
        event = events[i]
        envelope = "approvals" in rel or not isinstance(event, dict) or not isinstance(event.get("data"), dict)
        target = event if envelope or draw(st.booleans()) else event["data"]
        paths = _paths(target)
        path = draw(st.sampled_from(paths))
        node = target
        for key in path:
            node = node[key]
        if what == "unknown key" and isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=8))] = draw(VALUES)
        elif path:
            _set(target, path, draw(VALUES))
        else:
            return None
        prev, lines = "0" * 64, []
        if "approvals" in rel:
            return "".join(json.dumps(e) + "\n" for e in events).encode()
        for n, e in enumerate(events, start=1):
            if not isinstance(e, dict) or not {"ts", "type", "data"} <= set(e):
                return None
            try:
                line = encode_event(e.get("seq", n) if draw(st.booleans()) else n, e["ts"], e["type"], e["data"], prev)
            except (ValueError, TypeError, RecursionError):
                return None
            lines.append(line)
            prev = line_hash(line)
        return ("\n".join(lines) + "\n").encode()
    try:
        doc = json.loads(raw) if rel.endswith(".json") else yaml.safe_load(raw)
    except (ValueError, yaml.YAMLError):
        return None
    path = draw(st.sampled_from(_paths(doc)))
    node = doc
    for key in path:
        node = node[key]
    if what == "unknown key" and isinstance(node, dict):
        node[draw(st.text(min_size=1, max_size=8))] = draw(VALUES)
    else:
        doc = _set(doc, path, draw(VALUES))
    try:
        if rel.endswith(".json"):
            return json.dumps(doc).encode()
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True).encode()
    except (ValueError, TypeError, RecursionError, yaml.YAMLError):
        return None


def textual(draw, raw: bytes) -> bytes:
    kind = draw(st.sampled_from(["flip", "truncate", "insert", "bom", "crlf", "invalid utf-8", "deep nesting",
                                 "huge value", "huge integer", "aliases", "duplicate key"]))
    at = draw(st.integers(0, max(0, len(raw))))
    if kind == "flip" and raw:
        i = min(at, len(raw) - 1)
        return raw[:i] + bytes([raw[i] ^ draw(st.integers(1, 255))]) + raw[i + 1:]
    if kind == "truncate":
        return raw[:at]
    if kind == "insert":
        return raw[:at] + draw(st.binary(min_size=1, max_size=16)) + raw[at:]
    if kind == "bom":
        return b"\xef\xbb\xbf" + raw
    if kind == "crlf":
        return raw.replace(b"\n", b"\r\n")
    if kind == "invalid utf-8":
        return raw[:at] + b"\xff\xfe\xc3" + raw[at:]
    if kind == "deep nesting":
        n = draw(st.sampled_from([70, 900, 5000, 100_000]))
        return raw + b"deep: " + b"[" * n + b"]" * n + b"\n"
    if kind == "huge value":
        n = draw(st.sampled_from([10_000, 1_000_000, 9 * 1024 * 1024]))
        return raw + b"# " + b"x" * n + b"\n"
    if kind == "huge integer":
        return raw + b"big: " + b"9" * draw(st.sampled_from([400, 5000, 100_000])) + b"\n"
    if kind == "aliases":
        laughs = b"a: &a [x, x, x, x, x, x, x, x, x]\n" + b"".join(
            b"%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n" % ((98 + i,) * 2 + (97 + i,) * 9) for i in range(8))
        return raw + (laughs if draw(st.booleans()) else b"x: &anchor 1\ny: *anchor\n")
    first = raw.split(b"\n", 1)[0]
    return raw + b"\n" + first + b"\n"


@st.composite
def mutations(draw, names: list[str]):
    rel = draw(st.sampled_from(names))
    kind = draw(st.sampled_from(["textual", "textual", "structured", "special"]))
    return rel, kind, draw(st.data())


# -- the oracle: what the schemas say about a file -----------------------------------------

def schema_ok(rel: str, raw: bytes | None, tid: str, original: bytes) -> bool | None:
    """Whether the file is acceptable by the schemas (None: no schema speaks for it)."""
    from harness.store import reader, validate, yamlio
    from harness.store.bounded import CAPS, kind_of

    if raw is None:
        return False
    name = rel.rsplit("/", 1)[-1]
    if name.endswith((".json", ".log")):
        return raw == original  # bound to the ledger by digest
    if name == "approvals.jsonl" or "/local/" in rel:
        return None
    if len(raw) > CAPS[kind_of(rel)]:
        return False
    try:
        raw.decode("utf-8")
        if name == "events.jsonl":
            _, proj = reader.parse_ledger(raw, rel)
            return proj.id == tid
        doc = yamlio.parse(raw, rel) if raw.strip() else None
        schema = {"config.yaml": "config", "gate.yaml": "gate"}.get(name) if rel.count("/") == 1 else \
            reader.schema_of(rel.split(f"{tid}/", 1)[1])
        if doc is None and name in ("config.yaml", "gate.yaml"):
            return False
        if doc is not None or schema:
            errors = validate._errors(doc, schema)
            return not errors
    except (HarnessError, UnicodeDecodeError):
        return False
    return True


# Which commands read (and so must refuse) which files.
READERS = {
    "events.jsonl": ("status", "replay", "gate"),
    "gate.yaml": ("gate",),
    "config.yaml": ("gate",),
}
TASK_DOC_READERS = ("replay", "gate")


def must_refuse(rel: str) -> tuple[str, ...]:
    name = rel.rsplit("/", 1)[-1]
    if name in READERS:
        return READERS[name]
    if name.endswith(".yaml"):
        return TASK_DOC_READERS
    if name.endswith((".json", ".log")):
        return ("gate",)
    return ()


# -- the test ------------------------------------------------------------------------------

class Tally:
    examples = 0
    outcomes: ClassVar[dict[str, int]] = {}


@given(data=st.data())
def test_no_mutation_of_any_file_crashes_hangs_or_is_silently_accepted(base, capfd, data):
    root, tid, files = base
    # .gitignore is git's file, not the harness's: git itself hangs on a FIFO there.
    names = sorted(n for n in files if not n.endswith(".gitignore"))
    rel = data.draw(st.sampled_from(names), label="file")
    kind = data.draw(st.sampled_from(["textual", "textual", "structured", "special"]), label="kind")
    path = root / rel
    original = files[rel]
    # The files as committed (the index needs no reset: the last example's `finally` did it, and
    # the hook below judges what `git add -A .harness` stages, whatever was staged before).
    restore(root, files, unstage=False)
    raw: bytes | None
    special = None
    if kind == "special":
        special = data.draw(st.sampled_from(SPECIAL), label="special")
        path.unlink()
        if special == "fifo":
            os.mkfifo(path)
        elif special == "folder":
            path.mkdir()
        elif special == "link to /dev/zero":
            path.symlink_to("/dev/zero")
        else:
            (root / "copy").write_bytes(original)
            path.symlink_to(root / "copy")
        raw = None
    else:
        raw = structured(data.draw, original, rel) if kind == "structured" else None
        if raw is None:
            raw = textual(data.draw, original)
        path.write_bytes(raw)
    ok = schema_ok(rel, raw, tid, original)
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        for command in ("status", "replay", "gate"):
            code, text = run(root, capfd, command)
            assert "Traceback" not in text, text
            assert code in (0, 1, 2), (command, code, text)
            if code == 2 and "/local/" not in rel:
                assert rel in text or rel.rsplit("/", 1)[-1] in text, (command, rel, kind, text[-2000:])
            if ok is False and command in must_refuse(rel):
                assert code != 0, f"`harness {command}` accepted {rel} ({kind}), which its schema refuses"
            Tally.outcomes[f"{command}:{code}"] = Tally.outcomes.get(f"{command}:{code}", 0) + 1
        staged = git(root, "add", "-A", ".harness").returncode == 0
        if staged and "/local/" not in rel:
            code, text = run(root, capfd, "hook", "validate")
            assert "Traceback" not in text and code in (0, 1, 2), text
            # git commits a symlink as a link, and a FIFO or a folder as the file's deletion:
            # the hook judges what git would commit.
            if (ok is False and special is None) or (special or "").startswith("link"):
                assert code != 0, f"the commit hook accepted {rel} ({kind} {special or ''}), which its schema refuses"
                assert rel.rsplit("/", 1)[-1] in text or rel.rsplit("/", 2)[-2] in text, text[-2000:]
            Tally.outcomes[f"hook:{code}"] = Tally.outcomes.get(f"hook:{code}", 0) + 1
    finally:
        restore(root, files)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base_rss
    assert grown < MEMORY_GROWTH_KB, f"peak memory grew by {grown // 1024} MB on {rel} ({kind})"
    Tally.examples += 1


def test_fuzz_tally(capsys):
    """Not a check: prints how many mutations ran and how the commands answered (-s to see)."""
    with capsys.disabled():
        print(f"\nfuzz: {Tally.examples} mutations; answers {sorted(Tally.outcomes.items())}")


# -- JUnit reports, parsed directly ---------------------------------------------------------

JUNIT = (b'<?xml version="1.0"?>\n<testsuites><testsuite name="s" tests="2">'
         b'<testcase name="a"/><testcase name="b"><failure message="x"/></testcase></testsuite></testsuites>\n')


@given(data=st.data())
def test_no_mutation_of_a_junit_report_crashes_or_hangs(tmp_path_factory, data):
    from harness.evidence.junit import parse_junit

    path = tmp_path_factory.mktemp("junit") / "report.xml"
    special = data.draw(st.sampled_from([None, None, None, *SPECIAL]))
    if special is None:
        path.write_bytes(textual(data.draw, JUNIT))
    elif special == "fifo":
        os.mkfifo(path)
    elif special == "folder":
        path.mkdir()
    elif special == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        (path.parent / "copy.xml").write_bytes(JUNIT)
        path.symlink_to(path.parent / "copy.xml")
    with timer(CALL_SECONDS):
        try:
            counts = parse_junit(path)
        except HarnessError as exc:
            assert str(path) in exc.message
        else:
            assert counts["tests"] == counts["passed"] + counts["failed"] + counts["skipped"] + counts["errors"]
