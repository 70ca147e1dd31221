"""The agent hooks read their JSON input without importing json (harness.agent.payload_json):
every text gives what json.loads gives, the same value or the same error, by example and by
fuzzing (whitespace around the value, a byte order mark, constants, deep nesting, trailing data)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.agent import payload_json

TEXTS = ['{"a": 1}', ' \t\n\r{"a": [1, 2.5, -3e4, true, false, null, "x\\u00e9\\n"]} \n', '[]', '"s"', "1", "-0",
         "1e400", '{"a": NaN}', '{"b": Infinity, "c": -Infinity}', '{"a": 1, "a": 2}', "", "   ", "\ufeff{}",
         "{", '{"a": 1} x', '{"a": 1}{}', "{'a': 1}", '{"a": 1,}', '"\\ud800"', '"a\tb"', "nul", "[1, 2",
         "[" * 5000 + "]" * 5000, '{"a": 1}\u00a0', "\u00a0{}", '{"a":"\x00"}', "01", "1.", ".5", "- 1"]


def outcome(read, text: str) -> tuple:
    try:
        value = read(text)
    except RecursionError:
        return ("RecursionError",)
    except Exception as exc:
        return (type(exc).__name__, str(exc))
    return ("value", json.dumps(value, allow_nan=True, sort_keys=True), _nan_free(value))


def _nan_free(value: object) -> bool:
    return not (isinstance(value, float) and math.isnan(value))


@pytest.mark.parametrize("text", TEXTS)
def test_a_text_reads_as_json_loads_reads_it(text):
    assert outcome(payload_json.loads, text) == outcome(json.loads, text)


def test_the_value_is_json_s_to_the_types():
    value = payload_json.loads('{"n": 1, "f": 1.0, "big": 123456789012345678901234567890, "l": [true]}')
    assert value == json.loads('{"n": 1, "f": 1.0, "big": 123456789012345678901234567890, "l": [true]}')
    assert [type(v) for v in value.values()] == [int, float, int, list]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                    max_leaves=12)


@given(JSON, st.sampled_from(["", " ", "\n\t", "\r\n  "]), st.sampled_from(["", " ", "\n", " x", "}", "\ufeff"]))
def test_fuzzed_texts_read_as_json_loads_reads_them(value, before, after):
    text = before + json.dumps(value) + after
    assert outcome(payload_json.loads, text) == outcome(json.loads, text)


@given(st.text(alphabet='{}[]",:0123456789.eE+-tfnrulasNIy \t\n\\', max_size=30))
def test_fuzzed_fragments_read_as_json_loads_reads_them(text):
    assert outcome(payload_json.loads, text) == outcome(json.loads, text)
