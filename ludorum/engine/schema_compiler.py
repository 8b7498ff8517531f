"""The schema compiler: an observation schema (:mod:`ludorum.engine.schema`) as one generated function.

``Spec.encode`` is the definition: a tree of small calls, easy to read and to test.  An environment calls
it on every step, and a call per node per step is most of an observation's cost, so :func:`compiled`
turns the tree into the source of one function that reads the view and writes only the non-zero floats
into a zeroed ``array('f')`` (numpy reads it without a copy).  The generated code does exactly what each
``encode`` does (a test compares the two over random games, bit for bit); a spec type it does not know is
run through its own ``encode``.  Where a view usually has one shape (rows of numbers, a row of one-hots, a
card), the code takes a shortcut for that shape and falls back to the general code for any other value;
records of plain keys (cards, events) are memoised by their values (docs/rl.md, "The encoding of a view").
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Callable
from typing import Any

from ludorum.engine.schema import (
    Both,
    Counts,
    Fixed,
    Num,
    OneHot,
    Present,
    Record,
    Spec,
    _number,
    _OverValues,
)


class _Source:
    """The lines and constants of the function being generated."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}
        self.tables: dict[tuple[int, int], str] = {}
        self.n = 0

    def name(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def const(self, value: Any) -> str:
        name = self.name("K")
        self.consts[name] = value
        return name

    def table(self, spec: _OverValues, offset: int) -> str:
        """A constant ``{value: offset + its float}``: a value's position in one dict look-up (shared by
        every node of the same spec at the same offset, such as the cards of a panel and of a queue)."""
        key = (id(spec), offset)
        if key not in self.tables:
            self.tables[key] = self.const({v: offset + i for v, i in spec._pos.items()})
            self.consts[f"_keep{self.n}"] = spec  # the id stays this spec's while the table exists
        return self.tables[key]

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


_Base = tuple[str | None, int]
"""Where a node's floats start: ``(variable or None, constant)``, the index ``variable + constant``."""

_SCALARS = (str, int, float, bool, type(None))


def _at(base: _Base, k: int = 0) -> str:
    """The index expression of ``base + k`` (folded into one number when ``base`` has no variable)."""
    var, off = base[0], base[1] + k
    if var is None:
        return str(off)
    return var if off == 0 else f"{var} + {off}"


def _plus(var: str | None, j: str) -> str:
    """The index expression ``var + j`` (``j`` alone without a variable): ``j`` holds a table's position."""
    return j if var is None else f"{var} + {j}"


def _plain(spec: _OverValues) -> bool:
    """Whether every value is a plain scalar: a list read from a view can then match none of them, so
    the generated code need not turn lists into tuples (an unhashable value is simply not found)."""
    return all(type(v) in _SCALARS for v in spec.values)


def _row_length(spec: Fixed) -> int | None:
    """``m`` when ``spec`` is rows of numbers, ``Fixed(n, Fixed(m, Num))``; else ``None``."""
    row = spec.item
    if type(row) is Fixed and type(row.item) is Num and row.item.size == 1:
        return row.n
    return None


def _emit(src: _Source, spec: Spec, v: str, base: _Base, depth: int) -> None:
    """Code writing ``spec``'s floats for the value in variable ``v`` at ``out[base:]``."""
    t = type(spec)
    if t is Num and spec.size == 1:
        scale = spec.scale  # type: ignore[attr-defined]
        k = src.name("t")
        value = v if scale == 1.0 else f"{v} / {scale!r}"
        # A falsy value (0, False, None, a word "", an empty list) is 0: not written — but -0.0 is a float
        # whose bits are not 0.0's.  A number or a boolean (True / s is 1 / s) divides in line.
        src.line(depth, f"if {v} or type({v}) is float:")
        src.line(depth + 1, f"{k} = type({v})")
        src.line(depth + 1, f"if {k} is int or {k} is float or {k} is bool: out[{_at(base)}] = {value}")
        src.line(depth + 1, f"else: out[{_at(base)}] = _number({v}, {scale!r})")
    elif t is OneHot:
        assert isinstance(spec, OneHot)
        u, j = v, src.name("j")
        pos = src.table(spec, base[1])  # the constant part of the base is folded into the table
        if spec.key is not None:
            u = src.name("u")
            src.line(depth, f"{u} = {v}.get({spec.key!r}) if isinstance({v}, dict) else {v}")
        src.line(depth, "try:")
        src.line(depth + 1, f"{j} = {pos}.get({u})" if _plain(spec) else
                 f"{j} = {pos}.get(tuple({u}) if isinstance({u}, list) else {u})")  # fmt: skip
        src.line(depth, "except TypeError:")
        src.line(depth + 1, f"{j} = None")
        src.line(depth, f"if {j} is not None: out[{_plus(base[0], j)}] = 1.0")
    elif t is Counts:
        assert isinstance(spec, Counts)
        x, i = src.name("x"), src.name("i")
        tally = src.name("c") if spec.scale != 1.0 else None
        pos = src.table(spec, 0 if tally else base[1])
        find = f"{pos}.get(tuple({x}) if isinstance({x}, list) else {x})"
        src.line(depth, f"if isinstance({v}, (list, tuple)):")
        if tally:
            src.line(depth + 1, f"{tally} = [0] * {spec.size}")
        src.line(depth + 1, f"for {x} in {v}:")
        if spec.key is not None:
            src.line(depth + 2, f"if isinstance({x}, dict): {x} = {x}.get({spec.key!r})")
        if _plain(spec):
            # A list item matches nothing; the reference expression, run only for an unhashable item,
            # fails (or finds nothing) exactly as ``Counts.encode`` does.
            src.line(depth + 2, "try:")
            src.line(depth + 3, f"{i} = {pos}.get({x})")
            src.line(depth + 2, "except TypeError:")
            src.line(depth + 3, f"{i} = {find}")
        else:
            src.line(depth + 2, f"{i} = {find}")
        if tally:
            src.line(depth + 2, f"if {i} is not None: {tally}[{i}] += 1")
            src.line(depth + 1, f"for {i}, {x} in enumerate({tally}):")
            src.line(depth + 2, f"if {x}: out[{_at(base)} + {i}] = {x} / {spec.scale!r}")
        else:
            src.line(depth + 2, f"if {i} is not None: out[{_plus(base[0], i)}] += 1.0")
    elif t is Fixed:
        assert isinstance(spec, Fixed)
        _emit_fixed(src, spec, v, base, depth)
    elif t is Both:
        assert isinstance(spec, Both)
        offset = 0
        for s in spec.specs:
            _emit(src, s, v, (base[0], base[1] + offset), depth)
            offset += s.size
    elif t is Present:
        # ``_hidden_size`` in line: a hidden entry is a one-key dict whose "hidden" is not None.
        src.line(depth, f"if {v} is not None and (not isinstance({v}, dict) or len({v}) != 1 "
                        f"or {v}.get('hidden') is None): out[{_at(base)}] = 1.0")  # fmt: skip
    elif t is Record:
        assert isinstance(spec, Record)
        _emit_record(src, spec, v, base, depth)
    else:  # any other spec (Computed, a game's own): its own encode, checked and copied in
        fn, row, b = src.const(spec), src.name("r"), src.name("b")
        src.line(depth, f"{row} = []")
        src.line(depth, f"{fn}.encode({v}, {row})")
        src.line(depth, f"if len({row}) != {spec.size}: raise ValueError(_WRONG.format({fn}, len({row})))")
        src.line(depth, f"{b} = {_at(base)}")
        src.line(depth, f"out[{b}:{b} + {spec.size}] = array('f', {row})")


def _attempt(
    src: _Source, depth: int, guard: str | None, body: list[tuple[int, str]], errors: str, flag: str
) -> None:
    """Code running ``body`` (lines at relative depths) only when ``guard`` holds (if any), ``flag`` set to
    ``False`` when the guard fails or the body raises one of ``errors``: a shortcut that can give up."""
    if guard is not None:
        src.line(depth, f"if {guard}:")
        depth += 1
    src.line(depth, "try:")
    for d, text in body:
        src.line(depth + 1 + d, text)
    src.line(depth, f"except {errors}:")
    src.line(depth + 1, f"{flag} = False")
    if guard is not None:
        src.line(depth - 1, "else:")
        src.line(depth, f"{flag} = False")


_MEMO = 4096
"""How many distinct records (cards, events) one memo of :func:`_emit_record` holds; full, it starts again."""

_MEMO_FLOATS = 512
"""A record of more floats is not memoised: each record the memo learns costs a copy of all of them."""


def _plain_spec(spec: Spec) -> bool:
    """Whether ``spec``'s floats are a function of its value's equality class alone (see the memo):
    a :class:`Num`, a :class:`OneHot` of the value itself, :class:`Present`."""
    return (
        (type(spec) is Num and spec.size == 1)
        or (type(spec) is OneHot and spec.key is None)
        or type(spec) is Present
    )


def _memo_parts(spec: Record) -> list[int]:
    """The parts of a record its memo keys on: each read by one key and plain specs (at least two such
    parts, in a record of at most :data:`_MEMO_FLOATS` floats); none otherwise."""
    parts = [
        i
        for i, (_, path, specs) in enumerate(spec._plan)
        if len(path) == 1 and all(_plain_spec(s) for s in specs)
    ]
    return parts if len(parts) > 1 and 0 < spec.size <= _MEMO_FLOATS else []


def _emit_record(src: _Source, spec: Record, v: str, base: _Base, depth: int) -> None:
    """A :class:`Record`: each part at its offset; the plain parts of a small record (a card, an event, a
    creature's numbers) through a memo from the tuple of their values to the record's floats, written by
    one slice copy when seen before, the other parts after it."""
    if not spec._plan:
        src.line(depth, "pass")  # a record of nothing (the body of a loop must hold a statement)
        return
    offsets, offset = [], 0
    for _, _, specs in spec._plan:
        offsets.append(offset)
        offset += sum(s.size for s in specs)
    memo = _memo_parts(spec)
    names = {i: src.name("w") for i, (_, path, _) in enumerate(spec._plan) if path}

    def parts(which: list[int], d: int) -> None:
        for i in which:
            _, path, specs = spec._plan[i]
            w = names.get(i, v)  # a "*name" part reads the whole value
            for p in path[1:]:
                src.line(d, f"{w} = {w}.get({p!r}) if isinstance({w}, dict) else None")
            at = offsets[i]
            for s in specs:
                _emit(src, s, w, (base[0], base[1] + at), d)
                at += s.size

    def reads(which: list[int], d: int) -> None:
        if any(spec._plan[i][1] for i in which):
            dv = src.name("d")
            src.line(d, f"{dv} = {v} if isinstance({v}, dict) else _NOTHING")
            for i in which:
                if spec._plan[i][1]:
                    src.line(d, f"{names[i]} = {dv}.get({spec._plan[i][1][0]!r})")

    rest = [i for i in range(len(spec._plan)) if i not in memo]
    if memo:
        # The key is the plain parts' values, read by one C call (``itemgetter``) from a dict holding
        # every key (else no memo).  Equal values give equal floats (True and 1 alike, for a one-hot and a
        # number), except a float: -0.0 == 0.0, yet -0.0 / 10 is not 0.0's bits — a float read by a
        # number is not memoised; an unhashable value (a list, a hidden size) neither.  The slice is
        # copied before the other parts are written: it holds zeros where they go.
        got, known, seg = src.name("g"), src.const({}), src.name("s")
        start, end = _at(base), _at(base, spec.size)
        getter = src.const(operator.itemgetter(*(spec._plan[i][1][0] for i in memo)))
        _attempt(src, depth, f"type({v}) is dict", [(0, f"{got} = {getter}({v})")], "KeyError", got)
        nums = [k for k, i in enumerate(memo) if any(type(s) is Num for s in spec._plan[i][2])]
        guard = " and ".join([got, *(f"(type({got}[{k}]) is not float or {got}[{k}])" for k in nums)])
        _attempt(src, depth, guard, [(0, f"{seg} = {known}.get({got})")], "TypeError", seg)
        src.line(depth, f"if {seg}: out[{start}:{end}] = {seg}")
        src.line(depth, "else:")
        src.line(depth + 1, f"if {got}: {', '.join(names[i] for i in memo)}, = {got}")
        src.line(depth + 1, "else:")
        reads(memo, depth + 2)
        parts(memo, depth + 1)
        # Every node writes only its own floats into a zeroed buffer: the slice is the plain parts'.
        # The memo is bounded: full, it starts again (what a game shows changes as it goes on).
        src.line(depth + 1, f"if {seg} is None:")
        src.line(depth + 2, f"if len({known}) >= {_MEMO}: {known}.clear()")
        src.line(depth + 2, f"{known}[{got}] = out[{start}:{end}]")
    reads(rest, depth)
    parts(rest, depth)


def _emit_fixed(src: _Source, spec: Fixed, v: str, base: _Base, depth: int) -> None:
    """A :class:`Fixed` list: a block of numbers or a row of one-hots in one go when the value has the
    expected shape, else (and for any other item) a loop over the items."""
    item, start = spec.item, _at(base)
    src.line(depth, f"if isinstance({v}, (list, tuple)):")
    depth += 1
    m = _row_length(spec)
    if m is not None:
        # Rows of numbers, mostly zeros (units per region): each row unpacked, only its non-zero numbers
        # written (-0.0 is falsy but a float: written too).  A row of another type or length, or an item
        # that is not a number, raises before it is written: the loop below then redoes the whole list.
        scale = item.item.scale  # type: ignore[attr-defined]
        b, r = src.name("b"), src.name("r")
        xs = [src.name("x") for _ in range(m)]
        body = [(0, f"for {b}, ({', '.join(xs)}{',' if m == 1 else ''}) in zip(range({start}, "
                    f"{start} + {spec.size}, {m}), {v}):")]  # fmt: skip
        for k, x in enumerate(xs):
            value = x if scale == 1.0 else f"{x} / {scale!r}"
            body.append((1, f"if {x} or type({x}) is float: out[{_at((b, k))}] = {value}"))
        body.append((0, f"{r} = True"))
        _attempt(src, depth, f"{{*map(type, {v})}} <= _SEQ", body, "(TypeError, ValueError)", r)
        src.line(depth, f"if not {r}:")
        depth += 1
    elif type(item) is OneHot and item.key is None and _plain(item):
        # A row of one-hots: a table per slot from value to position, so one look-up and one write per
        # item.  An unhashable item raises (after the items before it, each written where the loop
        # below writes it too): the loop then redoes the list.
        assert isinstance(item, OneHot)
        t, x, i, ok = src.name("t"), src.name("x"), src.name("i"), src.name("ok")
        slots = src.const(
            tuple({v: base[1] + k * item.size + j for v, j in item._pos.items()} for k in range(spec.n))
        )
        body = [
            (0, f"for {t}, {x} in zip({slots}, {v}):"),
            (1, f"{i} = {t}.get({x})"),
            (1, f"if {i} is not None: out[{_plus(base[0], i)}] = 1.0"),
            (0, f"{ok} = True"),
        ]
        _attempt(src, depth, None, body, "TypeError", ok)
        src.line(depth, f"if not {ok}:")
        depth += 1
    b, x = src.name("b"), src.name("x")
    # Each item's first float; an item of no floats still sees its value (a game's spec may check it).
    starts = f"range({start}, {start} + {spec.size}, {item.size})" if item.size else f"[{start}] * {spec.n}"
    src.line(depth, f"for {b}, {x} in zip({starts}, {v}):")
    _emit(src, item, x, (b, 0), depth + 1)


def _compile(schema: Record) -> Callable[[Any], array[float]]:
    src = _Source()
    zeros = src.const(bytes(4 * schema.size))
    src.line(0, "def encode(view):")
    src.line(1, f"out = array('f', {zeros})")
    _emit(src, schema, "view", (None, 0), 1)
    src.line(1, "return out")
    scope: dict[str, Any] = {
        "array": array,
        "_number": _number,
        "_SEQ": frozenset({list, tuple}),
        "_NOTHING": {},
        "_WRONG": "{} gave {} floats, not its size",
        **src.consts,
    }
    exec(compile("\n".join(src.lines), f"<observation schema of {schema.size} floats>", "exec"), scope)
    fn: Callable[[Any], array[float]] = scope["encode"]
    return fn


def compiled(schema: Record) -> Callable[[Any], array[float]]:
    """``schema`` as one generated function, ``value → array('f')`` of ``schema.size`` floats: the same
    floats as ``schema.encode``, in one pass (no call per node; zeros are not written).  Built once per
    schema and kept on it."""
    if schema._compiled is None:
        schema._compiled = _compile(schema)
    return schema._compiled
