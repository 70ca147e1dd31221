"""bashlex's parser tables kept in a per-user cache (harness.agent.bashlex_tables): the parser made
from the cache is the one bashlex builds, and a missing, corrupt, foreign or unwritable cache costs
time, never a different parser. Each import runs in a fresh interpreter, as a hook does."""

from __future__ import annotations

import importlib.util
import json
import marshal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.agent import bashlex_tables

COMMANDS = ["ls -la", "pytest -q tests && echo ok", "git commit -n -m 'x' | tee log", "echo $(git push --no-verify)",
            "for i in 1 2; do rm -rf .harness/$i; done", "FOO=1 bash -c 'git notes add' > out 2>&1",
            "f() { git status; }; (cd sub; make)", "if true; then echo a; else echo b; fi"]

# What the parser is: its tables, whether LRTable was put back, and the trees it gives.
PROBE = """
import json, sys
from pathlib import Path
if sys.argv[1] == "plain":
    import bashlex
else:
    from harness.agent import bashlex_tables
    bashlex = bashlex_tables.load(Path(sys.argv[1]))
p = bashlex.parser.yaccparser
print(json.dumps({"action": sorted((k, sorted(v.items())) for k, v in p.action.items()),
                  "goto": sorted((k, sorted(v.items())) for k, v in p.goto.items()),
                  "productions": [str(q) for q in p.productions],
                  "lrtable": bashlex.yacc.LRTable.__name__,
                  "trees": [t.dump() for c in json.loads(sys.argv[2]) for t in bashlex.parse(c)]}))
"""


def probe(folder: Path | str) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(folder), json.dumps(COMMANDS)],
                          capture_output=True, text=True, check=True, timeout=300)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def plain() -> dict:
    """bashlex as it imports itself: the reference every cached parser must equal."""
    return probe("plain")


def package_dir() -> Path:
    spec = importlib.util.find_spec("bashlex")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def cache_file(folder: Path) -> Path:
    return folder / f"{bashlex_tables.PREFIX}{bashlex_tables.source_key(package_dir())}.marshal"


def test_the_parser_built_from_cached_tables_is_the_one_bashlex_builds(tmp_path, plain):
    first = probe(tmp_path)  # no cache yet: computed, then written
    assert cache_file(tmp_path).is_file()
    second = probe(tmp_path)  # read from the cache
    assert first == plain and second == plain
    assert plain["lrtable"] == "LRTable"  # bashlex's own table class is back after the import


def test_a_sound_cache_is_what_the_parser_is_made_of(tmp_path, plain):
    # A marker state only the cache holds shows the tables came from it, not from the generator.
    productions = plain["productions"]
    action = {k: dict(v) for k, v in plain["action"]}
    goto = {k: dict(v) for k, v in plain["goto"]}
    goto[99999] = {"marker": 1}
    tmp_path.mkdir(exist_ok=True)
    cache_file(tmp_path).write_bytes(marshal.dumps((bashlex_tables.FORMAT, productions, action, goto)))
    assert [99999, [["marker", 1]]] in probe(tmp_path)["goto"]


def _sound(plain: dict) -> tuple:
    return (bashlex_tables.FORMAT, plain["productions"], {k: dict(v) for k, v in plain["action"]},
            {k: dict(v) for k, v in plain["goto"]})


CORRUPT = {
    "garbage": lambda plain: b"\x00not marshal at all\xff" * 10,
    "truncated": lambda plain: marshal.dumps(_sound(plain))[:5000],
    "empty": lambda plain: b"",
    "another format": lambda plain: marshal.dumps((bashlex_tables.FORMAT + 1, *_sound(plain)[1:])),
    "other productions": lambda plain: marshal.dumps((bashlex_tables.FORMAT, ["x -> y"], *_sound(plain)[2:])),
    "wrong shape": lambda plain: marshal.dumps((bashlex_tables.FORMAT, plain["productions"], {"0": "x"}, {})),
    "oversized": lambda plain: marshal.dumps(_sound(plain)) + b"\0" * bashlex_tables.MAX_BYTES,
}


@pytest.mark.parametrize("kind", list(CORRUPT))
def test_a_corrupt_cache_is_ignored_and_rewritten(tmp_path, plain, kind):
    cache_file(tmp_path).write_bytes(CORRUPT[kind](plain))
    assert probe(tmp_path) == plain
    productions = plain["productions"]
    cached = bashlex_tables.read_cache(cache_file(tmp_path))
    assert cached is not None and cached[0][1] == productions  # sound again, for these productions


def test_an_unwritable_cache_folder_still_gives_bashlex_s_parser(tmp_path, plain):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert probe(blocker / "cache") == plain
    assert blocker.read_text() == "not a folder"


def test_the_tables_of_another_bashlex_are_removed_when_new_ones_are_written(tmp_path, plain):
    old = tmp_path / f"{bashlex_tables.PREFIX}0123456789abcdef.marshal"
    old.write_bytes(b"tables of a bashlex no longer installed")
    probe(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [cache_file(tmp_path).name]


def test_a_changed_source_or_version_of_bashlex_names_another_cache_file(tmp_path):
    copy = tmp_path / "site" / "bashlex"
    shutil.copytree(package_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "site" / "bashlex-0.18.dist-info").mkdir()
    key = bashlex_tables.source_key(copy)
    assert bashlex_tables.source_key(copy) == key  # deterministic
    (copy / "parser.py").write_text((copy / "parser.py").read_text() + "\n# changed\n")
    changed = bashlex_tables.source_key(copy)
    assert changed != key
    (tmp_path / "site" / "bashlex-0.18.dist-info").rename(tmp_path / "site" / "bashlex-0.19.dist-info")
    assert bashlex_tables.source_key(copy) not in (key, changed)

