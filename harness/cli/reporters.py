"""Reporting a command's result, as text or as JSON (in the manner of check-jsonschema's
``reporter.py``): a command's ``--json`` picks the form; the command itself never branches.

The reporter is picked by the result's type: each ``*_report`` module registers its text
reporters with :func:`text_report` (and a JSON reporter where a result has no ``as_dict()``),
and re-exports :func:`report`. A command imports ``report`` from the module reporting its
results, so that module, and the use case it reports, are loaded only when that command runs.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any, Protocol, runtime_checkable

from harness.cli.common import emit_json


@runtime_checkable
class AsDict(Protocol):
    """A result whose JSON form is its own: ``--json`` prints ``as_dict()``."""

    def as_dict(self) -> dict[str, Any]: ...


@singledispatch
def text_report(result: object) -> None:
    """Print ``result`` for a reader (a reporter registered for its type)."""
    raise TypeError(f"no text reporter is registered for {type(result).__name__}: "
                    "import `report` from the module that reports it")


@singledispatch
def json_report(result: object) -> None:
    """Print ``result`` as JSON: its ``as_dict()``, unless a reporter is registered for its type."""
    if not isinstance(result, AsDict):
        raise TypeError(f"{type(result).__name__} has no as_dict() and no JSON reporter is registered for it")
    emit_json(result.as_dict())


def report(result: object, as_json: bool) -> None:
    """Hand ``result`` to its text or its JSON reporter."""
    (json_report if as_json else text_report)(result)
