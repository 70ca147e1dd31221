"""What tests/test_explicit_context.py looks for in a module: state kept between calls outside the context
(a module-level name bound to a mutable container, a `global` statement, an UPPER-case table a function
changes). A static scan: a change made through another name (an alias, `setattr`) is out of its sight."""

from __future__ import annotations

import ast
from pathlib import Path

MUTABLE_CALLS = {"dict", "set", "list", "OrderedDict", "defaultdict", "ContextVar", "deque"}


def module_state(path: Path) -> list[str]:
    """Module-level names bound to a mutable container, and `global` statements, in ``path``."""
    found: list[str] = []
    tables: list[str] = []  # UPPER-case names: tables, unless something changes them
    module = ast.parse(path.read_text("utf-8"))
    for node in module.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        mutable = isinstance(value, (ast.Dict, ast.Set, ast.List, ast.DictComp, ast.SetComp, ast.ListComp)) or (
            isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) in MUTABLE_CALLS)
        for t in targets:
            if mutable and isinstance(t, ast.Name) and not t.id.startswith("__"):
                (tables if t.id.isupper() else found).append(t.id if t.id.isupper() else f"{t.id} (line {node.lineno})")
    found += [f"global {', '.join(n.names)} (line {n.lineno})" for n in ast.walk(module) if isinstance(n, ast.Global)]
    return found + _tables_changed(module, set(tables))


MUTATORS = {"append", "add", "update", "extend", "insert", "setdefault", "pop", "popitem", "clear", "remove", "discard",
            "sort", "reverse", "appendleft", "extendleft", "popleft", "rotate", "difference_update",
            "intersection_update", "symmetric_difference_update", "__setitem__", "__delitem__"}


def _tables_changed(module: ast.Module, tables: set[str]) -> list[str]:
    """An UPPER-case table is a constant only while nothing changes it: one that a function changes (a
    mutating method, a key set, augmented or deleted, at any depth of it) is state under a constant's name.
    Built at import, by the module's own lines, it is a table; a function's own variable of that name is not it."""
    changed = []
    for f in ast.walk(module):
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        local = {a.arg for a in ast.walk(f.args) if isinstance(a, ast.arg)} | {
            n.id for n in ast.walk(f) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for n in ast.walk(f):
            root = _root(_changed_object(n))
            if root is not None and root in tables and root not in local:
                changed.append(f"{root} changed (line {n.lineno})")
    return sorted(set(changed))


def _changed_object(n: ast.AST) -> ast.expr | None:
    """What ``n`` changes in place: a mutating method's object, or the container of a key set or deleted."""
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS:
        return n.func.value
    targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target] if isinstance(
        n, (ast.AugAssign, ast.AnnAssign)) else []
    return next((t.value for t in targets if isinstance(t, (ast.Subscript, ast.Attribute))), None)


def _root(e: ast.expr | None) -> str | None:
    """The name an expression like ``TABLE[k].items[j]`` starts from."""
    while isinstance(e, (ast.Subscript, ast.Attribute)):
        e = e.value
    return e.id if isinstance(e, ast.Name) else None
