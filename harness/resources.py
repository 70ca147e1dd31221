"""Files that ship with the package: JSON schemas and the templates `harness init` writes.

In a wheel the top-level ``templates/`` and ``skills/`` folders are packaged under
``harness/`` (see pyproject); in a source checkout they sit beside the package.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    packaged = _PKG / name
    return packaged if packaged.is_dir() else _PKG.parent / name


def template(name: str) -> bytes:
    return (data_dir("templates") / name).read_bytes()


def schema_names() -> list[str]:
    """The name of every schema that ships (``event`` for ``event.schema.json``), sorted."""
    return sorted(path.name.removesuffix(".schema.json") for path in (_PKG / "schemas").glob("*.schema.json"))


@cache
def schema(name: str) -> dict:
    return json.loads((_PKG / "schemas" / f"{name}.schema.json").read_text("utf-8"))


def default_gate(configured: list[str]) -> bytes:
    """gate.yaml as `harness init` writes it for a config.yaml configuring ``configured``."""
    from harness.core.policy import default_gate_text

    return default_gate_text(template("gate.yaml").decode("utf-8"), configured).encode("utf-8")
