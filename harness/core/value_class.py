"""The part of :mod:`dataclasses` the classes `harness status` and the agent's session hooks load
use — ``@dataclass`` and ``@dataclass(frozen=True)`` with plain defaults and ``field(default_factory=
...)`` — without importing dataclasses (which imports inspect, ast and dis) or generating code
for each class: together a quarter of those answers (#28).

A class made here behaves as the dataclass would: the same ``__init__`` (positional or by name,
defaults, a fresh default from each factory), ``__repr__``, ``__eq__`` (same class only),
``__hash__`` (of the fields when frozen, none when not), ``__match_args__``, frozen instances
refusing assignment, fields inherited from a base made here, and methods the class writes itself
kept. :func:`replace` and :func:`asdict` stand in for dataclasses' on these classes.
tests/test_value_classes_behave_as_dataclasses.py holds each of these against dataclasses itself.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: the agent's tool guard makes its rules here
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform

    T = TypeVar("T")
else:
    def dataclass_transform(**_: object) -> object:
        return lambda decorator: decorator  # what typing's does at run time, bar a marker attribute

_MISSING: Any = object()


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen instance (as dataclasses.FrozenInstanceError)."""


class _Field:
    __slots__ = ("default", "factory")

    def __init__(self, default: Any, factory: Any) -> None:
        self.default, self.factory = default, factory


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING) -> Any:
    """A field's default, or the factory that makes a fresh one for each instance."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return _Field(default, default_factory)


@dataclass_transform(field_specifiers=(field,))
def dataclass(cls: Any = None, /, *, frozen: bool = False) -> Any:
    """``@dataclass`` or ``@dataclass(frozen=True)``."""
    def wrap(c: type[T]) -> type[T]:
        return _build(c, frozen)

    return wrap if cls is None else wrap(cls)


def _fields(cls: type) -> list[tuple[str, Any, Any]]:
    """(name, default, factory) of every field, a base class's first (as dataclasses orders them)."""
    out: dict[str, tuple[str, Any, Any]] = {}
    for base in reversed(cls.__mro__[1:]):
        for spec in getattr(base, "__value_fields__", ()):
            out[spec[0]] = spec
    # The class's own annotations (as dataclasses reads them): inspect.get_annotations would import inspect.
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = cls.__dict__.get(name, _MISSING)
        if isinstance(default, _Field):
            spec = (name, default.default, default.factory)
            if default.default is _MISSING:
                delattr(cls, name)  # as dataclasses leaves no class attribute for a factory's field
            else:
                setattr(cls, name, default.default)
        else:
            spec = (name, default, _MISSING)
        out.pop(name, None)
        out[name] = spec
    specs = list(out.values())
    seen_default = False
    for name, default, factory in specs:
        if default is _MISSING and factory is _MISSING and seen_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        seen_default = seen_default or default is not _MISSING or factory is not _MISSING
    return specs


def _build(cls: type[T], frozen: bool) -> type[T]:
    specs = _fields(cls)
    names = tuple(name for name, _, _ in specs)
    made: Any = cls  # the class, its methods set here
    own = cls.__dict__
    methods = {"__init__": _init(specs), "__repr__": _repr(names), "__eq__": _eq(names)}
    for attr, method in methods.items():
        if attr not in own:
            method.__qualname__ = f"{cls.__qualname__}.{attr}"
            setattr(made, attr, method)
    if "__match_args__" not in own:
        setattr(made, "__match_args__", names)  # noqa: B010 - mypy refuses the attribute's assignment
    if "__hash__" not in own or own["__hash__"] is None:
        made.__hash__ = _hash(names) if frozen else None
    if frozen:
        made.__setattr__ = _refuse_set(cls, names)
        made.__delattr__ = _refuse_delete(cls, names)
    made.__value_fields__ = tuple(specs)
    return cls


def _init(specs: list[tuple[str, Any, Any]]) -> Any:
    names = [name for name, _, _ in specs]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"__init__() takes {len(names) + 1} positional arguments but {len(args) + 1} were given")
        for name in kwargs:
            if name not in names:
                raise TypeError(f"__init__() got an unexpected keyword argument {name!r}")
            if names.index(name) < len(args):
                raise TypeError(f"__init__() got multiple values for argument {name!r}")
        for n, (name, default, factory) in enumerate(specs):
            if n < len(args):
                value = args[n]
            elif name in kwargs:
                value = kwargs[name]
            elif factory is not _MISSING:
                value = factory()
            elif default is not _MISSING:
                value = default
            else:
                raise TypeError(f"__init__() missing 1 required positional argument: {name!r}")
            object.__setattr__(self, name, value)
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    return __init__


def _repr(names: tuple[str, ...]) -> Any:
    def __repr__(self: Any) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"

    return __repr__


def _eq(names: tuple[str, ...]) -> Any:
    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

    return __eq__


def _hash(names: tuple[str, ...]) -> Any:
    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, n) for n in names))

    return __hash__


def _refuse_set(cls: Any, names: tuple[str, ...]) -> Any:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _refuse_delete(cls: Any, names: tuple[str, ...]) -> Any:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes`` (dataclasses.replace)."""
    values = {name: getattr(obj, name) for name, _, _ in type(obj).__value_fields__}  # type: ignore[attr-defined]
    for name in changes:
        if name not in values:
            raise TypeError(f"__init__() got an unexpected keyword argument {name!r}")
    return type(obj)(**{**values, **changes})


def asdict(obj: object) -> dict[str, Any]:
    """``obj``'s fields as a dict, nested ones made here included, values copied (dataclasses.asdict)."""
    return {name: _plain(getattr(obj, name)) for name, _, _ in type(obj).__value_fields__}  # type: ignore[attr-defined]


def _plain(value: Any) -> Any:
    if hasattr(type(value), "__value_fields__"):
        return asdict(value)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return type(value)((_plain(k), _plain(v)) for k, v in value.items())
    import copy

    return copy.deepcopy(value)
