"""Reading YAML refuses duplicate keys, anchors in task files, alias bombs and deep nesting, each in a short message naming file and line; the harness never writes an anchor."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.errors import HarnessError

from support.records import tdir


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1))


def no_traceback(r) -> None:
    assert "Traceback" not in r.text, r.text


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
