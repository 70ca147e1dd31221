"""YAML read/write with errors that name the file and the line."""

from __future__ import annotations

import functools
from pathlib import Path

from harness import context, paths
from harness.core.limits import MAX_DEPTH, too_deep
from harness.errors import HarnessError
from harness.store import bounded, plain_yaml

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any, NoReturn

# PyYAML (a sixth of `harness status` to import) loads where a text is not plain enough for
# harness.store.plain_yaml, or where one is written.


def _yaml() -> Any:
    import yaml

    return yaml


@functools.cache
def _loaders() -> tuple[Any, Any, Any]:
    """(the safe loader, the duplicate-refusing loader built on it, the safe dumper): libyaml's when present."""
    yaml = _yaml()
    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class _Loader(base):  # a base chosen at run time: libyaml's, else PyYAML's own
        """The safe loader, refusing duplicate keys.

        With a repeated key a YAML reader silently keeps the last value while a person (or
        grep) reads the first: `state: DONE` above `state: VERIFYING` would look finished.
        """

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                self.flatten_mapping(node)
                first: dict = {}
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=deep)
                    try:
                        earlier = first.setdefault(key, key_node)
                    except TypeError:
                        continue  # an unhashable key: the base class names it
                    if earlier is not key_node:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"duplicate key {key!r} (first at line {earlier.start_mark.line + 1})",
                            key_node.start_mark)
            return super().construct_mapping(node, deep=deep)

    return base, _Loader, getattr(yaml, "CSafeDumper", yaml.SafeDumper)


# Files under .harness/tasks/ are rendered by the harness, which never writes an anchor:
# one there is a hand edit or an attack, and is refused. Settings and input files are
# written by people and tools (PyYAML itself emits `&id001` for a shared list), so they
# may use anchors as long as the aliases do not blow up ("billion laughs": a few nested
# aliases that expand to gigabytes when the document is validated or compared).
RENDERED = paths.TASKS + "/"
MAX_ALIAS_NODES = 100_000  # nodes aliases may add; a real settings file adds a handful


def _is_rendered(name: str) -> bool:
    return name.startswith(RENDERED) or f"/{RENDERED}" in name


def _check_aliases(text: bytes | str, name: str) -> None:
    spelled = (b"&" in text or b"*" in text) if isinstance(text, bytes) else ("&" in text or "*" in text)
    if not spelled:
        return  # no anchor or alias can be spelled without these: skip the second parse
    yaml = _yaml()
    strict = _is_rendered(name)
    sizes: dict[str, int] = {}       # anchor -> nodes its value expands to
    open_: list[list] = [[0, None]]  # per open collection: [expanded nodes, anchor]
    added = 0
    for event in yaml.parse(text, Loader=_loaders()[0]):
        anchor = getattr(event, "anchor", None)
        if strict and anchor:
            kind = "alias *" if isinstance(event, yaml.AliasEvent) else "anchor &"
            _refuse(name, event, f"YAML {kind}{anchor} refused: the harness never writes anchors or aliases",
                    "`harness replay --write` re-renders the file from the ledger")
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            open_.append([1, anchor])
            continue
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            size, anchor = open_.pop()
        elif isinstance(event, yaml.AliasEvent):
            size = sizes.get(anchor or "", 1)
            added += size
            if added > MAX_ALIAS_NODES:
                _refuse(name, event, f"YAML aliases expand to more than {MAX_ALIAS_NODES} nodes (refused)",
                        "write the values out instead of nesting aliases")
            anchor = None
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
        else:
            continue
        if anchor:
            sizes[anchor] = size
        open_[-1][0] += size


def _refuse(name: str, event: Any, problem: str, hint: str) -> NoReturn:
    mark = event.start_mark
    raise HarnessError(f"{name}:{mark.line + 1}:{mark.column + 1}: {problem}", hint=hint)


# Parsed documents by their exact text: one command reads config.yaml and gate.yaml several times,
# and a process that runs many commands (the test suite runs the CLI in-process) reads the same
# files over and over (~90% of its parses). PyYAML builds each node in Python (~1 ms for a
# requirements file); a pickled copy loads in a fiftieth of that and is a new object every time,
# so no caller can change what the next one gets. Only what parsed is kept, never a refusal.
# Bounded by what is held, text and pickle together (a merge key can make a pickle 30x its text):
# the oldest go first, and one entry may take at most a sixteenth.
PARSED_BYTES = 16 * 1024 * 1024


def parse(text: bytes | str, name: str) -> Any:  # any shape: a schema check comes next
    memo = context.process()  # the parses are the process's: many commands share them
    parsed = memo.yaml_parsed
    # The same text may be refused only under .harness/tasks/; a str never meets equal bytes.
    key = (isinstance(text, bytes), text, _is_rendered(name))
    known = parsed.get(key) if parsed else None
    if known is not None:  # asked first: only PyYAML's parses are kept, and the subset reader's try at a text it
        import pickle  # cannot read costs more than the copy (an audit reads a task's files at every commit)

        parsed.move_to_end(key)
        return pickle.loads(known)
    doc = plain_yaml.load(text)
    if doc is not plain_yaml.NOT_PLAIN:  # PyYAML's reading, without PyYAML: a new object every time
        if too_deep(doc):
            raise HarnessError(f"{name}: nested more than {MAX_DEPTH} levels deep (refused)")
        return doc
    import pickle

    doc = _parse(text, name)
    kept = pickle.dumps(doc, pickle.HIGHEST_PROTOCOL)
    size = len(text) + len(kept)
    if size <= PARSED_BYTES // 16:
        parsed[key] = kept
        memo.yaml_bytes += size
        while memo.yaml_bytes > PARSED_BYTES:
            (_, old_text, _), old = parsed.popitem(last=False)
            memo.yaml_bytes -= len(old_text) + len(old)
    return doc


def _parse(text: bytes | str, name: str) -> Any:
    yaml = _yaml()
    try:
        _check_aliases(text, name)
        doc = yaml.load(text, Loader=_loaders()[1])
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise HarnessError(f"{name}{where}: malformed YAML: {_redacted(problem)}") from None
    except RecursionError:
        raise HarnessError(f"{name}: nested more than {MAX_DEPTH} levels deep (refused)") from None
    except (ValueError, OverflowError) as exc:  # an integer past Python's digit limit, a date out of range
        raise HarnessError(f"{name}: malformed YAML: {_redacted(str(exc).split(';')[0][:200])}") from None
    if too_deep(doc):
        raise HarnessError(f"{name}: nested more than {MAX_DEPTH} levels deep (refused)")
    return doc


def _redacted(problem: str) -> str:
    """A parser's words, which quote what they stumbled on (a key given twice, a tag, a scalar), redacted as a schema
    message is (harness.store.validate.describe): a refusal is printed, kept in a note and in CI's log, and the key
    given twice may be a token (F-0355). Only a refused text gets here: the rules are built for it alone."""
    from harness.store.secrets_check import redactor

    return redactor().redact(problem)


def read(path: Path, name: str | None = None, kind: str = "settings") -> Any:
    name = name or str(path)
    raw = bounded.read(path, kind, name)
    if raw is None:
        raise HarnessError(f"{name}: missing")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HarnessError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse(raw, name)


@functools.cache
def _no_alias_dumper() -> Any:
    class _NoAliasDumper(_loaders()[2]):  # type: ignore[misc]  # a base chosen at run time
        # An object that appears twice is written out twice: rendered files never hold an anchor.
        def ignore_aliases(self, data: object) -> bool:
            return True

    return _NoAliasDumper


def dump(doc: object) -> bytes:
    """``doc`` as the harness writes YAML: by harness.store.plain_yaml_writer when it is sure of
    every byte (most rendered task files), else by PyYAML; the bytes are the same either way."""
    from harness.store import plain_yaml_writer

    text = plain_yaml_writer.dump(doc)
    return text.encode("utf-8") if isinstance(text, str) else pyyaml_dump(doc)


def pyyaml_dump(doc: object) -> bytes:
    return _yaml().dump(doc, Dumper=_no_alias_dumper(), sort_keys=False, allow_unicode=True,
                        width=100).encode("utf-8")
