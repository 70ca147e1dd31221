"""The agent guard's caches beside its bytecode (bashlex's parser with its productions, the rules' dataclass
functions) make the very objects an import without them makes; a missing, corrupt or foreign cache costs
time, never a different parser, class or answer. Each import runs in a fresh interpreter, as a hook does."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.agent import bashlex_tables, dataclass_code

COMMANDS = ["ls -la", "git commit -n -m 'x' | tee log", "for i in 1 2; do rm -rf .harness/$i; done",
            "FOO=1 bash -c 'git notes add' > out 2>&1", "f() { git status; }; (cd sub; make)"]

# The parser's productions as bashlex made them, whether yacc() ran, and the trees it gives.
PROBE = """
import json, sys
from pathlib import Path
ran = []
if sys.argv[1] == "plain":
    import bashlex
else:
    from harness.agent import bashlex_tables
    bashlex = bashlex_tables.load(Path(sys.argv[1]))
p = bashlex.parser.yaccparser
print(json.dumps({"productions": [(q.name, q.prod, q.number, q.func, q.callable.__name__ if q.callable else None,
                                   q.file, q.line, q.prec, q.len, q.usyms, q.str) for q in p.productions],
                  "action": sorted((k, sorted(v.items())) for k, v in p.action.items()),
                  "defaulted": sorted(p.defaulted_states.items()), "errorfunc": p.errorfunc.__name__,
                  "yacc": bashlex.yacc.yacc.__name__, "parse": bashlex.yacc.parse == p.parse,
                  "trees": [t.dump() for c in json.loads(sys.argv[2]) for t in bashlex.parse(c)]}))
"""


def probe(folder: Path | str) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(folder), json.dumps(COMMANDS)],
                          capture_output=True, text=True, check=True, timeout=300)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def plain() -> dict:
    return probe("plain")


def tables_file(folder: Path) -> Path:
    [path] = folder.glob(f"{bashlex_tables.PREFIX}*.marshal")
    return path


def test_the_parser_made_from_the_cached_productions_is_bashlex_s(tmp_path, plain):
    assert probe(tmp_path) == plain  # computed, then written with the productions
    stored, details = bashlex_tables.read_cache(tables_file(tmp_path))
    assert details is not None and len(details) == len(stored[1])
    assert probe(tmp_path) == plain  # made from the cache, yacc() not run


def test_cached_productions_that_do_not_match_are_ignored_and_rewritten(tmp_path, plain):
    probe(tmp_path)
    path = tables_file(tmp_path)
    stored, details = bashlex_tables.read_cache(path)
    wrong = [details[0], *[(name, prod, prec, "p_no_such_function", file, line)
                           for name, prod, prec, _, file, line in details[1:]]]
    bashlex_tables.write_tables(path, stored[1], stored[2], stored[3], wrong)
    assert probe(tmp_path) == plain
    assert bashlex_tables.read_cache(path)[1] == details  # the sound productions are back


@pytest.mark.parametrize("damage", ["flip a byte", "cut the trailer", "details of another format"])
def test_damaged_production_details_cost_time_never_a_parser(tmp_path, plain, damage):
    probe(tmp_path)
    path = tables_file(tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip a byte":
        data[-40] ^= 0xFF
    elif damage == "cut the trailer":
        data = data[:-5]
    else:
        stored, details = bashlex_tables.read_cache(path)
        more = marshal.dumps((bashlex_tables.FORMAT + 1, details))
        data = bytearray(marshal.dumps(stored)) + more
        from zlib import crc32
        data += crc32(bytes(data)).to_bytes(4, "big") + len(more).to_bytes(bashlex_tables.TRAILER, "big")
    path.write_bytes(bytes(data))
    assert probe(tmp_path) == plain


def test_a_rewritten_bashlex_source_names_another_cache_file_even_with_the_same_bytes(tmp_path):
    import shutil

    copy = tmp_path / "site" / "bashlex"
    import importlib.util

    spec = importlib.util.find_spec("bashlex")
    assert spec is not None and spec.submodule_search_locations
    shutil.copytree(next(iter(spec.submodule_search_locations)), copy, ignore=shutil.ignore_patterns("__pycache__"))
    key = bashlex_tables.source_key(copy)
    text = (copy / "parser.py").read_bytes()
    os.unlink(copy / "parser.py")
    (copy / "parser.py").write_bytes(text)  # the same bytes, a new file: a reinstall
    assert bashlex_tables.source_key(copy) != key


# -- the rules' dataclass functions -----------------------------------------------------------

CLASSES = """
import json, sys
from harness.agent import dataclass_code
compiled = dataclass_code.install(sys.argv[1]) if sys.argv[1] != "plain" else None
try:
    from harness.agent.judge.bypass import Context
    from harness.agent.judge.denials import Denial
    from harness.agent.judge.git_config_view import GitSetup, RunConfig
    from harness.agent.judge.guarded_paths import Where
    from harness.agent.judge.shell_commands import SimpleCommand
    from harness.agent.judge.shell_prefixes import Prefix
finally:
    if compiled is not None:
        dataclass_code.finish(compiled)
import dataclasses
out = {}
for cls in (Context, Denial, GitSetup, RunConfig, Where, SimpleCommand, Prefix):
    out[cls.__name__] = {name: [f.__code__.co_code.hex(), [c.co_code.hex() if hasattr(c, "co_code") else repr(c)
                                                           for c in f.__code__.co_consts], f.__code__.co_names,
                                f.__code__.co_filename, f.__qualname__, f.__defaults__.__repr__()]
                         for name, f in vars(cls).items() if callable(f) and hasattr(f, "__code__")}
w = Where("/r", "/r/a")
out["behaviour"] = [repr(w), w == Where("/r", "/r/a"), hash(w) == hash(Where("/r", "/r/a")),
                    repr(dataclasses.replace(w, cwd="/r")), repr(Denial("a", "b", "c"))]
try:
    w.root = "x"
except dataclasses.FrozenInstanceError:
    out["frozen"] = True
out["exec left as it was"] = not hasattr(dataclasses, "exec")
print(json.dumps(out))
"""


def classes(folder: Path | str) -> dict:
    proc = subprocess.run([sys.executable, "-c", CLASSES, str(folder)], capture_output=True, text=True,
                          check=True, timeout=300)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def plain_classes() -> dict:
    return classes("plain")


def test_the_rules_classes_made_with_cached_code_are_the_ones_dataclasses_makes(tmp_path, plain_classes):
    assert classes(tmp_path) == plain_classes  # compiled, then written
    path = Path(dataclass_code.cache_file(str(tmp_path)))
    assert len(dataclass_code.read(str(path))) >= 7
    assert classes(tmp_path) == plain_classes  # from the cache


@pytest.mark.parametrize("damage", ["garbage", "flip a byte", "empty", "oversized", "not code"])
def test_a_damaged_dataclass_cache_costs_time_never_a_class(tmp_path, plain_classes, damage):
    classes(tmp_path)
    path = Path(dataclass_code.cache_file(str(tmp_path)))
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        data = bytearray(b"\x00not marshal\xff" * 9)
    elif damage == "flip a byte":
        data[len(data) // 2] ^= 0xFF
    elif damage == "empty":
        data = bytearray()
    elif damage == "oversized":
        data += b"\0" * dataclass_code.MAX_BYTES
    else:
        from zlib import crc32
        body = marshal.dumps({text: "not code" for text in dataclass_code.read(str(path))})
        data = bytearray(body + crc32(body).to_bytes(4, "big"))
    path.write_bytes(bytes(data))
    assert dataclass_code.read(str(path)) == {}
    assert classes(tmp_path) == plain_classes
    assert len(dataclass_code.read(str(path))) >= 7  # rewritten whole


def test_a_text_is_never_given_another_text_s_code(tmp_path, plain_classes):
    """A cache whose every entry holds the code of another text: only a text's own entry is ever used,
    so each class is made from code compiled from its own text — here, compiled again."""
    classes(tmp_path)
    path = str(dataclass_code.cache_file(str(tmp_path)))
    stored = dataclass_code.read(path)
    texts = sorted(stored)
    dataclass_code.write(path, {f"# another\n{text}": stored[text] for text in texts})
    assert classes(tmp_path) == plain_classes


def test_an_unwritable_cache_folder_still_gives_the_classes(tmp_path, plain_classes):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert classes(blocker / "cache") == plain_classes
    assert blocker.read_text() == "not a folder"


def test_the_cache_keeps_a_bounded_number_of_texts(tmp_path):
    path = dataclass_code.cache_file(str(tmp_path))
    compiled = dataclass_code.CompiledOnce(path)
    compiled.stored = {f"x = {i}\n": compile(f"x = {i}\n", "<string>", "exec")
                       for i in range(dataclass_code.MAX_ENTRIES)}
    compiled.exec("y = 1\n", {}, {})
    dataclass_code.finish(compiled)
    assert list(dataclass_code.read(path)) == ["y = 1\n"]  # past the bound: only what this run used
