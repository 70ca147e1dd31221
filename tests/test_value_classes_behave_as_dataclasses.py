"""harness.core.value_class makes the classes `harness status` and the session hooks load without
importing dataclasses: each class made there behaves as the same class made by dataclasses —
construction, defaults, repr, equality, hashing, frozen assignment, inheritance, replace and asdict."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from harness.core import value_class


def make(module):
    """The same four classes, made by ``module`` (dataclasses or value_class)."""

    @module.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: list = module.field(default_factory=list)
        KIND: ClassVar[str] = "point"

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    @module.dataclass
    class Box:
        name: str
        items: dict = module.field(default_factory=dict)
        size: int = module.field(default=3)

    @module.dataclass(frozen=True)
    class Labelled(Point):
        label: str = "?"

    @module.dataclass
    class Own:
        a: int

        def __repr__(self) -> str:
            return "mine"

    return Point, Box, Labelled, Own


REAL, MINE = make(dataclasses), make(value_class)


def outcome(call):
    try:
        return ("ok", call())
    except Exception as exc:
        return (type(exc).__name__ if not isinstance(exc, AttributeError) else "AttributeError",)


@pytest.mark.parametrize("args, kwargs", [((1,), {}), ((1, 2), {}), ((1, 2, [3]), {}), ((), {"x": 1, "tags": [1]}),
                                          ((), {}), ((1, 2, [], 4), {}), ((1,), {"x": 2}), ((1,), {"z": 2})])
def test_a_frozen_class_is_made_built_shown_and_compared_alike(args, kwargs):
    (real, *_), (mine, *_) = REAL, MINE
    a, b = outcome(lambda: real(*args, **kwargs)), outcome(lambda: mine(*args, **kwargs))
    assert a[0] == b[0]
    if a[0] == "ok":
        r, m = a[1], b[1]
        assert repr(r) == repr(m) and r.norm() == m.norm() and m.KIND == "point"
        assert (m == mine(*args, **kwargs)) is (r == real(*args, **kwargs)) is True
        assert m != r and (m == r) is False  # another class is never equal, as dataclasses has it
        assert m.__match_args__ == r.__match_args__ == ("x", "y", "tags")


def test_assignment_to_a_frozen_instance_is_refused_and_a_mutable_one_is_free():
    for Point, Box, Labelled, _ in (REAL, MINE):
        p = Point(1)
        with pytest.raises(AttributeError):
            p.x = 2
        with pytest.raises(AttributeError):
            del p.y
        with pytest.raises(AttributeError):
            Labelled(1).label = "no"
        box = Box("b")
        box.size = 9
        assert box.size == 9 and box.items == {} and box.items is not Box("c").items


def test_hashing_and_defaults_follow_dataclasses():
    for (r_point, r_box, r_lab, r_own), (m_point, m_box, m_lab, m_own) in [(REAL, MINE)]:
        assert hash(m_point(1, 2, ())) == hash(r_point(1, 2, ()))  # of the fields, in order
        assert r_box.__hash__ is None and m_box.__hash__ is None  # mutable and compared: unhashable
        assert repr(m_lab(1, 2, [], "l")) == repr(r_lab(1, 2, [], "l"))
        assert m_lab(1).label == r_lab(1).label == "?"
        assert repr(m_own(1)) == repr(r_own(1)) == "mine"  # a method the class writes is kept
        assert m_point.y == r_point.y == 0 and not hasattr(m_point, "tags") and not hasattr(r_point, "tags")
        assert m_box.size == r_box.size == 3


def test_a_field_without_a_default_after_one_with_is_refused_alike():
    for module in (dataclasses, value_class):
        with pytest.raises(TypeError):
            @module.dataclass
            class Bad:
                a: int = 1
                b: int  # type: ignore[misc]
    with pytest.raises(ValueError):
        value_class.field(default=1, default_factory=list)


def test_replace_and_asdict_give_what_dataclasses_gives():
    (r_point, r_box, *_), (m_point, m_box, *_) = REAL, MINE
    r, m = r_point(1, 2, [{"a": [1]}]), m_point(1, 2, [{"a": [1]}])
    assert repr(value_class.replace(m, y=5)) == repr(dataclasses.replace(r, y=5))
    assert value_class.asdict(m) == dataclasses.asdict(r) == {"x": 1, "y": 2, "tags": [{"a": [1]}]}
    assert value_class.asdict(m)["tags"] is not m.tags  # a copy, as dataclasses makes one
    nested_r, nested_m = r_box("n", {"p": r}), m_box("n", {"p": m})
    assert value_class.asdict(nested_m) == dataclasses.asdict(nested_r)
    with pytest.raises(TypeError):
        value_class.replace(m, z=1)
    with pytest.raises(TypeError):
        dataclasses.replace(r, z=1)  # type: ignore[call-arg]
