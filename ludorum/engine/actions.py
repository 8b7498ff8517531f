"""Actions: small immutable values with a stable JSON form.

An action is a ``kind`` (a short word from the rulebook: ``"march"``, ``"recruit"``, ``"pass"``) and a
tuple of ``args`` — JSON scalars or tuples of them (region numbers, unit lists, a card id).  Being a
named tuple it is hashable, compares by value and costs almost nothing to build, which matters inside
search loops.  Its human label is the game's business (``Game.describe``), because only the game knows
that region 7 is the Wasteland.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias

from ludorum.engine.errors import CodecError

Scalar: TypeAlias = int | str | bool | None
Arg: TypeAlias = "Scalar | tuple[Arg, ...]"


class Action(NamedTuple):
    """One atomic decision: a kind and its positional arguments."""

    kind: str
    args: tuple[Arg, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The stable JSON form: ``{"kind": ..., "args": [...]}`` (tuples become lists)."""
        return {"kind": self.kind, "args": [_arg_to_json(a) for a in self.args]}

    @staticmethod
    def from_json(data: Any) -> Action:
        """Decode the JSON form, refusing anything that is not exactly an action."""
        if not isinstance(data, dict) or set(data) - {"kind", "args"} or "kind" not in data:
            raise CodecError(f"an action is an object with 'kind' and 'args', not {data!r:.80}")
        kind, args = data["kind"], data.get("args", [])
        if not isinstance(kind, str) or not kind:
            raise CodecError(f"an action's kind is a non-empty string, not {kind!r:.40}")
        if not isinstance(args, list):
            raise CodecError(f"an action's args are a list, not {args!r:.40}")
        return Action(kind, tuple(_arg_from_json(a) for a in args))

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        return f"{self.kind}({', '.join(map(repr, self.args))})"


def _arg_to_json(arg: Arg) -> Any:
    if isinstance(arg, tuple):
        return [_arg_to_json(a) for a in arg]
    return arg


def _arg_from_json(data: Any, depth: int = 0) -> Arg:
    if depth > 4:
        raise CodecError("an action's args nest at most four deep")
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return tuple(_arg_from_json(a, depth + 1) for a in data)
    raise CodecError(f"an action's argument is a number, string, boolean, null or list, not {data!r:.40}")
