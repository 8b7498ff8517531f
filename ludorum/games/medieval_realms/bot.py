"""The heuristic bot: places for the cards it wants, contests rich areas, buys and plays cards, bids
within value.  It reads only its seat's JSON view and the legal actions.

Values are in Victory Points: a stored resource is worth half a point at the end (1 VP per 2), so a
card is worth buying when its points exceed about half of what it costs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import CANCEL, Action
from ludorum.engine.bots import ViewBot

RESOURCES = ("production", "science", "culture", "religion", "gold", "raw_material", "battle_point")
BASE_WANT = {
    "production": 3.0,
    "raw_material": 2.4,
    "science": 2.2,
    "religion": 2.0,
    "culture": 1.8,
    "battle_point": 1.8,
    "gold": 1.4,
}
GREAT = ("artist", "missionary", "scientist")


def _arg(a: Action, i: int = 0) -> str:
    return str(a.args[i])


def _num(a: Action) -> int:
    return int(a.args[0])  # type: ignore[arg-type]


class HeuristicBot(ViewBot):
    """A sensible player for Medieval Realms (see the module docstring)."""

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """Pick the action this heuristic values most."""
        kind = legal[0].kind
        me = view["realms"][seat]
        want = _wants(view, me)
        if kind == "extra":
            return max(legal, key=lambda a: want[_arg(a)] + want[_arg(a, 1)] + rng.random() * 0.5)
        if kind in ("mayor", "general", "admiral", "buffer"):
            return _place(view, legal, me, want, rng)
        if kind == "token":
            return max(legal, key=lambda a: want[_arg(a)] + rng.random() * 0.1)
        if view.get("auction") is not None:
            return _bid(view, legal, me)
        return _act(view, legal, seat, me, want, rng)


def _wants(view: Mapping[str, Any], me: Mapping[str, Any]) -> dict[str, float]:
    """How much the realm wants one more token of each resource: base appetite plus shortfalls."""
    want = dict(BASE_WANT)
    have = me["resources"]
    for card in me["display"]:
        r = card["cost_resource"]
        if r and isinstance(card["cost"], int):
            short = card["cost"] - have[r]
            if short > 0:
                want[r] += 3.0 / short + 1.0
    if have["production"] < 4:
        want["production"] += 1.5
    return want


def _place(
    view: Mapping[str, Any],
    legal: Sequence[Action],
    me: Mapping[str, Any],
    want: dict[str, float],
    rng: random.Random,
) -> Action:
    options = [a for a in legal if a != CANCEL]
    if options[0].kind == "mayor":
        planned = dict.fromkeys(RESOURCES, 0)
        for p in me["placement"] or []:
            if p["leader"] == "mayor":
                planned[p["at"]] += 1
        return max(options, key=lambda a: want[_arg(a)] / (1 + planned[_arg(a)]) + rng.random() * 0.3)
    rewards = view["map"]["rewards"]
    mine = {p["at"] for p in me["placement"] or [] if p["leader"] != "mayor"}

    def value(a: Action) -> float:
        reward = rewards[_arg(a)]
        v: float = sum(n * want[r] for r, n in reward.items())
        if a.args[0] in mine and a.kind != "buffer":
            v *= 0.3  # spread out rather than stack
        return v + rng.random() * 4.0  # be hard to predict, so that rivals do not tie

    return max(options, key=value)


def card_value(card: Mapping[str, Any], me: Mapping[str, Any], round_: int) -> float:
    """A rough worth of putting ``card`` into play, in Victory Points."""
    t = card["type"]
    played = me["in_play"]
    colours = {c["colour"] for c in played}
    later = max(0, 7 - round_)
    v = float(card["vp"])
    if t == "castle":
        v += 2 * me["generals"] + me["admirals"] + 0.3 * later
    elif t == "market":
        v += len(colours | {"red"}) + 1
    elif t in GREAT:
        v += 1 + sum(1 for c in played if c["colour"] == card["colour"]) + 2
    elif t == "realm_leader":
        v += 0.8 * later + 1
    elif t == "scientific_development":
        v += 0.5 * me["mayors"]
    elif t == "city":
        v += me["mayors"] + 0.3 * later
    elif t == "territory":
        v += 2.5
    elif t == "tithe":
        v += 2
    elif t == "island":
        v += 1.5
    elif t in ("inquisition", "gunpowder", "university", "docking_bay"):
        v += 0.8 * later + 1
    return v


def _cost(card: Mapping[str, Any]) -> int:
    c = card["cost"]
    return c if isinstance(c, int) else 0


def _act(
    view: Mapping[str, Any],
    legal: Sequence[Action],
    seat: int,
    me: Mapping[str, Any],
    want: dict[str, float],
    rng: random.Random,
) -> Action:
    round_ = view["round"]
    have = me["resources"]
    cards = {c["id"]: c for c in me["display"]}
    panel = {sq["square"]: sq for sq in view["panel"]}
    best, best_value = Action("pass"), 0.4
    for a in legal:
        if a.kind == "play":
            card = cards[a.args[0]]
            v = card_value(card, me, round_) - 0.5 * _cost(card) + 2.0
            if len(a.args) > 1:
                v += 0.1 * want[_arg(a, 1)]
            elif card["type"] == "tithe":
                v -= 2.0  # declining a Tithe's 4 tokens gives up about 2 VP (1 per 2 stored at the end)
        elif a.kind == "activate":
            sq = panel[a.args[0]]
            card = sq["card"]
            price = sq["price"]
            r = card["cost_resource"]
            if card["kind"] == "auction":
                v = card_value(card, me, round_) - 0.5 * min(have[r], 3) - 0.5 if have[r] >= 2 else -1.0
            else:
                short = max(0, _cost(card) - have[r]) if r else 0
                if card["type"] == "island":
                    islands = sum(1 for c in me["in_play"] if c["type"] == "island")
                    short = 2 * max(0, islands + 1 - me["admirals"])
                if short > 3 + (7 - round_):
                    continue
                v = card_value(card, me, round_) - 0.5 * _cost(card) - 0.5 * price - 0.6 * short
                if card["kind"] == "majority" and not _would_get(view, seat, card):
                    continue
                v -= 0.2 * round_ if round_ >= 6 else 0  # late buys may never be played
        else:
            continue
        v += rng.random() * 0.2
        if v > best_value:
            best, best_value = a, v
    return best


def _would_get(view: Mapping[str, Any], seat: int, card: Mapping[str, Any]) -> bool:
    """Whether a majority card activated by ``seat`` would land in its own display."""
    r = card["cost_resource"]
    able = [
        p
        for p in view["realms"]
        if len(p["display"]) < 4 and all(c["colour"] != card["colour"] for c in p["display"])
    ]
    mine = view["realms"][seat]
    if mine not in able:
        return False
    return all(mine["resources"][r] >= p["resources"][r] for p in able)


def _bid(view: Mapping[str, Any], legal: Sequence[Action], me: Mapping[str, Any]) -> Action:
    card = view["auction"]["card"]
    worth = card_value(card, me, view["round"])
    limit = int(worth * (2.0 if card["cost_resource"] == "gold" else 1.2))
    bids = sorted((a for a in legal if a.kind == "bid"), key=_num)
    if bids and _num(bids[0]) <= max(1, limit):
        return bids[0]
    return Action("pass") if Action("pass") in legal else (bids[0] if bids else legal[-1])
