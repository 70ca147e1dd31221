"""The plain YAML reader never answers where PyYAML would refuse: a text PyYAML refuses is refused, and one
nested too deep is the nesting refusal, whichever reader meets it first."""

from __future__ import annotations

import pytest
import yaml

from harness.errors import HarnessError
from harness.store import plain_yaml, yamlio

REFUSED_BY_PYYAML = [
    "state: 'VERIFYING' # x\n  state: DONE\n",   # a quoted value, a comment, then a deeper line
    "a: 'b'\n  # c\n  x\nc: d\n",
    "a: 'foo\n  bar' # c\n  baz: 1\n",
    "- 'a' # x\n  - b\n",
]


@pytest.mark.parametrize("text", REFUSED_BY_PYYAML)
def test_a_text_pyyaml_refuses_is_refused(text):
    with pytest.raises(yaml.YAMLError):
        yaml.load(text, Loader=yamlio._loaders()[1])
    with pytest.raises(HarnessError):
        yamlio.parse(text.encode(), ".harness/tasks/T-0001/task.yaml")


@pytest.mark.parametrize("text", REFUSED_BY_PYYAML)
def test_the_plain_reader_hands_such_a_text_to_pyyaml(text):
    assert plain_yaml.load(text) is plain_yaml.NOT_PLAIN


@pytest.mark.parametrize("text", ["a: 'b' # x\nc: d\n", "- 'a' # x\n- b\n", "a: 'b'\n# c\nc: d\n"])
def test_a_comment_after_a_quoted_value_is_still_read_as_pyyaml_reads_it(text):
    assert yamlio.parse(text.encode(), "x.yaml") == yaml.load(text, Loader=yamlio._loaders()[1])


def test_nesting_past_the_recursion_limit_is_the_nesting_refusal():
    text = "notes:\n" + "".join(" " * (i + 2) + "a:\n" for i in range(600))
    with pytest.raises(HarnessError, match="nested more than"):
        yamlio.parse(text.encode(), ".harness/config.yaml")
