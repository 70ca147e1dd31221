"""harness.store.schema_check finds what jsonschema finds, with jsonschema's messages, on the
harness's own schemas and on any schema built from the keywords it supports; it refuses a schema
that uses anything else; and a command that writes documents no longer imports jsonschema. The
compiled predicate (harness.store.schema_valid) calls valid exactly the documents jsonschema finds
nothing wrong with, on every one of those documents."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from harness import resources
from harness.store import schema_check, validate
from harness.store.schema_check import Unsupported, Validator
from harness.store.schema_valid import Compiled

from support.cli import walk_to
from support.flows import FINDING_PROPOSAL
from support.paths import PY
from support.templates import Template, template

SCHEMAS = sorted(p.name.removesuffix(".schema.json") for p in (Path(resources.__file__).parent / "schemas").iterdir())


def theirs(schema: dict, doc: object, validator: jsonschema.Draft202012Validator | None = None) -> list[tuple]:
    return sorted((tuple(map(str, e.absolute_path)), e.validator, e.message)
                  for e in (validator or jsonschema.Draft202012Validator(schema)).iter_errors(doc))


def ours(schema: dict, doc: object, validator: Validator | None = None) -> list[tuple]:
    """The checker's problems, after asserting that the compiled predicate says valid exactly when there are none."""
    checker = validator or Validator(schema)
    found = sorted((tuple(map(str, p.path)), p.keyword, p.message) for p in checker.problems(doc))
    assert _compiled(checker).valid(doc) == (not found), (schema, doc, found)
    return found


_COMPILED: dict[int, tuple[Validator, Compiled]] = {}


def _compiled(checker: Validator) -> Compiled:
    """The predicate of ``checker``'s schema, compiled once per validator (the mutation tests ask thousands of times)."""
    kept = _COMPILED.get(id(checker))
    if kept is None or kept[0] is not checker:
        kept = _COMPILED[id(checker)] = (checker, Compiled(checker))
    return kept[1]


def test_every_schema_of_the_harness_is_a_valid_schema_this_module_checks_in_full():
    for name in SCHEMAS:
        schema = resources.schema(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        Validator(schema)  # raises Unsupported on a keyword it would skip
    assert len(SCHEMAS) == 10


# -- the real schemas on real documents, and on every way of breaking them ---------------------

# Values put in place of each node of a real document: every type and the edges the keywords
# test (empty, negative, zero, fractional, integral float, bool-as-number, duplicates), then every
# value an enum of the schemas allows under that node's name, so "if"/"then" branches on a status
# or a kind are taken.
GENERIC = [None, True, False, 0, -1, 1, 2.5, 3.0, "", "x", "NOT A WORD!", "REQ-001", [], ["a", "a"], [1, True],
           {}, {"unknown": 1}]


def _enums_by_name() -> dict[str, list]:
    found: dict[str, list] = {}

    def walk(node: object, name: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "enum":
                    found.setdefault(name, []).extend(v for v in value if v not in found.get(name, []))
                elif key in ("properties", "$defs"):
                    for sub, schema in value.items():
                        walk(schema, sub)
                else:
                    walk(value, name)
        elif isinstance(node, list):
            for item in node:
                walk(item, name)

    for schema_name in SCHEMAS:
        walk(resources.schema(schema_name), "")
    return found


ENUMS = _enums_by_name()


def _paths(doc: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        out += _paths(value, (*prefix, key))
    return out


def _at(doc: object, path: tuple) -> object:
    for key in path:
        doc = doc[key]  # type: ignore[index]
    return doc


def mutations(doc: object) -> list:
    """``doc`` with each node replaced by each value fit to break it, each key removed, and an
    unknown key added to each object."""
    out = []
    for path in _paths(doc):
        if not path:
            out += GENERIC
            continue
        name = path[-1] if isinstance(path[-1], str) else ""
        for value in GENERIC + ENUMS.get(name, []):
            changed = copy.deepcopy(doc)
            _at(changed, path[:-1])[path[-1]] = copy.deepcopy(value)
            out.append(changed)
        if isinstance(_at(doc, path[:-1]), dict):
            removed = copy.deepcopy(doc)
            del _at(removed, path[:-1])[path[-1]]
            out.append(removed)
    return out


@pytest.fixture(scope="session")
def corpus_template(tmp_path_factory, h_template) -> Template:
    """A task walked through a contract, an invariant, evidence, a verified requirement and a gate."""

    def build(repo: Path, h) -> dict:
        h.ok("task", "new", "Corpus")
        contract = repo.parent / "contract.yaml"
        contract.write_bytes(resources.template("contract.example.yaml"))
        h.ok("contract", "apply", "--file", str(contract))
        h.ok("invariant", "add", "No lost writes", "--category", "recovery", "--severity", "major")
        h.ok("evidence", "unit_test", "--", PY, "-c", "print('ok')")
        h.ok("requirement", "set", "REQ-001", "--status", "verified", "--evidence", "unit_test")
        walk_to(h, "IMPLEMENTING", "VERIFYING")
        (repo.parent / "proposal.yaml").write_text(yaml.safe_dump(FINDING_PROPOSAL))
        h.ok("finding", "propose", "--file", str(repo.parent / "proposal.yaml"))
        h("gate", "--json")
        return {}

    return template(tmp_path_factory, "schema-corpus", build, on=h_template)


@pytest.fixture(scope="session")
def corpus(corpus_template) -> dict[str, list]:
    """{schema name: the documents of that kind the CLI wrote in ``corpus_template``}."""
    from harness.store.reader import schema_of

    root = corpus_template.root / "repo" / ".harness"
    docs: dict[str, list] = {name: [] for name in SCHEMAS}
    docs["contract"].append(yaml.safe_load(resources.template("contract.example.yaml")))
    docs["finding-proposal"].append(FINDING_PROPOSAL)
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.startswith("local/"):
            continue
        if path.name == "events.jsonl":
            docs["event"] += [json.loads(line) for line in path.read_text().splitlines()]
        elif rel in ("config.yaml", "gate.yaml"):
            docs[rel.removesuffix(".yaml")].append(yaml.safe_load(path.read_text()))
        elif path.parent.name == "evidence" and path.suffix == ".json":
            docs["evidence"].append(json.loads(path.read_text()))
        elif rel.startswith("tasks/") and path.suffix == ".yaml":
            docs[schema_of(rel.split("/", 2)[2])].append(yaml.safe_load(path.read_text()))
    return docs


@pytest.mark.parametrize("name", SCHEMAS)
def test_on_every_mutation_of_a_real_document_both_find_the_same_problems(corpus, name):
    schema = resources.schema(name)
    mine, reference = Validator(schema), jsonschema.Draft202012Validator(schema)
    docs = corpus[name]
    checked = failing = 0
    # One document of each shape: events of one type share theirs.
    shapes = {doc.get("type") if name == "event" else n: doc for n, doc in enumerate(docs)}
    for doc in shapes.values():
        assert ours(schema, doc, mine) == theirs(schema, doc, reference) == [], doc
        for broken in mutations(doc):
            expected = theirs(schema, broken, reference)
            assert ours(schema, broken, mine) == expected, broken
            checked += 1
            failing += bool(expected)
    # Not vacuous: many mutations refused, and some accepted (free text takes any string).
    assert failing > 100 and checked - failing > 10, (checked, failing)


def test_the_corpus_holds_a_document_of_each_kind_the_cli_writes(corpus):
    assert [name for name, docs in corpus.items() if not docs] == []


# -- any schema built from the supported keywords --------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, 2.5, -1.5])
                    | st.sampled_from(["", "a", "ab", "A1", "a", "é"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abc"), inner, max_size=3),
                    max_leaves=8)
TYPES = st.sampled_from(["object", "array", "string", "null", "boolean", "integer", "number"])


def _schemas(inner):
    return st.one_of(
        st.fixed_dictionaries({"type": TYPES | st.lists(TYPES, min_size=1, max_size=3, unique=True)}),
        st.fixed_dictionaries({"properties": st.dictionaries(st.sampled_from("abc"), inner, max_size=2)},
                              optional={"additionalProperties": st.booleans() | inner,
                                        "required": st.lists(st.sampled_from("abcd"), max_size=2, unique=True)}),
        st.fixed_dictionaries({"items": inner}, optional={"minItems": st.integers(0, 2),
                                                          "uniqueItems": st.booleans()}),
        st.fixed_dictionaries({"propertyNames": inner}),
        st.fixed_dictionaries({"enum": st.lists(JSON, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"const": JSON}),
        st.fixed_dictionaries({"pattern": st.sampled_from(["^a", "b$", "[0-9]", "^$"])},
                              optional={"minLength": st.integers(0, 2)}),
        st.fixed_dictionaries({"minimum": st.integers(-1, 1)},
                              optional={"maximum": st.integers(1, 3), "exclusiveMinimum": st.sampled_from([0, 0.5])}),
        st.fixed_dictionaries({"if": inner, "then": inner}),
        st.fixed_dictionaries({"oneOf": st.lists(inner, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"allOf": st.lists(inner, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"not": inner}),
    )


SCHEMA = st.recursive(_schemas(st.just({})), _schemas, max_leaves=6)


@given(schema=SCHEMA, doc=JSON)
def test_on_any_schema_of_the_supported_keywords_both_find_the_same_problems(schema, doc):
    assert ours(schema, doc) == theirs(schema, doc)


@given(doc=JSON)
def test_a_local_reference_is_followed_as_jsonschema_follows_it(doc):
    schema = {"$defs": {"a/b": {"type": "object", "required": ["a"]}, "s": {"minLength": 2}},
              "properties": {"a": {"$ref": "#/$defs/s"}}, "$ref": "#/$defs/a~1b"}
    assert ours(schema, doc) == theirs(schema, doc)


@given(doc=JSON)
def test_a_recursive_reference_is_followed_as_jsonschema_follows_it(doc):
    schema = {"$defs": {"node": {"type": ["object", "array", "integer"], "items": {"$ref": "#/$defs/node"},
                                 "properties": {"a": {"$ref": "#/$defs/node"}}, "minItems": 1}},
              "$ref": "#/$defs/node"}
    assert ours(schema, doc) == theirs(schema, doc)
    nested = {"a": {"a": [[1], {"a": 2}]}}
    assert ours(schema, nested) == theirs(schema, nested) == []
    assert ours(schema, {"a": {"a": [[]]}}) == theirs(schema, {"a": {"a": [[]]}}) != []


def test_the_compiled_predicate_covers_every_keyword_the_checker_checks():
    from harness.store import schema_valid

    assert set(schema_valid._MAKERS) == set(schema_check.KEYWORDS)


def test_json_equality_keeps_booleans_apart_from_numbers():
    assert schema_check.equal(1, 1.0) and schema_check.equal([1, {"a": 2}], [1.0, {"a": 2.0}])
    assert not schema_check.equal(True, 1) and not schema_check.equal([False], [0])
    for doc in ([1, True], [0, False], [1, 1.0], [{"a": 1}, {"a": True}], [[1], [1.0]]):
        assert ours({"uniqueItems": True}, doc) == theirs({"uniqueItems": True}, doc), doc


# -- what it refuses to check ----------------------------------------------------------------

@pytest.mark.parametrize("schema", [
    {"format": "date-time"}, {"type": "string", "maxLength": 3}, {"if": {}, "then": {}, "else": {}},
    {"patternProperties": {"^x": {}}}, {"$ref": "https://example.com/other.json"}, {"$ref": "#/$defs/missing"},
    {"properties": {"a": {"anyOf": [{}]}}}, {"items": {"prefixItems": []}}, {"type": "strange"},
])
def test_a_schema_using_anything_else_is_refused_when_loaded_not_checked_in_part(schema):
    with pytest.raises(Unsupported):
        Validator(schema).problems(1).__next__()


# -- what the user sees ----------------------------------------------------------------------

def test_a_command_that_writes_documents_does_not_import_jsonschema(h, repo, task):
    code = ("import sys\nfrom harness.cli.main import main\n"
            "code = main(['requirement', 'add', 'Checked without jsonschema', '--priority', 'must'])\n"
            "print('jsonschema' in sys.modules, code)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split()[-2:] == ["False", "0"], proc.stdout + proc.stderr
    assert validate.validator("requirement") is validate.validator("requirement")  # built once per process


EVENT_SCHEMA = json.loads((Path(resources.__file__).parent / "schemas" / "event.schema.json").read_text())


@pytest.mark.parametrize("event_type", [None, "task.created", "no.such.type", 1, True, ["task.created"], {"x": 1}])
def test_an_event_s_type_branches_are_judged_as_jsonschema_judges_them(event_type):
    """The event schema's `if type == T then …` branches are answered by a lookup for a string type (#28 item
    4): a missing type, another type and a type that is no string are judged as jsonschema judges them."""
    event = {"seq": 1, "ts": "2026-01-01T00:00:00Z", "prev": "0" * 64, "data": {"title": 3}}
    if event_type is not None:
        event["type"] = event_type
    assert ours(EVENT_SCHEMA, event) == theirs(EVENT_SCHEMA, event)


# -- read 50: nesting the predicate cannot follow ---------------------------------------------

NESTED_ARRAYS = {"$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}


def _nested(depth: int, inner: object, wrap) -> object:
    for _ in range(depth):
        inner = wrap(inner)
    return inner


def test_a_document_nested_past_the_predicate_s_depth_is_judged_as_the_walk_judges_it():
    """F-0090: the predicate spends more stack per level than the walk: where the walk answers, valid() answers the same."""
    checker = Validator(NESTED_ARRAYS)
    compared = 0
    for depth in range(150, 320, 10):
        doc = _nested(depth, [], lambda inner: [inner])
        try:
            walk = not any(checker.problems(doc))
        except RecursionError:
            continue  # the walk cannot answer either: nothing to compare
        assert Compiled(checker).valid(doc) is walk, depth
        compared += 1
    assert compared >= 3


def test_a_build_that_failed_leaves_no_broken_predicate_behind():
    """F-0091: a branch whose build ran out of stack is built again by the next document that needs it."""
    deep: dict = {"type": "string"}
    for i in range(12):
        deep = {"properties": {f"p{i}": deep}, "required": []}
    schema = {"$defs": {"n": {"allOf": [
        {"if": {"properties": {"k": {"const": "a"}}, "required": ["k"]}, "then": deep},
        {"if": {"properties": {"k": {"const": "b"}}, "required": ["k"]}, "then": {"properties": {"c": {"$ref": "#/$defs/n"}}}},
    ]}}, "$ref": "#/$defs/n"}
    checker = Validator(schema)
    for depth in range(100, 700, 7):
        compiled = Compiled(checker)
        try:
            compiled.valid(_nested(depth, {"k": "a"}, lambda inner: {"k": "b", "c": inner}))
        except RecursionError:
            pass  # as deep as the walk cannot follow either: what counts is the next answer
        assert compiled.valid({"k": "a"}) is True, depth
        assert compiled.valid({"k": "a", "p11": 1}) is (not any(checker.problems({"k": "a", "p11": 1}))), depth
