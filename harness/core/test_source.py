"""The source of the test a pytest node id names, inside its file's bytes (F-0346).

A node id runs one test (its parametrized cases included) or one class's tests: that source, decorators
included, is what the node id's reviewer wrote. A case added elsewhere in the file leaves it as it was.
"""

from __future__ import annotations

import ast


def test_source(data: bytes, node: str) -> bytes | None:
    """The lines of the test or class ``node`` (`TestC::test_x[case]`) names in the Python source ``data``
    (None: not Python, or no such definition: then nothing but the whole file can stand for it)."""
    try:
        body: list[ast.stmt] = ast.parse(data).body
    except (SyntaxError, ValueError):
        return None
    found: ast.stmt | None = None
    for name in node.split("::"):
        name = name.split("[", 1)[0]
        # The last definition of the name is the one Python keeps: a test defined again below replaces it.
        found = next((d for d in reversed(body) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                      and d.name == name), None)
        if found is None:
            return None
        body = found.body if isinstance(found, ast.ClassDef) else []
    if not isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or found.end_lineno is None:
        return None
    first = min([found.lineno, *(d.lineno for d in found.decorator_list)])
    return b"".join(data.splitlines(keepends=True)[first - 1:found.end_lineno])
