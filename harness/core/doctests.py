"""Doctests whose examples live in the project's source, as pure rules: which a change rewrites (read 81's F-0290).

Under `--doctest-modules` a base case such as `calc::calc.mul` is the examples of mul()'s docstring: its `>>>` lines
and their expected output are the test's assertions, written in a module PASS_TO_PASS cannot put back (it is the code
under test). So the examples are compared instead: a change to those of a doctest the base ran is a change of the
suite, each such case lost until a human approves it, as a test file's change would be; the code and the prose around
the examples stay code. The module is read with `ast`, never imported. Files pytest's `--doctest-glob` names hold
nothing but tests: they are protected whole (:func:`globbed`).
"""

from __future__ import annotations

import ast
import fnmatch
import posixpath
from collections.abc import Iterable

# A module whose docstrings or `__test__` are set by code (`mul.__doc__ = ...`, `setattr`, `functools.wraps`
# copying another's) may run other examples than its literals show: any change to such a statement, or a module
# that no longer parses, rewrites every doctest of the module. Only a write counts (read 85's F-0302): a statement
# that reads `__doc__` (`ArgumentParser(description=__doc__)`) sets nothing. `__test__` counts wherever it is
# named: a dict kept for doctest alone, which an alias could fill (`tests = __test__; tests["k"] = ...`).
EVERY = "*"
_DOCTEST_ONLY = frozenset({"__test__", "wraps", "update_wrapper"})

# doctest's finder names a test after the attribute it finds bound when the module is imported (a class's, for a
# member), not after the def whose docstring holds the examples (read 85's F-0299): `mul = _fast_mul`, a decorator
# returning another function, `globals()["mul"] = ...` make calc::calc.mul run other examples while mul's own
# docstring stays as it was. So a name is read as holding its def's examples only when one plain `def`/`class`
# binds it at its scope, with decorators known to keep the docstring; any other binding makes what it runs
# unknown (None), and a doctest the base ran under an unknown name is rewritten by any change of the module's code
# (comments and layout aside), since code decides it. These decorators return the function (or class) itself, or
# a wrapper that `functools.update_wrapper` gave its docstring; a decorator defined in the module counts when its
# whole body is `@functools.wraps(f) def inner` and `return inner` (:func:`_wraps_its_argument`).
_KEEP_THE_DOCSTRING = frozenset({
    "builtins.property", "builtins.staticmethod", "builtins.classmethod", "abc.abstractmethod",
    "functools.cache", "functools.lru_cache", "functools.cached_property", "functools.singledispatch",
    "contextlib.contextmanager", "contextlib.asynccontextmanager", "dataclasses.dataclass",
    "typing.final", "typing.override", "typing_extensions.final", "typing_extensions.override", "pytest.fixture",
})
_OVERLOAD = frozenset({"typing.overload", "typing_extensions.overload"})  # a stub the later def replaces
_PLAIN_METACLASS = frozenset({"abc.ABCMeta"})
_WRAPPER = "<a decorator returning functools.wraps(f) of its argument>"
# What can bind any name of a namespace at run time, or a class's through its `__dict__` (`locals()` too, outside a
# function): a module using one, or replacing itself in `sys.modules`, has every doctest unknown. Strict where
# reading cannot tell: `vars(obj)` or `setattr(obj, key, ...)` on any object but a method's `self` counts. Static
# reading stops here: a name built at run time (`getattr(builtins, "set" + "attr")`), code in another module (a
# base class's `__init_subclass__`, a metaclass or decorator defined there) rebinding a name of this one, a
# metaclass disguised as a class (a base aliasing `type`, whose methods take `self`).
_BINDS_ANY_NAME = frozenset({"globals", "vars", "setattr", "delattr", "exec", "eval", "__dict__", "__setattr__",
                             "__delattr__", "__builtins__"})
_IMPLICIT_CLASS_METHODS = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})
_DEF = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
Found = dict[str, list[tuple[str, str]] | None]


def examples(source: str) -> Found | None:
    """What doctest finds under each name, read from ``source`` (None when it does not parse): the qualified name
    ('' for the module) -> the (source, expected output) of each example of its docstring, or None when static
    reading cannot tell (F-0299); ``NAME.*`` for the members of a class (``[]``) or of an unknown name (None);
    ``*.ATTR`` (None) for an attribute stored on some object, which may be any member so named; and under
    :data:`EVERY` the text of every statement that sets a docstring at run time, or None when code may bind any
    name."""
    read = _read(source)
    return read[0] if read else None


def _read(source: str) -> tuple[Found, str] | None:
    """(:func:`examples`, the module's code as its syntax tree, comments and layout aside)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    found: Found = {}
    text = ast.get_docstring(tree, clean=False)
    if text and ">>>" in text:
        found[""] = _parsed(text)
    bound = _bindings(tree.body)
    for node in (n for n in ast.walk(tree) if isinstance(n, ast.Global)):  # `global mul` in a function binds it
        for name in node.names:
            bound.setdefault(name, []).append(node)
    _members(bound, "", _module_names(bound), found)
    any_name, stored = _namespace_writes(tree)
    _stored_attributes(found, stored)
    writes = [(ast.unparse(unit), "") for unit in _units(tree) if _sets_a_docstring(unit)]
    if any_name or "*" in bound:  # a star import may bind any name too
        found[EVERY] = None
    elif writes:
        found[EVERY] = writes
    return found, ast.dump(tree)


def _scope_nodes(body: list[ast.stmt]) -> Iterable[ast.AST]:
    """Every node a scope's statements evaluate in it: a nested def's or class's decorators, defaults and bases,
    not its body (a scope of its own)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack += [*node.decorator_list, node.args, *([node.returns] if node.returns else [])]
        elif isinstance(node, ast.ClassDef):
            stack += [*node.decorator_list, *node.bases, *node.keywords]
        elif isinstance(node, ast.Lambda):
            stack.append(node.args)
        elif isinstance(node, ast.comprehension):  # its target is the comprehension's own (a walrus is not)
            stack += [node.iter, *node.ifs]
        else:
            stack += ast.iter_child_nodes(node)


def _bindings(body: list[ast.stmt]) -> dict[str, list[ast.AST]]:
    """Each name a scope binds -> the nodes binding it: defs, classes, imports (``*`` for a star import), and every
    name stored or deleted (an assignment, a loop's target, `with ... as`, a walrus, `except ... as`, a match)."""
    bound: dict[str, list[ast.AST]] = {}
    for node in _scope_nodes(body):
        for name in _bound_names(node):
            bound.setdefault(name, []).append(node)
    return bound


def _bound_names(node: ast.AST) -> list[str]:
    if isinstance(node, _DEF):
        return [node.name]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [a.asname or a.name.split(".")[0] for a in node.names]
    if isinstance(node, ast.Name):
        return [] if isinstance(node.ctx, ast.Load) else [node.id]
    name = getattr(node, "rest" if isinstance(node, ast.MatchMapping) else "name", None)
    return [name] if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar | ast.MatchMapping) and name \
        else []


def _module_names(bound: dict[str, list[ast.AST]]) -> dict[str, str | None]:
    """What each name the module binds means to a decorator: the dotted name of what one import binds, the
    marker of a plain decorator copying its argument's docstring, else None (unknown)."""
    only = {name: nodes[0] for name, nodes in bound.items() if len(nodes) == 1}
    imports = {name: _imported(node, name) if isinstance(node, ast.Import | ast.ImportFrom) else None
               for name, node in only.items()}
    wrappers = {name for name, node in only.items()
                if isinstance(node, ast.FunctionDef) and _wraps_its_argument(node, imports)}
    return {name: _WRAPPER if name in wrappers else imports.get(name) for name in bound}


def _imported(node: ast.Import | ast.ImportFrom, name: str) -> str:
    for a in node.names:
        if (a.asname or a.name.split(".")[0]) == name:
            if isinstance(node, ast.ImportFrom):
                return "." * node.level + (f"{node.module}." if node.module else "") + a.name
            return a.name if a.asname else name
    return ""


def _wraps_its_argument(node: ast.FunctionDef, imports: dict[str, str | None]) -> bool:
    """Whether the plain decorator ``node`` returns a wrapper given its argument's docstring and module by
    `functools.wraps`: exactly `def deco(f): @functools.wraps(f) def inner(...): ...; return inner`."""
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    params = node.args
    if node.decorator_list or len(params.args) != 1 or params.posonlyargs or params.vararg or params.kwonlyargs \
            or params.kwarg or len(body) != 2:
        return False
    (inner, back), arg = body, params.args[0].arg
    if not (isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef) and len(inner.decorator_list) == 1
            and isinstance(back, ast.Return) and isinstance(back.value, ast.Name) and back.value.id == inner.name):
        return False
    wraps = inner.decorator_list[0]
    return (isinstance(wraps, ast.Call) and _qualified(wraps.func, {**imports, arg: None}) == "functools.wraps"
            and not wraps.keywords and len(wraps.args) == 1 and isinstance(wraps.args[0], ast.Name)
            and wraps.args[0].id == arg)


def _qualified(expr: ast.expr, names: dict[str, str | None]) -> str | None:
    """The dotted name ``expr`` spells, its first name read as ``names`` says (a builtin when the module binds it
    nowhere and imports no `*`); None when it is no dotted name or its first name is unknown."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.insert(0, expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    head = names.get(expr.id, None if "*" in names else f"builtins.{expr.id}")
    return ".".join([head, *parts]) if head else None


def _members(bound: dict[str, list[ast.AST]], prefix: str, names: dict[str, str | None], found: Found) -> None:
    """What doctest finds under each name a scope binds (``prefix`` its qualified name and a dot), into ``found``."""
    for name, nodes in bound.items():
        if name == "*":
            continue  # the whole scope is unknown: :func:`_read`
        qualname, node = prefix + name, _plain(name, nodes, names)
        if node is None:
            found[qualname] = found[f"{qualname}.*"] = None
            continue
        text = ast.get_docstring(node, clean=False)
        if text and ">>>" in text:
            found[qualname] = _parsed(text)
        if isinstance(node, ast.ClassDef):
            found[f"{qualname}.*"] = []
            inner = _bindings(node.body)
            _members(inner, f"{qualname}.", {**names, **dict.fromkeys(inner)}, found)


def _plain(name: str, nodes: list[ast.AST], names: dict[str, str | None]) -> _DEF | None:
    """The one def or class ``name`` is bound to, whose docstring doctest reads under it; None when anything else
    binds it, or a decorator or metaclass not known to keep it does."""
    kept = [n for n in nodes if not _replaced(n, name, names)]
    node = kept[0] if len(kept) == 1 else None
    if not isinstance(node, _DEF):
        return None
    if not all(_keeps_the_docstring(d, names) for d in node.decorator_list):
        return None
    metaclasses = [k.value for k in getattr(node, "keywords", []) if k.arg == "metaclass"]
    return node if all(_qualified(m, names) in _PLAIN_METACLASS for m in metaclasses) else None


def _keeps_the_docstring(decorator: ast.expr, names: dict[str, str | None]) -> bool:
    """Whether ``decorator`` returns what it decorates, or a wrapper with its docstring: one of
    :data:`_KEEP_THE_DOCSTRING` (called with options or not), or the module's own `functools.wraps` decorator."""
    if isinstance(decorator, ast.Name) and names.get(decorator.id) == _WRAPPER:
        return True
    return _qualified(decorator.func if isinstance(decorator, ast.Call) else decorator, names) in _KEEP_THE_DOCSTRING


def _replaced(node: ast.AST, name: str, names: dict[str, str | None]) -> bool:
    """Whether the binding ``node`` leaves doctest the examples of another: an `@overload` stub (the def after it
    replaces it), a property's `@name.setter`/`@name.deleter` (the copy keeps the getter's docstring)."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return any(_qualified(d, names) in _OVERLOAD or _accessor_of(d, name) for d in node.decorator_list)


def _accessor_of(decorator: ast.expr, name: str) -> bool:
    return (isinstance(decorator, ast.Attribute) and decorator.attr in ("setter", "deleter")
            and isinstance(decorator.value, ast.Name) and decorator.value.id == name)


def _namespace_writes(tree: ast.Module) -> tuple[bool, set[str]]:
    """(whether code may bind any name of a namespace, the attributes it stores on some object by name). What an
    instance's method stores on `self` (`self.total = 0`, `setattr(self, key, value)`) stays on the instance:
    doctest reads the class."""
    any_name, stored, excused = False, set(), set()
    for node, instance in _with_instance(tree, None):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and not _is(node.value, instance):
            stored.add(node.attr)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            any_name |= _spelled(node.value) == "modules"  # `sys.modules[__name__] = other`
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__" and _is(node.value, instance):
            excused.add(id(node))
        elif isinstance(node, ast.Call):
            accounted, by_name, any_name_here = _call_writes(node, instance)
            excused |= {id(node.func)} if accounted else set()
            stored |= by_name
            any_name |= any_name_here
        spelled = None if isinstance(node, ast.Constant) or id(node) in excused else _spelled(node)
        any_name |= spelled in _BINDS_ANY_NAME or (spelled == "locals" and instance is None)
    return any_name, stored - {"__doc__", "__test__"}  # a docstring's writes are :data:`EVERY`'s


def _call_writes(call: ast.Call, instance: str | None) -> tuple[bool, set[str], bool]:
    """(whether what the call spells is accounted for, the attributes it stores by name, whether it may bind any
    name): `setattr(obj, "mul", ...)` stores mul, `setattr(obj, key, ...)` any; on the instance, nothing."""
    set_by_name, args = _set_by_name(call), call.args
    if _spelled(call.func) == "getattr" and len(args) > 1 and isinstance(args[1], ast.Constant):
        return False, set(), args[1].value in _BINDS_ANY_NAME  # `getattr(builtins, "setattr")`
    if set_by_name is None:
        return _spelled(call.func) == "vars" and bool(args) and _is(args[0], instance), set(), False
    target, key = set_by_name
    if _is(target, instance):
        return True, set(), False
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return True, {key.value}, False
    return True, set(), True


def _with_instance(node: ast.AST, instance: str | None) -> Iterable[tuple[ast.AST, str | None]]:
    """Every node under ``node`` with the instance its code runs on: `self` in an instance's method, "" in any
    other function, None outside functions."""
    yield node, instance
    for child in ast.iter_child_nodes(node):
        inner = instance
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = _instance_of(child, node) if isinstance(node, ast.ClassDef) else ""
        yield from _with_instance(child, inner)


def _instance_of(method: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, cls: ast.ClassDef) -> str:
    """`self` when ``method`` is an instance's: its first parameter so named, not a class's or a static method (by
    decorator or by name) nor a metaclass's, whose `self` is a class; else ""."""
    first = [*method.args.posonlyargs, *method.args.args][:1]
    decorators = {_spelled(d) for d in getattr(method, "decorator_list", [])}
    metaclass = any(_spelled(b) == "type" or str(_spelled(b)).endswith(("Meta", "Type")) for b in cls.bases)
    of_a_class = getattr(method, "name", "") in _IMPLICIT_CLASS_METHODS or decorators & {"classmethod", "staticmethod"}
    return "self" if first and first[0].arg == "self" and not metaclass and not of_a_class else ""


def _is(expr: ast.expr, instance: str | None) -> bool:
    """Whether ``expr`` is the instance a method runs on (its `self`, or `super()` there)."""
    if isinstance(expr, ast.Call):
        return _spelled(expr.func) == "super" and bool(instance)
    return isinstance(expr, ast.Name) and bool(instance) and expr.id == instance


def _set_by_name(call: ast.Call) -> tuple[ast.expr, ast.expr | None] | None:
    """(the object, the attribute's name) of `setattr(obj, name, ...)`, `delattr`, `obj.__setattr__(name, ...)`,
    `object.__setattr__(obj, name, ...)`; None for any other call."""
    spelled, func, args = _spelled(call.func), call.func, [*call.args, None, None]
    if spelled in ("__setattr__", "__delattr__") and isinstance(func, ast.Attribute) \
            and _spelled(func.value) not in ("object", "type"):
        return func.value, args[0]  # `obj.__setattr__(name, value)`, a bound method
    if spelled in ("setattr", "delattr", "__setattr__", "__delattr__"):
        return (args[0], args[1]) if args[0] else (func, None)
    return None


def _spelled(node: ast.AST) -> str | None:
    """The name ``node`` spells: a name's, an attribute's, an imported name's, or a string's."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.alias):
        return node.name.split(".")[-1]
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _stored_attributes(found: Found, stored: set[str]) -> None:
    """An attribute stored on an object static reading cannot name (`C.mul = ...`, `sys.modules[__name__].mul`)
    may be any member so named, the module's own too: each is unknown."""
    for qualname in [q for q in found if q != EVERY and q.removesuffix(".*").rpartition(".")[2] in stored]:
        found[qualname] = None
    found.update({f"*.{attribute}": None for attribute in stored})


def _units(node: ast.AST) -> Iterable[ast.AST]:
    """The module's simple statements and the expressions heading its blocks (a decorator, a test, an iterable),
    in the order of the source."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr) or (isinstance(child, ast.stmt) and not hasattr(child, "body")):
            yield child
        else:
            yield from _units(child)


def _sets_a_docstring(unit: ast.AST) -> bool:
    """Whether ``unit`` writes a docstring or `__test__` (F-0302: reading one does not): `__doc__` as a target
    (assigned, augmented, deleted, a loop's or `with`'s), `setattr(x, "__doc__", ...)`, or any use of `__test__`,
    `functools.wraps` or `update_wrapper` (which copy one)."""
    for node in ast.walk(unit):
        if isinstance(node, ast.Name | ast.Attribute) and not isinstance(node.ctx, ast.Load) \
                and _spelled(node) == "__doc__":
            return True
        set_by_name = _set_by_name(node) if isinstance(node, ast.Call) else None
        if set_by_name and isinstance(set_by_name[1], ast.Constant) and set_by_name[1].value == "__doc__":
            return True
        if (not isinstance(node, ast.Constant) and _spelled(node) in _DOCTEST_ONLY) or \
                (isinstance(node, ast.alias) and node.asname == "__doc__"):
            return True
    return False


def _parsed(text: str) -> list[tuple[str, str]]:
    import doctest  # lazy: it imports pdb, unittest and inspect, and only a module with examples needs it

    try:
        return [(e.source, e.want) for e in doctest.DocTestParser().get_examples(text)]
    except ValueError:  # an example doctest itself cannot read (bad indentation): its text stands for it
        return [(text, "")]


def rewritten_doctests(before: str, after: str) -> set[str]:
    """The names (see :func:`examples`) of a module whose doctests ``after`` changes from ``before``: examples
    edited, removed, skipped by a directive, or added to a docstring that had some; a name that now binds something
    static reading cannot follow, or did at the base and the module's code changed (F-0299); :data:`EVERY` for all
    of them (the module no longer parses, what sets a docstring at run time changed, or code may bind any name)."""
    old, new = _read(before), _read(after)
    if old is None or new is None:
        return {EVERY} if (old is None) != (new is None) else set()
    (was, code_was), (now, code_now) = old, new
    return {q for q in {*was, EVERY}
            if was.get(q, []) != now.get(q, []) or (was.get(q, []) is None and code_was != code_now)}


def is_doctest_of(case: str, path: str, names: set[str]) -> bool:
    """Whether the base case ``case`` (JUnit's `classname::name`, pytest's `calc::calc.mul`) is a doctest of module
    ``path`` named by ``names`` (:func:`rewritten_doctests`). Its class name is the module's path dotted, from the
    folder pytest took as its root (any tail of the path); its name the module's import name and the qualified
    name of the object (the module's name alone for its own docstring)."""
    classname, _, name = case.partition("::")
    dotted = path.removesuffix(".py").replace("/", ".")
    if not classname or not (dotted == classname or dotted.endswith("." + classname)):
        return False
    stem = posixpath.basename(posixpath.dirname(path)) if path.endswith("/__init__.py") else classname.split(".")[-1]
    return EVERY in names or any(_names(q, name, stem) for q in names)


def _names(q: str, name: str, stem: str) -> bool:
    """Whether the name ``q`` of :func:`examples` names the test ``name`` of the module imported as ``…stem``."""
    if not q:
        return name.split(".")[-1] == stem
    if q.startswith("*."):  # an attribute stored on an object static reading cannot name
        return name.endswith(q[1:])
    if q.endswith(".*"):  # the members of a class
        return f".{stem}.{q[:-1]}" in f".{name}"
    return f".{name}".endswith(f".{stem}.{q}")


def globbed(path: str, patterns: Iterable[str]) -> bool:
    """Whether pytest collects the file ``path`` as a doctest file under ``patterns``: matched on its name, or on its
    whole path for a pattern naming a folder, as pytest's `fnmatch_ex` does."""
    return any(fnmatch.fnmatch(path if "/" in p else posixpath.basename(path), p) for p in patterns)
