"""One context per command (`harness.context`): the package keeps no state between calls anywhere else, and a
process that runs many commands (as this suite does, in-process) carries nothing of one into the next."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import context
from harness.cli.main import main
from harness.signatures import trust

from support.module_state import module_state as _module_state

PACKAGE = Path(__file__).resolve().parent.parent / "harness"
def test_no_module_keeps_state_between_calls_but_the_context():
    state = {p.relative_to(PACKAGE.parent).as_posix(): s for p in sorted(PACKAGE.rglob("*.py"))
             if p.name != "context.py" and (s := _module_state(p))}
    assert not state, state


def test_the_scan_sees_the_module_state_it_forbids(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("_cache = {}\nseen: set[str] = set()\nTABLE = {'a': 1}\nn = 0\ndef f():\n    global n\n"
                      "LATER = []\nKEYED = {}\nLATER.append(0)\ndef g():\n    LATER.append(1)\n    KEYED['k'] = 2\n    TABLE.get('a')\n")
    assert sorted(_module_state(sample)) == sorted(["_cache (line 1)", "seen (line 2)", "global n (line 6)", "LATER changed (line 11)",
                                     "KEYED changed (line 12)"])


CHANGED_TABLES = {
    "TABLE[k] += 1": "TABLE = {}\ndef f(k):\n    TABLE[k] += 1\n",
    "TABLE[k].append(v)": "TABLE = {'a': []}\ndef f(v):\n    TABLE['a'].append(v)\n",
    "TABLE[k][j] = v": "TABLE = {'a': {}}\ndef f(v):\n    TABLE['a']['b'] = v\n",
    "TABLE.sort()": "TABLE = [3, 1]\ndef f():\n    TABLE.sort()\n",
    "TABLE.difference_update()": "TABLE = {1}\ndef f():\n    TABLE.difference_update({1})\n",
    "TABLE.appendleft()": "import collections\nTABLE = collections.deque()\ndef f(v):\n    TABLE.appendleft(v)\n",
    "del TABLE[k]": "TABLE = {}\ndef f(k):\n    del TABLE[k]\n",
}


@pytest.mark.parametrize("how", list(CHANGED_TABLES))
def test_the_scan_sees_each_way_a_function_changes_a_table(tmp_path, how):
    sample = tmp_path / "sample.py"
    sample.write_text(CHANGED_TABLES[how])
    assert _module_state(sample), how


def test_a_functions_own_variable_named_like_a_table_is_not_the_table(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("TABLE = {}\ndef f():\n    TABLE = {}\n    TABLE['x'] = 1\n    return TABLE\n"
                      "def g(TABLE):\n    TABLE.append(1)\n")
    assert _module_state(sample) == []


# name: (a module, a call, whether the call changes the module's TABLE): each is run to know, then scanned
SCOPED = {
    "a nested def binding its own TABLE": ("TABLE = []\ndef f(v):\n    TABLE.append(v)\n    def g():\n"
                                           "        TABLE = 0\n        return TABLE\n    return g\n", "f(1)", True),
    "a comprehension variable named TABLE": ("TABLE = []\ndef f(v):\n    TABLE.append(v)\n"
                                             "    return [TABLE for TABLE in range(2)]\n", "f(1)", True),
    "a closure over the enclosing function's TABLE": ("TABLE = {}\ndef f(v):\n    TABLE = {}\n    def g():\n"
                                                      "        TABLE['k'] = v\n    g()\n    return TABLE\n", "f(1)", False),
    "a lambda over the enclosing function's TABLE": ("TABLE = []\ndef f(v):\n    TABLE = []\n"
                                                     "    add = lambda x: TABLE.append(x)\n    add(v)\n    return TABLE\n",
                                                     "f(1)", False),
    "a swap of two keys": ("TABLE = [1, 2]\ndef f():\n    TABLE[0], TABLE[1] = TABLE[1], TABLE[0]\n", "f()", True),
    "a key in a tuple target": ("TABLE = {}\ndef f(v):\n    key, TABLE['k'] = 'x', v\n", "f(1)", True),
    "a key as a for target": ("TABLE = {}\ndef f(v):\n    for TABLE['k'] in [v]:\n        pass\n", "f(1)", True),
    "TABLE.__iadd__": ("TABLE = []\ndef f(v):\n    TABLE.__iadd__([v])\n", "f(1)", True),
    "a global TABLE rebound in a nested def": ("TABLE = []\ndef f(v):\n    def g():\n        TABLE.append(v)\n"
                                               "    TABLE_ = 0\n    g()\n", "f(1)", True),
}


@pytest.mark.parametrize("name", list(SCOPED))
def test_the_scan_judges_each_name_in_its_own_scope(tmp_path, name):
    import copy
    import types

    src, call, changes = SCOPED[name]
    sample = tmp_path / "sample.py"
    sample.write_text(src)
    module = types.ModuleType("sample")
    exec(compile(src, str(sample), "exec"), module.__dict__)
    before = copy.deepcopy(module.TABLE)
    exec(call, module.__dict__)
    assert (before != module.TABLE) is changes  # the sample does what it says
    assert bool(_module_state(sample)) is changes, name


def test_a_command_leaves_no_lock_reporter_behind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with context.command() as outside:
        assert main(["--version"]) == 0
        assert context.current() is outside and outside.on_lock_wait is None


def test_a_trust_root_named_in_one_command_is_not_the_next_ones(tmp_path):
    """Whose signatures count is a value the edge builds and hands down (trust.Signers): the next command,
    handed its own, sees nothing of it, and no context carries one."""
    signers = tmp_path / "allowed_signers"
    signers.write_text("human@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFake\n")
    with context.command() as first:
        named = trust.Signers(named=trust.named_file(signers))
        assert [r.content for r in trust.roots([], named)] == [signers.read_bytes()]
    with context.command() as second:
        assert trust.roots([], trust.Signers()) == []
    assert not any("signer" in name for ctx in (first, second) for name in vars(ctx))


def test_what_is_true_of_exact_bytes_is_shared_by_the_commands_of_a_process():
    with context.command() as first:
        pass
    with context.command() as second:
        pass
    assert first is not second and first.process is second.process is context.process()


def test_the_lock_reporter_of_a_command_is_passed_down_to_its_store_and_no_further(tmp_path):
    """The edge opens the command's context and hands it to the task store it builds: the store's waits are
    told to that command's reporter, and a store built outside any command is silent."""
    from harness.store.layout import Layout
    from harness.store.tasks import TaskStore

    heard: list[str] = []
    with context.command(on_lock_wait=heard.append) as ctx:
        inside = TaskStore(Layout(tmp_path), ctx)
    outside = TaskStore(Layout(tmp_path))
    assert inside.ctx.on_lock_wait == heard.append and outside.ctx.on_lock_wait is None
    assert context.current().on_lock_wait != heard.append


def test_a_worker_thread_sees_the_command_running_now(tmp_path):
    """F-0003 of #27's task: a thread started inside a command (or by a library caller) sees that command's
    trust root and lock reporter — a context per thread would check approvals against the tree's own signers."""
    import threading

    signers = tmp_path / "allowed_signers"
    signers.write_text("human@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFake\n")
    seen: list[object] = []

    def look() -> None:
        seen.append(([r.content for r in trust.roots([], named)], context.current().on_lock_wait))

    heard: list[str] = []
    with context.command(on_lock_wait=heard.append):
        named = trust.Signers(named=trust.named_file(signers))  # handed down as a value: the thread gets it too
        worker = threading.Thread(target=look)
        worker.start()
        worker.join()
    assert seen == [([signers.read_bytes()], heard.append)]


# Below the edge the context is passed down: the task store holds it, a lock's reporter is a parameter, the
# trust root is a value of its own, and the valid-digest cache is named by the source a file is read from.
READS_THE_COMMAND_RUNNING_NOW: set[str] = set()


def current_calls(source: str) -> list[int]:
    """The lines of ``source`` that ask for the command running now (`context.current()`)."""
    import ast

    return [n.lineno for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr == "current"
            and isinstance(n.func.value, ast.Name) and n.func.value.id == "context"]


def test_only_the_edge_asks_for_the_command_running_now():
    asking = {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*.py")
              if current_calls(p.read_text("utf-8"))}
    below = {p for p in asking if not p.startswith("harness/cli/") and p != "harness/context.py"}
    assert below == READS_THE_COMMAND_RUNNING_NOW, sorted(below ^ READS_THE_COMMAND_RUNNING_NOW)


def test_the_edge_rule_sees_a_call_and_leaves_a_name_alone():
    assert current_calls("from harness import context\nx = context.current().on_lock_wait\n") == [2]
    assert current_calls("current = 1\nother.current()\n") == []
