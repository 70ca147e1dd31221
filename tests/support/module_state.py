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
            "intersection_update", "symmetric_difference_update", "__setitem__", "__delitem__", "__iadd__", "__ior__",
            "__iand__", "__isub__", "__ixor__", "__imul__"}
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
SCOPES = (*FUNCTIONS, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _tables_changed(module: ast.Module, tables: set[str]) -> list[str]:
    """An UPPER-case table is a constant only while nothing changes it: one that code run after import changes
    (a mutating method, a key set, augmented or deleted, at any depth of it) is state under a constant's name.
    Changed by the module's own lines at import, it is a table. Each name is judged in its scope: a function's
    own variable of that name, or one of a function around it, is not the module's table."""
    changed: set[str] = set()

    def visit(scope: ast.AST, shadowed: frozenset[str], at_import: bool) -> None:
        own = list(_own_nodes(scope))
        if not at_import:
            for n in own:
                for obj in _changed_objects(n):
                    root = _root(obj)
                    if root in tables and root not in shadowed:
                        changed.add(f"{root} changed (line {n.lineno})")
        for n in own:
            if isinstance(n, FUNCTIONS):
                visit(n, shadowed | _bound(n), False)
            elif isinstance(n, SCOPES):  # a class body or a comprehension runs when the code around it does
                visit(n, shadowed | (_bound(n) if not isinstance(n, ast.ClassDef) else frozenset()), at_import)

    visit(module, frozenset(), True)
    return sorted(changed)


def _own_nodes(scope: ast.AST):
    """The nodes of a scope's own code: a nested function, class or comprehension is a scope of its own."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, SCOPES):
            stack.extend(ast.iter_child_nodes(n))


def _bound(scope: ast.AST) -> frozenset[str]:
    """The names a function or comprehension binds as its own (not those it declares global or nonlocal)."""
    own = list(_own_nodes(scope))
    names = {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)} if isinstance(scope, FUNCTIONS) else set()
    names |= {n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    names |= {n.name for n in own if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    names |= {(a.asname or a.name).split(".")[0] for n in own if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    declared = {name for n in own if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    return frozenset(names - declared)


def _changed_objects(n: ast.AST) -> list[ast.expr]:
    """What ``n`` changes in place: a mutating method's object, or the containers of keys (or attributes) it
    sets or deletes, wherever its targets put them (a tuple, a `for`, a `with`)."""
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS:
        return [n.func.value]
    if isinstance(n, (ast.Assign, ast.Delete)):
        targets = n.targets
    elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.comprehension)):
        targets = [n.target]
    elif isinstance(n, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in n.items if i.optional_vars is not None]
    else:
        return []
    return [t.value for t in _flat(targets) if isinstance(t, (ast.Subscript, ast.Attribute))]


def _flat(targets: list[ast.expr]) -> list[ast.expr]:
    out: list[ast.expr] = []
    for t in targets:
        if isinstance(t, (ast.Tuple, ast.List)):
            out += _flat(list(t.elts))
        elif isinstance(t, ast.Starred):
            out += _flat([t.value])
        else:
            out.append(t)
    return out


def _root(e: ast.expr | None) -> str | None:
    """The name an expression like ``TABLE[k].items[j]`` starts from."""
    while isinstance(e, (ast.Subscript, ast.Attribute)):
        e = e.value
    return e.id if isinstance(e, ast.Name) else None
