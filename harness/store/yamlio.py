"""YAML read/write with errors that name the file and the line."""

from __future__ import annotations

from pathlib import Path

import yaml

from harness.errors import HarnessError

MAX_YAML_BYTES = 8 * 1024 * 1024
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def parse(text: bytes | str, name: str) -> object:
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise HarnessError(f"{name}{where}: malformed YAML: {problem}") from None


def read(path: Path, name: str | None = None) -> object:
    name = name or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_YAML_BYTES:
            raise HarnessError(f"{name}: {size} bytes is too large for a harness file (limit {MAX_YAML_BYTES})")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise HarnessError(f"{name}: missing") from None
    except OSError as exc:
        raise HarnessError(f"{name}: cannot read: {exc.strerror}") from None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HarnessError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse(raw, name)


def dump(doc: object) -> bytes:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")
