"""Observation schemas: how a seat's JSON view becomes a fixed-length vector of floats (standard library).

A schema is a :class:`Record` of :class:`Spec` nodes (numbers, one-hots, counts, fixed-length lists,
computed parts).  Each node's ``encode`` is the definition of its floats;
:mod:`ludorum.engine.schema_compiler` turns a whole schema into one generated function giving the same
floats faster.  A schema reads only the
view: a seat's observation can never hold more than its view does.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# -- specs --------------------------------------------------------------------------------------


class Spec:
    """A node of an observation schema: how one part of a view becomes ``size`` floats."""

    size: int = 1

    def encode(self, value: Any, out: list[float]) -> None:
        """Append exactly ``size`` floats for ``value`` (``None``: absent, all zeros) to ``out``."""
        raise NotImplementedError

    def describe(self) -> str:
        """One line saying what the floats mean."""
        raise NotImplementedError


def _zeros(n: int, out: list[float]) -> None:
    out.extend([0.0] * n)


def _hidden_size(value: Any) -> Any:
    """A view shows a secret only by its size: ``{"hidden": n}``."""
    if isinstance(value, dict) and "hidden" in value and len(value) == 1:
        return value["hidden"]
    return None


def _number(value: Any, scale: float) -> float:
    """What :class:`Num` makes of ``value``: a number (a boolean 0/1) or a hidden entry's size or a list's
    length, divided by ``scale``; anything else (``None``, a word) is 0."""
    if type(value) is int or type(value) is float:
        return value / scale
    if isinstance(value, dict):
        value = _hidden_size(value)
    if value is None or isinstance(value, str):
        return 0.0
    if isinstance(value, (list, tuple)):
        return len(value) / scale
    return float(value) / scale


@dataclass
class Num(Spec):
    """A number (a boolean is 0/1), divided by ``scale``; a hidden entry gives its size."""

    scale: float = 1.0
    size: int = 1

    def encode(self, value: Any, out: list[float]) -> None:
        out.append(_number(value, self.scale))

    def describe(self) -> str:
        return "number" if self.scale == 1.0 else f"number / {self.scale:g}"


@dataclass
class _OverValues(Spec):
    """A spec with one float per possible value (:class:`OneHot`, :class:`Counts`): ``_pos`` finds a
    value's float."""

    values: Sequence[Any]
    size: int = field(init=False)
    _pos: dict[Any, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.values = tuple(self.values)
        self.size = len(self.values)
        self._pos = {v: i for i, v in enumerate(self.values)}


@dataclass
class OneHot(_OverValues):
    """One float per possible value: 1 for the value held (none for a value outside the list)."""

    key: str | None = None
    """Read this key of an object value (a card's ``"type"``) instead of the value itself."""

    def encode(self, value: Any, out: list[float]) -> None:
        row = [0.0] * self.size
        if self.key is not None and isinstance(value, dict):
            value = value.get(self.key)
        if isinstance(value, list):
            value = tuple(value)
        i = self._pos.get(value) if _hashable(value) else None
        if i is not None:
            row[i] = 1.0
        out.extend(row)

    def describe(self) -> str:
        shown = ", ".join(map(repr, self.values[:8])) + (", …" if self.size > 8 else "")
        return f"one-hot over {self.size} values ({shown})"


@dataclass
class Counts(_OverValues):
    """A list of values as counts per possible value (a multiset: a hand, a city); ``scale`` divides."""

    scale: float = 1.0
    key: str | None = None
    """Read this key of each object item (a card's ``"type"``) instead of the item itself."""

    def encode(self, value: Any, out: list[float]) -> None:
        row = [0] * self.size
        if isinstance(value, (list, tuple)):
            for v in value:
                if self.key is not None and isinstance(v, dict):
                    v = v.get(self.key)
                i = self._pos.get(tuple(v) if isinstance(v, list) else v)
                if i is not None:
                    row[i] += 1
        out.extend(c / self.scale for c in row)

    def describe(self) -> str:
        return f"count of each of {self.size} values" + (f" / {self.scale:g}" if self.scale != 1.0 else "")


@dataclass
class Fixed(Spec):
    """A list as exactly ``n`` items (cut, or padded with zeros), each encoded by ``item``."""

    n: int
    item: Spec
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = self.n * self.item.size

    def encode(self, value: Any, out: list[float]) -> None:
        items = value[: self.n] if isinstance(value, (list, tuple)) else ()
        item = self.item
        if type(item) is Num and all(type(v) is int or type(v) is float for v in items):
            # The common cases (a row of numbers, of one-hots), without a call per item.
            scale = item.scale
            out.extend([v / scale for v in items] if scale != 1.0 else [float(v) for v in items])
        elif type(item) is OneHot and item.key is None and all(type(v) is not list for v in items):
            row = [0.0] * (len(items) * item.size)
            pos = item._pos
            for i, v in enumerate(items):
                try:
                    j = pos.get(v)
                except TypeError:  # an unhashable item (a dict) is no value, as in OneHot.encode
                    j = None
                if j is not None:
                    row[i * item.size + j] = 1.0
            out.extend(row)
        else:
            for v in items:
                item.encode(v, out)
        _zeros((self.n - len(items)) * item.size, out)

    def describe(self) -> str:
        return f"{self.n} × [{self.item.describe()}] (missing items: zeros)"


class Both(Spec):
    """Several specs reading the same value one after the other (a hand's size, then its cards)."""

    def __init__(self, *specs: Spec) -> None:
        self.specs = specs
        self.size = sum(s.size for s in specs)

    def encode(self, value: Any, out: list[float]) -> None:
        for s in self.specs:
            s.encode(value, out)

    def describe(self) -> str:
        return " + ".join(s.describe() for s in self.specs)


@dataclass
class Present(Spec):
    """1 when there is a value (not ``None``, not a hidden size), else 0: marks a filled slot."""

    def encode(self, value: Any, out: list[float]) -> None:
        out.append(0.0 if value is None or _hidden_size(value) is not None else 1.0)

    def describe(self) -> str:
        return "1 if present"


@dataclass
class Record(Spec):
    """A JSON object: named parts, each read by a key (``"a.b"`` reads ``value["a"]["b"]``).

    A key may be a tuple of specs under one name: ``Record({"card": (Present(), OneHot(...))})`` encodes
    the same value twice; a key ``"*name"`` hands the whole object to its specs (for :class:`Computed`).
    At the top level the names are the observation's layout.
    """

    parts: Mapping[str, Spec | tuple[Spec, ...]]
    size: int = field(init=False)
    _plan: tuple[tuple[str, tuple[str, ...], tuple[Spec, ...]], ...] = field(init=False, repr=False)
    _compiled: Callable[[Any], array[float]] | None = field(
        init=False, repr=False, compare=False, default=None
    )
    """The generated function, once :func:`ludorum.engine.schema_compiler.compiled` has built it."""

    def __post_init__(self) -> None:
        plan = []
        for key, spec in self.parts.items():
            specs = spec if isinstance(spec, tuple) else (spec,)
            # "*name" reads the whole value (for Computed parts); "a.b" reads value["a"]["b"].
            path = () if key.startswith("*") else tuple(key.split("."))
            plan.append((key.lstrip("*"), path, specs))
        self._plan = tuple(plan)
        self.size = sum(s.size for _, _, specs in self._plan for s in specs)

    def encode(self, value: Any, out: list[float]) -> None:
        for _, path, specs in self._plan:
            v = value
            for p in path:
                v = v.get(p) if isinstance(v, dict) else None
            for s in specs:
                s.encode(v, out)

    def describe(self) -> str:
        return (
            "{"
            + "; ".join(f"{k}: {' + '.join(s.describe() for s in specs)}" for k, _, specs in self._plan)
            + "}"
        )

    def layout(self) -> list[tuple[str, int, int, str]]:
        """``(name, offset, size, description)`` of each top-level part, in vector order."""
        out, offset = [], 0
        for key, _, specs in self._plan:
            size = sum(s.size for s in specs)
            out.append((key, offset, size, " + ".join(s.describe() for s in specs)))
            offset += size
        return out


@dataclass
class Computed(Spec):
    """A part a schema cannot read off the view directly: ``fn(view, seat)`` gives its ``size`` floats.

    The function still sees only the view (and the observing seat), so the no-leak guarantee holds.
    """

    fn: Any
    size: int = 1
    doc: str = ""

    def encode(self, value: Any, out: list[float]) -> None:
        row = list(self.fn(value))
        if len(row) != self.size:
            raise ValueError(f"a computed observation part gave {len(row)} floats, not {self.size}")
        out.extend(float(x) for x in row)

    def describe(self) -> str:
        return self.doc or f"{self.size} computed floats"


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
