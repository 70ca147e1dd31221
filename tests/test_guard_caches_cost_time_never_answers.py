"""The agent guard's cache beside its bytecode (bashlex's parser with its productions) makes the very parser
an import without it makes; a missing, corrupt or foreign cache costs time, never a different parser or
answer. Each import runs in a fresh interpreter, as a hook does."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.agent import bashlex_tables

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
