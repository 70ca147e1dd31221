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
# that no longer parses, rewrites every doctest of the module.
EVERY = "*"
_SET_AT_RUN_TIME = frozenset({"__doc__", "__test__", "wraps", "update_wrapper"})


def examples(source: str) -> dict[str, list[tuple[str, str]]] | None:
    """Qualified name ('' for the module) -> the (source, expected output) of each example of its docstring, plus
    under :data:`EVERY` the text of every statement that sets a docstring at run time; None when ``source`` does
    not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    found: dict[str, list[tuple[str, str]]] = {}
    _walk(tree, "", found)
    return found


def _walk(node: ast.AST, qualname: str, found: dict[str, list[tuple[str, str]]]) -> None:
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        text = ast.get_docstring(node, clean=False)
        if text and ">>>" in text:
            found[qualname] = _parsed(text)
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in (d for d in child.decorator_list if _sets_a_docstring(d)):  # `@wraps(other)`
                found.setdefault(EVERY, []).append((ast.unparse(decorator), ""))
            _walk(child, f"{qualname}.{child.name}".lstrip("."), found)
            continue
        if isinstance(child, ast.stmt):  # a def under `if` or `try` is the module's too
            if not hasattr(child, "body") and _sets_a_docstring(child):  # a block's own statements are walked
                found.setdefault(EVERY, []).append((ast.unparse(child), ""))
            _walk(child, qualname, found)


def _sets_a_docstring(statement: ast.AST) -> bool:
    names = {n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else n.value
             for n in ast.walk(statement) if isinstance(n, ast.Attribute | ast.Name | ast.Constant)}
    return bool(_SET_AT_RUN_TIME & {n for n in names if isinstance(n, str)})


def _parsed(text: str) -> list[tuple[str, str]]:
    import doctest  # lazy: it imports pdb, unittest and inspect, and only a module with examples needs it

    try:
        return [(e.source, e.want) for e in doctest.DocTestParser().get_examples(text)]
    except ValueError:  # an example doctest itself cannot read (bad indentation): its text stands for it
        return [(text, "")]


def rewritten_doctests(before: str, after: str) -> set[str]:
    """The qualified names (see :func:`examples`) of a module whose doctest examples ``after`` changes from
    ``before``: edited, removed, skipped by a directive, or added to a docstring that had some; :data:`EVERY` for
    all of them (the module no longer parses, or what sets a docstring at run time changed)."""
    old, new = examples(before), examples(after)
    if old is None or new is None:
        return {EVERY} if old != new else set()
    names = {q for q in old if old[q] != new.get(q)}
    return names | ({EVERY} if old.get(EVERY) != new.get(EVERY) else set())


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
    return EVERY in names or any(name.endswith("." + q) if q else name.split(".")[-1] == stem for q in names)


def globs(words: Iterable[str]) -> list[str]:
    """The patterns `--doctest-glob` names in a command's or a configuration's options."""
    words, out = list(words), []
    for i, word in enumerate(words):
        if word == "--doctest-glob" and i + 1 < len(words):
            out.append(words[i + 1])
        elif word.startswith("--doctest-glob="):
            out.append(word.split("=", 1)[1])
    return out


def globbed(path: str, patterns: Iterable[str]) -> bool:
    """Whether pytest collects the file ``path`` as a doctest file under ``patterns``: matched on its name, or on its
    whole path for a pattern naming a folder, as pytest's `fnmatch_ex` does."""
    return any(fnmatch.fnmatch(path if "/" in p else posixpath.basename(path), p) for p in patterns)
