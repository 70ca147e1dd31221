"""A schema problem's words are redacted before anyone prints them (F-0118): they quote the value and name the field,
and a token written where the schema wants something else (a mapping of variables under `recorded_env`, which takes
names; a key named after a token) was printed by the commit refusal, `harness status` and CI's audit, while the
secret check beside them names only file, line and rule."""

from __future__ import annotations

import pytest

from support.cli import validate_staged

TOKEN = "ghp_" + "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"


def test_a_token_where_config_yaml_wants_names_is_refused_without_being_printed(h, repo, task):
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text() + f"recorded_env: {{API_TOKEN: {TOKEN}}}\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "recorded_env" in r.stderr and "is not of type 'array'" in r.stderr, r.stderr
    assert TOKEN not in r.stdout + r.stderr
    status = h("status")
    assert "recorded_env" in status.out + status.err and TOKEN not in status.out + status.err


def test_a_key_named_after_a_token_is_refused_without_being_printed(h, repo, task):
    gate = repo / ".harness/gate.yaml"
    gate.write_text(gate.read_text() + f"{TOKEN}: 1\n")
    r = validate_staged(repo)
    assert r.returncode == 1 and "unknown field(s)" in r.stderr, r.stderr
    assert TOKEN not in r.stdout + r.stderr


def test_a_problem_without_a_secret_keeps_its_words(h, repo, task):
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text() + "recorded_env: {HOME: x}\n")
    r = validate_staged(repo)
    assert "field recorded_env: {'HOME': 'x'} is not of type 'array'" in r.stderr, r.stderr


def test_a_token_at_the_end_of_a_long_value_is_redacted_before_the_value_is_shortened(h, repo, task):
    """Read 57's F-0127: the message shows a long value by its ends; cut first, the token lost the prefix its rule
    knows it by, and its body was printed."""
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text() + f'recorded_env: {{API: "{"a long harmless prefix " * 3}{TOKEN}"}}\n')
    r = validate_staged(repo)
    assert r.returncode == 1 and "recorded_env" in r.stderr, r.stderr
    assert TOKEN[4:] not in r.stdout + r.stderr
    status = h("status")
    assert TOKEN[4:] not in status.out + status.err


@pytest.mark.parametrize("tagged", ["!!binary {b64}", "!!set {{'{text}': null}}", "!!pairs [{{'{text}': 1}}]"],
                         ids=["binary", "set", "pairs"])
def test_a_value_of_a_yaml_only_type_is_redacted_before_it_is_shortened(h, repo, task, tagged):
    """Read 58's F-0131: bytes, sets and pairs are none of JSON's types, and were shortened by their repr unredacted."""
    import base64

    text = f"the staging deploy key for the nightly job is {TOKEN}"
    value = tagged.format(b64=base64.b64encode(text.encode()).decode(), text=text)
    config = repo / ".harness/config.yaml"
    assert "\n  ref: refs/notes/harness\n" in config.read_text()
    config.write_text(config.read_text().replace("\n  ref: refs/notes/harness\n", f"\n  ref: {value}\n", 1))
    r = validate_staged(repo)
    status = h("status")
    assert "notes.ref" in r.stderr, r.stderr  # refused by the schema, in words
    assert TOKEN[4:] not in r.stdout + r.stderr + status.out + status.err, r.stderr


@pytest.mark.parametrize("tagged", ["!!set {{'{text}': null}}", "!!pairs [{{'{text}': 1}}]"], ids=["set", "pairs"])
def test_an_element_of_a_set_or_pairs_is_redacted_as_itself_not_through_its_repr(h, repo, task, tagged):
    """Read 59's F-0135: repr writes a tab as `\\t`, and `--password<TAB>V` was no flag and its value any more."""
    value = "Tr0ub4dor-and-3-horses"
    text = f"--password\\t{value}"
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text().replace("\n  ref: refs/notes/harness\n",
                                                 f'\n  ref: {tagged.format(text=text)}\n'.replace("'", '"'), 1))
    r = validate_staged(repo)
    status = h("status")
    assert "notes.ref" in r.stderr, r.stderr
    assert value not in r.stdout + r.stderr + status.out + status.err, r.stderr


def test_a_binary_key_is_named_by_its_redacted_text_not_its_repr(h, repo, task):
    """Read 60's F-0141: a `!!binary` key's repr wrote its tab as `\\t`, and `--password<TAB>V` was printed."""
    import base64

    value = "Tr0ub4dor-and-3-horses"
    key = base64.b64encode(f"--password\t{value}".encode()).decode()
    config = repo / ".harness/config.yaml"
    config.write_text(config.read_text() + f"? !!binary {key}\n: 5\n")
    r = validate_staged(repo)
    status = h("status")
    assert "unknown field(s)" in r.stderr, r.stderr
    assert value not in r.stdout + r.stderr + status.out + status.err, r.stderr
