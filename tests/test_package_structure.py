"""How the package is organised, checked on its source (#27 item 3): each package says in one line what
it is, no two packages import each other (not even inside a function), and a module name names one
thing — a name shared by modules is one feature seen from its layers, never two different things."""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "harness"
PACKAGES = sorted(p.parent for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts)
# The layers a feature is seen from beside its own package: its pure rules (core) and its command (cli).
LAYERS = {"core", "cli"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}


def unit(module: str) -> str:
    """What a cycle is counted between: a top-level package (`harness.store`), or a module loose at the top."""
    return ".".join(module.split(".")[:2])


@functools.cache
def imported(module: str) -> frozenset[str]:
    """Every harness module ``module`` imports, anywhere in it: at the top, inside a function, for typing."""
    path = MODULES[module]
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            stem = ".".join(base[:len(base) - node.level + 1] if node.level else []) if node.level else ""
            origin = ".".join(p for p in (stem, node.module or "") if p)
            names = [origin, *(f"{origin}.{a.name}" for a in node.names)]
        else:
            continue
        out.update(n for n in names if n in MODULES and n != module)
    return frozenset(out)


def unit_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        for target in imported(module):
            if unit(target) != unit(module) and unit(target) != "harness":
                graph[unit(module)].add(unit(target))
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: module_name(p / "__init__.py"))
def test_every_package_says_in_one_line_what_it_is(package):
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8")))
    assert doc, f"{module_name(package / '__init__.py')} has no docstring"
    first = doc.splitlines()[0]
    assert first.endswith((".", ":")) or len(doc.splitlines()) == 1, f"its first line is not a sentence: {first!r}"


def test_no_two_packages_import_each_other_even_inside_a_function():
    assert cycle_in(unit_graph()) is None, " -> ".join(cycle_in(unit_graph()) or [])


def test_the_cycle_check_finds_a_cycle_through_three_packages():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_imports_inside_functions_are_counted():
    assert "harness.gitio.fast_path" in imported("harness.store.source")  # imported inside a method


def test_a_module_name_names_one_thing():
    """`converge` as core/converge.py (the pure decision), gate/converge.py (the use case) and
    cli/converge.py (the command) is one feature seen from its layers; `validate` in two feature packages
    was two things, and so is a module named like a feature package it does not belong to."""
    where: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        parts = module.split(".")
        if len(parts) > 2:
            where[parts[-1]].add(".".join(parts[1:-1]))
    features = {m.split(".")[1] for m in MODULES if MODULES[m].name == "__init__.py" and m.count(".") == 1}
    clashes = {name: sorted(pkgs) for name, pkgs in where.items()
               if len([p for p in pkgs if p not in LAYERS]) > 1}
    clashes.update({name: sorted(where[name]) for name in features & set(where)
                    if not where[name] <= LAYERS | {name}})
    assert not clashes, f"one name for different things: {clashes}"


def runtime_imports(module: str) -> frozenset[str]:
    """What ``module`` imports when it runs: :func:`imported` without the `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            typing_only.update([node.module, *(f"{node.module}.{a.name}" for a in node.names)])
        elif isinstance(node, ast.Import):
            typing_only.update(a.name for a in node.names)
    return frozenset(i for i in imported(module) if i in typing_only)


# The use cases, feature by feature: plain functions taking values and returning result values. They
# are what the CLI calls.
USE_CASES = (
    "harness.gate.evaluate", "harness.gate.index", "harness.gate.converge",
    "harness.evidence.recording",
    "harness.findings.steps", "harness.findings.before_fix", "harness.findings.review",
    "harness.task.contract", "harness.task.transitions", "harness.task.listing", "harness.task.status",
    "harness.approvals.approve",
    "harness.history.audit", "harness.history.audit_fanout", "harness.history.audit_scope",
    "harness.history.hook_checks", "harness.history.pre_receive", "harness.history.metrics",
    "harness.history.stamp_commit", "harness.history.stamp_head",
    "harness.install.initialize", "harness.install.shims", "harness.install.journal",
    "harness.install.notes_refspecs", "harness.install.server", "harness.install.skills",
    "harness.task.items", "harness.gate.steps_now",
    # the agent hooks' own: their installer, the host registry the CLI's choices come from, the skills
    # installer, the stop hook's counts
    "harness.agent.hook_settings", "harness.agent.hosts", "harness.agent.skills_install", "harness.agent.stopstate",
)
# What the CLI may reach: the use cases, the values the core returns, the gate's live answer (the next
# step now, listed as a use case), and what the edge builds a
# command from (the context, the repository, the .harness/ layout, the task store, the hook stage
# table). History's rules, the re-run, the trust root, the evidence recorder and the store's files are
# reached through use cases. The click-free fast paths (launch, status_fast, evidence_fast,
# agent_hook) answer before any of this loads: tests/test_layering.py pins what each of them may
# import instead.
CLI_REACHES = ("harness.cli", *USE_CASES, "harness.core", "harness.errors", "harness.context",
               "harness.paths", "harness.resources", "harness.crashlog", "harness.install.hook_stages",
               "harness.gitio.git", "harness.store.layout", "harness.store.tasks")
FAST_PATHS = {"harness.cli.launch", "harness.cli.status_fast", "harness.cli.evidence_fast", "harness.cli.agent_hook"}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("harness.cli.") and m not in FAST_PATHS))
def test_the_cli_reaches_only_use_cases_and_what_the_edge_builds(module):
    direct = sorted(i for i in runtime_imports(module)
                    if i not in ("harness", "harness.store", "harness.gitio", "harness.agent",
                                 *{u.rsplit(".", 1)[0] for u in USE_CASES})
                    and not any(i == a or i.startswith(a + ".") for a in CLI_REACHES))
    assert not direct, f"{module} imports {direct}"


# The task store's writers: the CLI builds the store at the edge and hands it to a use case, which writes.
STORE_WRITERS = {"append", "create", "switch", "set_spec", "rewrite"}


def store_writes(source: str) -> list[str]:
    """The calls of a store writer on `s` or on `store()` in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STORE_WRITERS:
            target = node.func.value
            if (isinstance(target, ast.Name) and target.id == "s") or (
                    isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "store"):
                out.append(f"line {node.lineno}: {ast.unparse(node.func)}")
    return out


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("harness.cli.")))
def test_the_cli_writes_the_task_store_only_through_use_cases(module):
    assert not store_writes(MODULES[module].read_text("utf-8")), module


def test_the_store_write_rule_sees_a_write_and_leaves_a_list_alone():
    assert store_writes("s.append(tid, [])\nstore().switch('T')\n") == ["line 1: s.append", "line 2: store().switch"]
    assert store_writes("lines.append('x')\nrows.append(('a', 'b'))\n") == []


def test_typing_only_imports_are_not_counted_as_reaching():
    assert "harness.history.change_rules" in imported("harness.cli.hooks")
    assert "harness.history.change_rules" not in runtime_imports("harness.cli.hooks")


BARE_PATH = re.compile(r"^\.harness(/[\w./{}*-]*)?$")


def path_literals(path: Path) -> list[str]:
    """Where a module spells a `.harness/` path itself: a string that is such a path (prose is not), or an
    f-string that starts with one."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and str(head.value).startswith(".harness") and " " not in head.value:
                found.append(f"line {node.lineno}: f{head.value!r}…")
            docstrings.update(id(v) for v in node.values)
    found += [f"line {n.lineno}: {n.value!r}" for n in ast.walk(tree) if isinstance(n, ast.Constant)
              and isinstance(n.value, str) and id(n) not in docstrings and BARE_PATH.match(n.value)]
    return found


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "harness.paths"))
def test_only_the_paths_module_spells_a_harness_path(module):
    assert not path_literals(MODULES[module]), f"{module} spells {path_literals(MODULES[module])}: use harness.paths"


def test_the_paths_rule_sees_a_spelled_path_and_leaves_prose_alone(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""About .harness/ files."""\nA = ".harness/gate.yaml"\nB = f".harness/tasks/{A}"\n'
                      'C = "edit .harness/config.yaml by hand"\n')
    assert [f.split(":")[0] for f in path_literals(sample)] == ["line 3", "line 2"]


def test_the_cli_rule_sees_what_a_fast_path_reaches_directly():
    """The fast paths are left out on purpose: the rule would flag them (they read the store themselves)."""
    direct = [i for i in runtime_imports("harness.cli.launch")
              if i not in ("harness", "harness.store", "harness.gitio")
              and not any(i == a or i.startswith(a + ".") for a in CLI_REACHES)]
    assert direct
