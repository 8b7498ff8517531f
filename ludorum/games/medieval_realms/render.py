"""What a seat sees (the JSON view a renderer or bot gets), the terminal text and action labels."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ludorum.engine import CANCEL, Action
from ludorum.engine.i18n import N_, T, say

from .cards import cost
from .content import CARDS, CONTENT, RESOURCE_LABEL, RESOURCES, Card
from .ending import final_scores
from .placement import COMBAT, KIND_WORDS, areas, describe_spot, strengths
from .state import (
    ACTIONS,
    EV_AUCTION,
    EV_DISCARD,
    EV_MAJORITY,
    EV_PASS,
    EV_PLAY,
    EV_REALM,
    EV_REVEAL,
    EVENT_KINDS,
    EXTRAS,
    MAYOR,
    OVER,
    PHASE_NAMES,
    PLACE,
    ROUNDS,
    SPOT,
    RealmsState,
)

if TYPE_CHECKING:
    from ludorum.engine import Game


_CARD_TABLES: dict[int, tuple[dict[str, Any], ...]] = {}
_NESTED = frozenset(c.id for c in CARDS if c.condition)
"""The cards whose JSON holds a dict of its own (``"condition"``), which a copy must copy too."""


def _card_table(players: int) -> tuple[dict[str, Any], ...]:
    """Every card's JSON for ``players``, by id: built once per player count, handed out only as copies."""
    table = _CARD_TABLES.get(players)
    if table is None:
        table = _CARD_TABLES[players] = tuple(_card_json(c, players) for c in CARDS)
    return table


def card_json(card: Card, players: int) -> dict[str, Any]:
    """A card as a renderer needs it (built once per card and player count, handed out as a copy)."""
    return _copy_card(_card_table(players)[card.id])


def _cards(ids: tuple[int, ...], table: tuple[dict[str, Any], ...], fresh: bool = True) -> list[Any]:
    """Fresh copies of the JSON of the cards ``ids`` (-1: an empty place, ``None``): a view holds forty
    or so cards, so the common case (no dict inside) copies in line rather than through a call per card.
    Not ``fresh``: the cached JSON itself, equal to the copies, for a comparison."""
    if not fresh:
        return [None if c < 0 else table[c] for c in ids]
    nested = _NESTED
    return [None if c < 0 else table[c].copy() if c not in nested else _copy_card(table[c]) for c in ids]


def _copy_card(cached: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a cached card's JSON (its one nested dict too): views are the caller's to change."""
    out = dict(cached)
    if "condition" in out:
        out["condition"] = dict(out["condition"])
    return out


def _card_json(card: Card, players: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": card.id,
        "name": card.name,
        "type": card.type,
        "colour": card.colour,
        "kind": card.kind,
        "cost_resource": RESOURCES[card.cost_resource] if card.cost_resource >= 0 else None,
        "cost": "bid" if card.cost == -1 else ("admirals" if card.cost == -3 else cost(card, players)),
        "vp": card.vp,
        "great_person": card.great_person,
    }
    if card.resource >= 0:
        out["resource"] = RESOURCES[card.resource]
    if card.leader:
        out["leader"] = card.leader
    if card.city_colour:
        out["city_colour"] = card.city_colour
    if card.condition:
        out["condition"] = {
            "kind": card.condition,
            "amount": card.amount,
            "colour": card.condition_colour or None,
        }
    return out


COMBAT_VALUE = {MAYOR: 0, **COMBAT}
"""Each placed leader's combat value on the Realm's Map (Rulebook › Place the Leader Tokens)."""


_SPOT_JSON: dict[int, dict[str, Any]] = {}


def spot_json(spot: int) -> dict[str, Any]:
    """A placed leader: its kind, where ("science" or an area number), its combat value and the words.

    Built once per spot and handed out as a copy: views are built in search loops and the conformance
    kit's disclosure checks (a few hundred per step), and the words are the costly part."""
    cached = _SPOT_JSON.get(spot)
    if cached is None:
        kind, where = divmod(spot, SPOT)
        at: str | int = RESOURCES[where] if kind == MAYOR else where
        cached = _SPOT_JSON[spot] = {
            "leader": KIND_WORDS[kind],
            "at": at,
            "combat": COMBAT_VALUE[kind],
            "text": describe_spot(spot),
        }
    return dict(cached)


def _spots(spots: tuple[int, ...], fresh: bool = True) -> list[dict[str, Any]]:
    """Fresh copies of placed leaders' JSON (:func:`spot_json`), without a call per leader once built
    (not ``fresh``: the cached JSON itself, for a comparison)."""
    cache = _SPOT_JSON
    if not fresh:
        return [d if (d := cache.get(sp)) is not None else spot_json(sp) for sp in spots]
    return [d.copy() if (d := cache.get(sp)) is not None else spot_json(sp) for sp in spots]


def _res(values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(RESOURCES, values, strict=True))


def describe_event(event: tuple[int, ...]) -> str:
    """A public log entry in words."""
    code, seat, card, amount = event
    who = T(CONTENT.realm_colours[seat]) if seat >= 0 else T("nobody")
    name = T(CARDS[card].name) if card >= 0 else ""
    if code == EV_MAJORITY:
        if seat < 0:
            return T("{card} (majority card) could go to nobody and was discarded", card=name)
        return T(
            "{card} (majority card, activated by {realm}) goes to {who}",
            card=name,
            realm=T(CONTENT.realm_colours[amount]),
            who=who,
        )
    if code == EV_AUCTION:
        label = resource_word(CARDS[card].cost_resource)
        return T(
            "{who} wins the auction for {card} for {n} {resource}",
            who=who,
            card=name,
            n=amount,
            resource=label,
        )
    if code == EV_REALM:
        return T(
            "{who} buys {card} into the Personal Display for {n} Production", who=who, card=name, n=amount
        )
    if code == EV_PLAY:
        return T("{who} puts {card} into play", who=who, card=name)
    if code == EV_PASS:
        return T("{who} passes", who=who)
    if code == EV_REVEAL:
        return T("Round {n}: the walls come down; {who} is the start player", n=amount, who=who)
    if code == EV_DISCARD:
        return T("{card} is discarded from the Current Events Panel", card=name)
    return str(event)


def event_json(event: tuple[int, ...], players: int) -> dict[str, Any]:
    """A public log entry as the view gives it: ``{kind, seat, card, amount, text}``.

    ``kind`` is one of :data:`~.state.EVENT_KINDS`; ``seat`` is the realm concerned (the majority card's
    receiver, the auction's winner, the buyer, the new start player) or ``None``; ``card`` the card (or
    ``None``); ``amount`` the winning bid, the price paid or the round (or ``None``).  A majority award
    also names its ``activator``.
    """
    return _events((event,), players)[0]


_EVENT_JSON: dict[int, dict[tuple[int, ...], dict[str, Any]]] = {}
"""Per player count, each event's JSON: built once (as cards are), handed out as copies."""


def _event_json(event: tuple[int, ...], players: int) -> dict[str, Any]:
    code, seat, card, amount = event
    out = {
        "kind": EVENT_KINDS[code],
        "seat": seat if seat >= 0 else None,
        "card": card_json(CARDS[card], players) if card >= 0 else None,
        "amount": amount if code in (EV_AUCTION, EV_REALM, EV_REVEAL) else None,
        "text": describe_event(event),
    }
    if code == EV_MAJORITY:
        out["activator"] = amount
    return out


def _events(events: tuple[tuple[int, ...], ...], players: int, fresh: bool = True) -> list[dict[str, Any]]:
    """Fresh copies of the events' JSON (:func:`event_json`), their cards copied too (not ``fresh``:
    the cached JSON itself, for a comparison)."""
    cache = _EVENT_JSON.setdefault(players, {})
    table = _card_table(players)
    out = []
    for e in events:
        cached = cache.get(e)
        if cached is None:
            cached = cache[e] = _event_json(e, players)
        if fresh:
            cached = cached.copy()
            c = e[2]
            if c >= 0:
                cached["card"] = _copy_card(table[c])
        out.append(cached)
    return out


def map_strengths(s: RealmsState) -> dict[str, list[int]] | None:
    """After the reveal, each area's combat value per seat (Rulebook › Get Resources); ``None`` before."""
    if not all(s.revealed):
        return None
    return {area: list(values) for area, values in _map_strengths(s.revealed, s.config.players)}


@functools.lru_cache(maxsize=4096)
def _map_strengths(
    revealed: tuple[tuple[int, ...], ...], players: int
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """:func:`map_strengths` of one placement, computed once: every view of a round shows the same."""
    return tuple(
        (str(area), tuple(value for value, _ in st))
        for area, st in enumerate(strengths(revealed, players), 1)
    )


_REWARDS: dict[int, dict[str, dict[str, int]]] = {}


def map_rewards(players: int) -> dict[str, dict[str, int]]:
    """Each area's reward in resources (a fresh copy of a table built once per player count)."""
    return _map_rewards(players, True)


def _map_rewards(players: int, fresh: bool) -> dict[str, dict[str, int]]:
    """:func:`map_rewards` (not ``fresh``: the table itself, for a comparison)."""
    cached = _REWARDS.get(players)
    if cached is None:
        cached = _REWARDS[players] = {
            str(i): _res(CONTENT.area_rewards[i]) for i in range(1, areas(players) + 1)
        }
    return {area: reward.copy() for area, reward in cached.items()} if fresh else cached


_Part = Callable[["Game[RealmsState]", RealmsState, "int | None", bool], Any]
"""How one key of the view is built: ``(game, state, seat, fresh)`` to its value.  ``fresh``: the value is
the caller's (cached JSON handed out as copies); otherwise it may share the caches, for a comparison."""


def _placement(s: RealmsState, p: int, seat: int | None, fresh: bool) -> list[dict[str, Any]] | None:
    """A realm's placed leaders as ``seat`` sees them: all once revealed, its own while placing."""
    if s.revealed[p]:
        return _spots(s.revealed[p], fresh)
    if p == seat:
        return _spots(s.placing[p], fresh)
    return None


def _realm(s: RealmsState, p: int, seat: int | None, fresh: bool) -> dict[str, Any]:
    """Realm ``p`` as ``seat`` sees it."""
    table = _card_table(s.config.players)
    return {
        "seat": p,
        "colour": CONTENT.realm_colours[p],
        "king_queen_card": CONTENT.realm_cards[p],
        "resources": _res(s.res[p]),
        "vp": s.vp[p],
        "mayors": s.mayors[p],
        "generals": s.generals[p],
        "admirals": s.admirals[p],
        "display": _cards(s.display[p], table, fresh),
        "in_play": _cards(s.in_play[p], table, fresh),
        "extras": [RESOURCES[r] for r in s.extras[p]],
        "passed": s.passed[p],
        "placed": s.committed[p] or bool(s.revealed[p]),
        "placement": _placement(s, p, seat, fresh),
        "controlled_areas": list(s.controlled[p]),
        "tokens_owed": s.dues[p],
        "turn_position": s.order.index(p) + 1,
    }


def _auction(game: Game[RealmsState], s: RealmsState, seat: int | None, fresh: bool) -> dict[str, Any] | None:
    """The auction being bid, with every bid and pass so far (``None``: no auction)."""
    a = s.auction
    if a is None:
        return None
    return {
        "card": _cards((a.card,), _card_table(s.config.players), fresh)[0],
        "square": a.square + 1,
        "activator": a.activator,
        "bid": a.bid,
        "leader": a.leader if a.leader >= 0 else None,
        "bidder": a.bidder,
        "out": list(a.out),
        "history": [[bidder, bid or None] for bidder, bid in a.history],
    }


def _final(game: Game[RealmsState], s: RealmsState, seat: int | None, fresh: bool) -> list[dict[str, Any]]:
    """Every realm's final tally (shown once the game is over)."""
    return [
        {
            "seat": p,
            "total": f.total,
            "track": f.track,
            "end_effects": f.end_effects,
            "resources": f.resources,
            "great_persons": f.great_persons,
        }
        for p, f in enumerate(final_scores(s))
    ]


_PARTS: tuple[tuple[str, _Part], ...] = (
    ("you", lambda game, s, seat, fresh: seat),
    ("round", lambda game, s, seat, fresh: s.round),
    ("rounds", lambda game, s, seat, fresh: ROUNDS),
    ("phase", lambda game, s, seat, fresh: PHASE_NAMES[s.phase]),
    ("to_move", lambda game, s, seat, fresh: None if s.phase == OVER else game.to_move(s)),
    ("turn_order", lambda game, s, seat, fresh: list(s.order)),
    ("start_player", lambda game, s, seat, fresh: s.order[0]),
    ("acting", lambda game, s, seat, fresh: s.order[s.turn] if s.phase == ACTIONS else None),
    (
        "panel",
        lambda game, s, seat, fresh: [
            {"square": i + 1, "price": 1 + i // 4, "card": card}
            for i, card in enumerate(_cards(s.panel, _card_table(s.config.players), fresh))
        ],
    ),
    ("future", lambda game, s, seat, fresh: _cards(s.future, _card_table(s.config.players), fresh)),
    ("deck_size", lambda game, s, seat, fresh: len(s.deck)),
    ("discards", lambda game, s, seat, fresh: [{"id": c, "name": CARDS[c].name} for c in s.discards]),
    ("realms", lambda game, s, seat, fresh: [_realm(s, p, seat, fresh) for p in range(s.config.players)]),
    ("auction", _auction),
    (
        "map",
        lambda game, s, seat, fresh: {
            "areas": areas(s.config.players),
            "rewards": _map_rewards(s.config.players, fresh),
            "strengths": map_strengths(s),
        },
    ),
    ("events", lambda game, s, seat, fresh: _events(s.events, s.config.players, fresh)),
)
"""The view, key by key, in its order (``"final"`` follows once the game is over: :func:`_final`)."""

_PART = {**dict(_PARTS), "final": _final}
_KEYS = frozenset(name for name, _ in _PARTS)
_KEYS_OVER = _KEYS | {"final"}

_MATCH_ORDER = (
    "phase",
    "round",
    "to_move",
    "acting",
    "turn_order",
    "deck_size",
    "realms",
    "auction",
    "future",
    "discards",
    "panel",
    "events",
    "map",
    "start_player",
    "you",
    "rounds",
)
"""The order :func:`view_matches` compares the view's keys in: a disclosure's draws differ mostly in
whose turn it is and in the realms (a placement revealed, resources gained); the cheap keys first."""


def view(game: Game[RealmsState], s: RealmsState, seat: int | None) -> dict[str, Any]:
    """The seat's view: public table, its own placement, never the deck order or others' placements."""
    out = {name: part(game, s, seat, True) for name, part in _PARTS}
    if s.phase == OVER:
        out["final"] = _final(game, s, seat, True)
    return out


def view_matches(game: Game[RealmsState], s: RealmsState, seat: int | None, seen: Mapping[str, Any]) -> bool:
    """Exactly ``view(game, s, seat) == seen``, key by key (the realms one by one), stopping at the first
    difference and sharing the cached JSON rather than copying it: the disclosure's readings ask this of
    thousands of states whose views mostly differ."""
    if seen.keys() != (_KEYS_OVER if s.phase == OVER else _KEYS):
        return False
    for name in _MATCH_ORDER:
        if name == "realms":
            if not _realms_match(s, seat, seen["realms"]):
                return False
        elif _PART[name](game, s, seat, False) != seen[name]:
            return False
    return s.phase != OVER or _final(game, s, seat, False) == seen["final"]


def _realms_match(s: RealmsState, seat: int | None, seen: Any) -> bool:
    """Whether ``seen`` equals the realms' part of the view, realm by realm (as a list compares)."""
    n = s.config.players
    if type(seen) is not list or len(seen) != n:
        return bool([_realm(s, p, seat, False) for p in range(n)] == seen)  # as ``==`` would answer
    return all(_realm(s, p, seat, False) == realm for p, realm in enumerate(seen))


def describe_action(s: RealmsState, action: Action) -> str:
    """An action in the rulebook's words."""
    k, args = action.kind, action.args
    if action == CANCEL:
        if s.auction is not None:
            return T("Take back the activation of the auction card")
        return T("Take back the leaders placed this round")
    if k == "extra":
        return T("Take one {a} and one {b} token (extra resources)", a=_label(args[0]), b=_label(args[1]))
    if k == "mayor":
        return T("Place a Mayor on {resource}", resource=_label(args[0]))
    if k == "general":
        return T("Place a General on area {n}", n=args[0])
    if k == "admiral":
        return T("Place an Admiral on area {n}", n=args[0])
    if k == "buffer":
        return T("Place a buffer Mayor on area {n}", n=args[0])
    if k == "activate" and isinstance(args[0], int) and 1 <= args[0] <= 12 and s.panel[args[0] - 1] >= 0:
        card = CARDS[s.panel[args[0] - 1]]
        if card.kind == "auction":
            return T("Activate {card} (square {n}) and open the auction", card=T(card.name), n=args[0])
        return T(
            "Activate {card} ({kind} card, square {n}, {price} Production)",
            card=T(card.name),
            kind=T(card.kind),
            n=args[0],
            price=1 + (args[0] - 1) // 4,
        )
    if k == "play" and isinstance(args[0], int) and 0 <= args[0] < len(CARDS):
        card = CARDS[args[0]]
        if len(args) > 1:
            return T("Put {card} into play, taking 4 {resource}", card=T(card.name), resource=_label(args[1]))
        if card.type == "tithe":
            return T("Put {card} into play, taking no tokens", card=T(card.name))
        return T("Put {card} into play", card=T(card.name))
    if k == "pass":
        return T("Pass on this auction") if s.auction is not None else T("Pass")
    if k == "bid" and s.auction is not None:
        return T("Bid {n} {resource}", n=args[0], resource=resource_word(CARDS[s.auction.card].cost_resource))
    if k == "token":
        return T("Take a {resource} token (Victory Point track)", resource=_label(args[0]))
    return str(action)


RESOURCE_WORDS = (
    N_("Production"),
    N_("Science"),
    N_("Culture"),
    N_("Religion"),
    N_("Gold"),
    N_("Raw Material"),
    N_("Battle Point"),
)
"""The resources' names as messages (the same as ``RESOURCE_LABEL``, for the catalog)."""
CARD_KINDS = (N_("auction"), N_("majority"), N_("realm"))
"""Card kinds as messages (``Card.kind``), for the catalog."""


def resource_word(index: int) -> str:
    """A resource's label in the reader's language."""
    return T(RESOURCE_LABEL[index])


def _label(name: object) -> str:
    return resource_word(RESOURCES.index(name)) if name in RESOURCES else str(name)


def _named(name: str) -> str:
    """A content name (from the data files, where the catalog finds it) in the reader's language."""
    return T(name)


COSTS = {"bid": N_("bid"), "admirals": N_("admirals")}
"""The view's words for costs that are not a number (an auction's bid, an Island's Admirals)."""


def _card_line(c: dict[str, Any]) -> str:
    cost_word = _named(COSTS[c["cost"]]) if c["cost"] in COSTS else c["cost"]
    cost = (
        T("{n} {resource}", n=cost_word, resource=_label(c["cost_resource"]))
        if c["cost_resource"]
        else cost_word
    )
    kind, colour = _named(c["kind"]), _named(c["colour"])
    return T(
        "{card} ({colour}, {kind}, cost {cost})", card=_named(c["name"]), colour=colour, kind=kind, cost=cost
    )


def render_text(game: Game[RealmsState], s: RealmsState, seat: int | None) -> str:
    """The seat's view as terminal text, in the current language (``i18n.say`` of its messages)."""
    v = view(game, s, seat)
    colour = [say(T(c)) for c in CONTENT.realm_colours]
    phases = {EXTRAS: T("extra resources"), PLACE: T("placing leaders"), ACTIONS: T("actions")}
    phase = phases.get(s.phase, v["phase"])
    lines = [
        say(T("MEDIEVAL REALMS — round {n}/{rounds}, {phase}", n=v["round"], rounds=ROUNDS, phase=phase))
    ]
    order = ", ".join(f"{i + 1}. {colour[p]}" for i, p in enumerate(v["turn_order"]))
    lines.append(say(T("Turn order: {order}", order=order)))
    lines.append(say(T("Current Events Panel:")))
    for sq in v["panel"]:
        card = say(_card_line(sq["card"])) if sq["card"] else "—"
        lines.append(f"  {sq['square']:>2} ({sq['price']}P) {card}")
    if s.phase == PLACE:
        rewards = []
        for area, reward in v["map"]["rewards"].items():
            gains = "+".join(f"{n} {say(_label(r))}" for r, n in reward.items() if n)
            rewards.append(f"{area}: {gains}")
        lines.append(say(T("Realm's Map: {rewards}", rewards="; ".join(rewards))))
    future = "; ".join(say(_named(c["name"])) if c else "—" for c in v["future"])
    lines.append(say(T("Future Events: {future}   (deck: {n} cards)", future=future, n=v["deck_size"])))
    for r in v["realms"]:
        mark = " " + say(T("(you)")) if r["seat"] == seat else ""
        status = " " + say(T("passed")) if r["passed"] and s.phase == ACTIONS else ""
        if v["acting"] == r["seat"] and not r["passed"]:
            status = " — " + say(T("to act"))
        if r["tokens_owed"]:
            status += " — " + say(T("owed {n} token(s) of choice", n=r["tokens_owed"]))
        leaders = T("Mayors {m}, Generals {g}, Admirals {a}", m=r["mayors"], g=r["generals"], a=r["admirals"])
        vp = say(T("{vp} VP", vp=r["vp"]))
        lines.append(f"{colour[r['seat']]}{mark}: {vp}{status}; {say(leaders)}")
        manor = ", ".join(f"{say(resource_word(i))} {n}" for i, n in enumerate(r["resources"].values()))
        lines.append("  " + say(T("Manor: {resources}", resources=manor)))
        if r["display"]:
            cards = "; ".join(say(_card_line(c)) for c in r["display"])
            lines.append("  " + say(T("Display: {cards}", cards=cards)))
        if r["in_play"]:
            cards = ", ".join(say(_named(c["name"])) for c in r["in_play"])
            lines.append("  " + say(T("In play: {cards}", cards=cards)))
        if r["placement"] is not None and (s.phase == PLACE or r["placement"]):
            won = ", ".join(map(str, r["controlled_areas"]))
            areas_won = " — " + say(T("controls area {areas}", areas=won)) if won else ""
            placed = ", ".join(say(p["text"]) for p in r["placement"]) or say(T("none placed yet"))
            lines.append("  " + say(T("Leaders: {leaders}", leaders=placed)) + areas_won)
        elif s.phase == PLACE:
            done = " " + say(T("(done)")) if r["placed"] else ""
            lines.append("  " + say(T("Leaders: behind the Defensive Wall")) + done)
    if v["auction"]:
        a = v["auction"]
        leader = colour[a["leader"]] if a["leader"] is not None else say(T("no one yet"))
        high = T(
            "AUCTION: {card} — high bid {bid} by {leader}",
            card=_named(a["card"]["name"]),
            bid=a["bid"],
            leader=leader,
        )
        lines.append(say(high))
        passes = say(T("passes"))
        bids = [f"{colour[p]} {passes if b is None else b}" for p, b in a["history"]]
        if bids:
            lines.append("  " + say(T("Bids: {bids}", bids=", ".join(bids))))
    for e in v["events"][-5:]:
        lines.append(f"  · {say(e['text'])}")
    if "final" in v:
        for f in v["final"]:
            lines.append(say(T("FINAL {realm}: {total} VP", realm=colour[f["seat"]], total=f["total"])))
    return "\n".join(lines)
