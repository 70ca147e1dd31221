"""The harness's own YAML is read without PyYAML (harness.store.plain_yaml), and whenever that
reader answers, its answer is PyYAML's (yamlio's loader: duplicate keys refused), type for type;
whatever it is unsure of — or PyYAML refuses — it leaves to PyYAML. By example, on the files the
harness writes, on documents yamlio.dump renders, and on fuzzed texts of plain and tricky lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.errors import HarnessError
from harness.store import plain_yaml, yamlio

REFUSED = object()


def pyyaml(raw: bytes | str) -> object:
    """PyYAML's reading as yamlio makes it (or REFUSED)."""
    try:
        return yamlio._parse(raw, "settings.yaml")
    except HarnessError:
        return REFUSED


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (True is no 1, 1 no "1")."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(k, k2) and same(a[k], b[k2]) for k, k2 in zip(a, b))  # type: ignore[call-overload]
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    return a == b


def check(raw: bytes | str) -> object:
    plain = plain_yaml.load(raw)
    if plain is not plain_yaml.NOT_PLAIN:
        want = pyyaml(raw)
        assert want is not REFUSED, f"PyYAML refuses what was read without it: {raw!r}"
        assert same(plain, want), (raw, plain, want)
    return plain


EXAMPLES = [
    "a: 1\n", "a: 010\n", "a: 0\n", "a: -0\n", "a: -12\n", "a: +1\n", "a: 1_000\n", "a: 0x1f\n", "a: 0b1\n",
    "a: 0o7\n", "a: 1e5\n", "a: 1.5\n", "a: .5\n", "a: .inf\n", "a: .NaN\n", "a: 12:30\n", "a: 190:20:30\n",
    "a: 2026-12-04\n", "a: 2026-12-04T03:51:07Z\n", "a: 136479f97839af1c328a08c131f3541510fd5cbd\n",
    "a: 1234567890123456789012345678901234567890\n", "a: abc123\n", "a: 12abc\n", "a: yes\n", "a: No\n",
    "a: on\n", "a: OFF\n", "a: y\n", "a: n\n", "a: null\n", "a: Null\n", "a: nULL\n", "a: ~\n", "a:\n",
    "a: ''\n", "a: 'it''s'\n", "a: 'x' # c\n", "a: 'x'# c\n", "a: 'x'y\n", "a: 'unclosed\n", "a: \"q\"\n",
    "a: {}\n", "a: []\n", "a: {b: 1}\n", "a: [1]\n", "a: {} # c\n", "a: &x 1\nb: *x\n", "a: !!str 1\n",
    "a: |\n  x\n", "a: >\n  x\n", "a: b # c\n", "a: b#c\n", "a: b: c\n", "a: b:\n", "a:b\n", "a: x\na: y\n",
    "on: 1\n", "yes: 1\n", "null: 1\n", "1: x\n", "-1: x\n", ".a: 1\n", "_: 1\n", "a b: 1\n", "'a': 1\n",
    "a: x\n  y\n", "a: x\n\n  y\n", "a: x\n# c\n  y\n", "a: 'x\n  y'\n", "a: 'x\n\n  y'\n", "a: 'x\n  # y'\n",
    "a: x\n  - y\n", "a: x\n  b: 1\n", "a:\n- 1\n- 2\nb: 3\n", "a:\n  - 1\n  - 2\n", "a:\n- b: 1\n  c: 2\n- d\n",
    "a:\n- b: 1\n   c: 2\n", "- 1\n- 2\n", "- - 1\n", "-\n  a: 1\n", "- # c\n", "a:\n  b:\n    c: 1\n  d: 2\n",
    "a:\n  b: 1\n c: 2\n", "  a: 1\n", "a: 1\n  b: 2\n", "---\na: 1\n", "a: 1\n...\n", "%YAML 1.1\n---\na: 1\n",
    "a:\tb\n", "\ta: 1\n", "a: b\r\n", "a: caf\u00e9\n", "a: \u00e9t\u00e9\n", "a: x\u2028y\n", "a: x\x85y\n",
    "a: x\x00\n", "# caf\u00e9 \u2028\na: 1\n", "\ufeffa: 1\n", "a: 1\n# only a comment\n", "# only a comment\n",
    "a: b c  d\n", "a: x,y\n", "a: x [y]\n", "a: x {y}\n", "a: x & y\n", "a: x * y\n", "a: ? x\n", "? a\n: 1\n",
    "a: -\n", "a: - x\n", "a: -x\n", "a: <<\n", "<<: {}\n", "a: =\n", "a: x\n  - y: 1\n", "a: 'x''\n  y'\n",
    "a:\n  - 'long\n    folded'\n", "a:\n- x\n  y\n", "a:\n- 'x\n  y'\n", "a: x\n  y: z\n",
    # flow lists and double-quoted strings, as configurations spell commands
    'a: ["true"]\n', 'c: [".venv/bin/python", "-m", "pytest", "-q"]  # c\n', "a: [ ]\n", 'a: ["x",]\n',
    "a: [a, b, yes, 1, -1, x/y, k=v]\n", "a: [\"a#b\", 'it''s']\n", 'a: "x"\n', 'a: "x"# c\n', 'a: "x" # c\n',
    'a: "a\\nb"\n', 'a: "b: c"\n', "a: [a: b]\n", 'a: ["x" "y"]\n', 'a: ["x"]x\n', "a: [[1]]\n", '- ["a"]\n',
    'a: ["x"\n  ,"y"]\n', "a: [x y]\n", "a: [x,,y]\n", "a: [,]\n", 'a: [ "x" , "y" ]\n', 'a: ["x"] #\n',
    'a: ["x", {}]\n', "a: [-q]\n", "a: [1.5, 010, 0x1f, ~, null]\n", 'a: ["unclosed]\n', "a: ['x', 'y\n", 'a: ""\n',
    'a: ["caf\u00e9", "\U0001f600"]\n', 'a: "x\n  y"\n', "a: [x]]\n", "a: [x], [y]\n", 'a: "\'"\n',
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_an_answer_without_pyyaml_is_pyyamls(text):
    check(text)
    check(text.encode("utf-8"))


def test_bytes_that_are_not_utf8_and_a_byte_order_mark_are_pyyamls():
    for raw in (b"a: \xff\n", b"\xff\xfea\x00:\x00 \x001\x00\n\x00", b"\xef\xbb\xbfa: 1\n"):
        assert plain_yaml.load(raw) is plain_yaml.NOT_PLAIN


def test_a_repeated_key_and_an_anchor_are_left_to_pyyaml_which_refuses_them_in_task_files():
    for text in (b"a: 1\na: 2\n", b"a: &x 1\nb: *x\n"):
        assert plain_yaml.load(text) is plain_yaml.NOT_PLAIN
        with pytest.raises(HarnessError):
            yamlio.parse(text, ".harness/tasks/TASK-1/task.yaml")


def test_a_document_nested_past_the_limit_is_refused_either_way():
    deep = "".join(f"{' ' * (2 * n)}k:\n" for n in range(70)) + " " * 140 + "k: 1\n"
    assert plain_yaml.load(deep) is not plain_yaml.NOT_PLAIN
    with pytest.raises(HarnessError, match="nested more than"):
        yamlio.parse(deep.encode(), "settings.yaml")


def test_every_file_the_harness_writes_for_a_task_is_read_without_pyyaml(h, repo, task):
    h.ok("requirement", "add", "The resumed run keeps its place: it's what 'resumable' means, " * 3,
         "--priority", "must")
    h.ok("invariant", "add", "No run is lost # ever", "--category", "correctness", "--severity", "major")
    files = sorted((repo / ".harness").rglob("*.yaml"))
    assert {f.name for f in files} >= {"config.yaml", "gate.yaml", "task.yaml", "requirements.yaml",
                                       "invariants.yaml"}
    for path in files:
        raw = path.read_bytes()
        assert check(raw) is not plain_yaml.NOT_PLAIN, path
        assert same(yamlio.parse(raw, str(path)), pyyaml(raw))


KEYS = st.sampled_from(["a", "id", "state", "F-0001", "tail_bytes", "x.y", "on", "null", "1", "a b", "é"])
SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
           | st.text(max_size=120) | st.sampled_from(["", "yes", "NO", "null", "~", "010", "1e5", "0x1f", "a: b",
                                                      "x # y", "it's", "- x", "2026-12-04", "caf\u00e9", " lead",
                                                      "w " * 70, "'q'", "\"dq\"", "#c", "a\nb"]))
DOCS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, DOCS, min_size=1, max_size=5))
def test_documents_yamlio_renders_read_as_pyyaml_reads_them(doc):
    check(yamlio.dump(doc))


LINES = ["a: 1", "a: x", "b: 'q'", "b: 'q''r'", "c: {}", "c: []", "  d: 2", "  e:", "  - x", "- y", "- f: 1",
         "  g: h", "    i: j", "# comment", "  # comment", "", "   ", "a: x # c", "a: 'x", "  y'", "  more words",
         "a: yes", "on: 1", "a:", "a: 010", "a: -3", "k: v: w", "\tt: 1", "a: &x 1", "b: *x", "a: [1, 2]", "a:b",
         "a: 2026-12-04", "---", "a: 'x' # c", "  - 'p", "    q'", "-", "  -", "a: ~", "a: .5", "a: 12ab",
         'a: ["x", "y"]', 'a: ["x",]', "a: [x, 'y''z']", 'a: "q" # c', 'a: "q\\"', '- ["a", b]', "a: [ ]",
         '  - ["a#b"]  # c', 'a: "x', '  y"']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=10), st.sampled_from(["\n", "\r\n", ""]))
def test_fuzzed_texts_are_read_as_pyyaml_reads_them(lines, end):
    check("\n".join(lines) + end)


FLOW = st.text(alphabet="[]{},\"' #:\\ab1-.~", max_size=24)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["a: ", "- ", "a:\n  - "]), FLOW, st.sampled_from(["", "\nb: 1", "\n  c"]))
def test_fuzzed_flow_lists_and_quoted_strings_are_read_as_pyyaml_reads_them(lead, value, after):
    check(f"{lead}{value}{after}\n")
    check(f"{lead}[{value}]{after}\n")
    check(f'{lead}"{value}"{after}\n')
