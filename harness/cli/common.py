"""Shared pieces of the click front end: the --task option, the store, JSON output."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from harness.cli.plain_echo import json_text
from harness.store.layout import open_layout
from harness.store.tasks import TaskStore

task_option = click.option("--task", "task_id", metavar="ID", help="Act on this task instead of the current one.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text.")


def store() -> TaskStore:
    """The repository's task store, holding the command's context (opened by harness.cli.main)."""
    from harness import context

    s = TaskStore(open_layout(), context.current())
    s.recover()
    return s


def emit_json(obj: object) -> None:
    click.echo(json_text(obj))


def with_return_code(fn: Callable[..., int | None]) -> Callable[..., None]:
    """Let a command body return an exit code (click would otherwise ignore it)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        code = fn(*args, **kwargs)
        if code:
            raise click.exceptions.Exit(code)

    return wrapper


class EvidenceTypeParam(click.ParamType):
    """An evidence type on the command line: a built-in type (build, lint, typecheck, unit_test,
    integration_test, contract_test, security, review, custom, pass_to_pass, fail_to_pass) or a named custom.NAME."""

    name = "evidence type"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from harness.core.evidence_types import FORMS, is_evidence_type

        if not is_evidence_type(value):
            self.fail(f"{value!r} is not an evidence type: {FORMS}", param, ctx)
        assert isinstance(value, str)
        return value

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        from harness.core.evidence_types import METAVAR

        return METAVAR


EVIDENCE_TYPE = EvidenceTypeParam()


class SecondsParam(click.FloatRange):
    """A positive, finite number of seconds (click's FloatRange lets nan and inf through: a
    timeout of either is no timeout at all)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True)

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        import math

        seconds = float(super().convert(value, param, ctx))  # type: ignore[arg-type]  # click converts any value
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


SECONDS = SecondsParam()
