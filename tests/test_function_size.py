"""No function in the package grows past 60 lines: a longer one is split into named steps
(#27, item 9). Measured on the source, decorators excluded, docstring and comments included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "harness"
MAX_LINES = 60


def long_functions() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    out.append(f"{path.relative_to(PACKAGE.parent).as_posix()}:{node.name}: {lines} lines")
    return out


def test_no_function_is_longer_than_60_lines():
    found = long_functions()
    assert not found, f"split into named steps (at most {MAX_LINES} lines each):\n" + "\n".join(found)
