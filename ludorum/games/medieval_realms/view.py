"""What a seat sees (the JSON view a renderer or bot gets), the terminal text and action labels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludorum.engine import CANCEL, Action

from .cards import cost
from .content import CARDS, CONTENT, RESOURCE_LABEL, RESOURCES, Card
from .ending import final_scores
from .placement import KIND_WORDS, areas, describe_spot, strengths
from .state import (
    ACTIONS,
    ADMIRAL,
    BUFFER,
    COMBAT_ADMIRAL,
    COMBAT_BUFFER,
    COMBAT_GENERAL,
    EV_AUCTION,
    EV_DISCARD,
    EV_MAJORITY,
    EV_PASS,
    EV_PLAY,
    EV_REALM,
    EV_REVEAL,
    EVENT_KINDS,
    GENERAL,
    MAYOR,
    OVER,
    PHASE_NAMES,
    PLACE,
    ROUNDS,
    SPOT,
    RealmsState,
)

if TYPE_CHECKING:
    from .game import MedievalRealms


_CARD_JSON: dict[tuple[int, int], dict[str, Any]] = {}


def card_json(card: Card, players: int) -> dict[str, Any]:
    """A card as a renderer needs it (built once per card and player count, handed out as a copy)."""
    cached = _CARD_JSON.get((card.id, players))
    if cached is None:
        cached = _CARD_JSON[(card.id, players)] = _card_json(card, players)
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


COMBAT_VALUE = {MAYOR: 0, GENERAL: COMBAT_GENERAL, ADMIRAL: COMBAT_ADMIRAL, BUFFER: COMBAT_BUFFER}
"""Each placed leader's combat value on the Realm's Map (Rulebook › Place the Leader Tokens)."""


def spot_json(spot: int) -> dict[str, Any]:
    """A placed leader: its kind, where ("science" or an area number), its combat value and the words."""
    kind, where = divmod(spot, SPOT)
    at: str | int = RESOURCES[where] if kind == MAYOR else where
    return {"leader": KIND_WORDS[kind], "at": at, "combat": COMBAT_VALUE[kind], "text": describe_spot(spot)}


def _res(values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(RESOURCES, values, strict=True))


def describe_event(event: tuple[int, ...]) -> str:
    """A public log entry in words."""
    code, seat, card, amount = event
    who = CONTENT.realm_colours[seat] if seat >= 0 else "nobody"
    name = CARDS[card].name if card >= 0 else ""
    if code == EV_MAJORITY:
        if seat < 0:
            return f"{name} (majority card) could go to nobody and was discarded"
        return f"{name} (majority card, activated by {CONTENT.realm_colours[amount]}) goes to {who}"
    if code == EV_AUCTION:
        label = RESOURCE_LABEL[CARDS[card].cost_resource]
        return f"{who} wins the auction for {name} for {amount} {label}"
    if code == EV_REALM:
        return f"{who} buys {name} into the Personal Display for {amount} Production"
    if code == EV_PLAY:
        return f"{who} puts {name} into play"
    if code == EV_PASS:
        return f"{who} passes"
    if code == EV_REVEAL:
        return f"Round {amount}: the walls come down; {who} is the start player"
    if code == EV_DISCARD:
        return f"{name} is discarded from the Current Events Panel"
    return str(event)


def event_json(event: tuple[int, ...], players: int) -> dict[str, Any]:
    """A public log entry as the view gives it: ``{kind, seat, card, amount, text}``.

    ``kind`` is one of :data:`~.state.EVENT_KINDS`; ``seat`` is the realm concerned (the majority card's
    receiver, the auction's winner, the buyer, the new start player) or ``None``; ``card`` the card (or
    ``None``); ``amount`` the winning bid, the price paid or the round (or ``None``).  A majority award
    also names its ``activator``.
    """
    code, seat, card, amount = event
    out: dict[str, Any] = {
        "kind": EVENT_KINDS[code],
        "seat": seat if seat >= 0 else None,
        "card": card_json(CARDS[card], players) if card >= 0 else None,
        "amount": amount if code in (EV_AUCTION, EV_REALM, EV_REVEAL) else None,
        "text": describe_event(event),
    }
    if code == EV_MAJORITY:
        out["activator"] = amount
    return out


def map_strengths(s: RealmsState) -> dict[str, list[int]] | None:
    """After the reveal, each area's combat value per seat (Rulebook › Get Resources); ``None`` before."""
    if not all(s.revealed):
        return None
    return {
        str(area): [value for value, _ in strengths(s.revealed, area)]
        for area in range(1, areas(s.config.players) + 1)
    }


def view(game: MedievalRealms, s: RealmsState, seat: int | None) -> dict[str, Any]:
    """The seat's view: public table, its own placement, never the deck order or others' placements."""
    n = s.config.players
    over = s.phase == OVER
    to_move = None if over else game.to_move(s)
    realms = []
    for p in range(n):
        if s.revealed[p]:
            shown: list[dict[str, Any]] | None = [spot_json(sp) for sp in s.revealed[p]]
        elif p == seat:
            shown = [spot_json(sp) for sp in s.placing[p]]
        else:
            shown = None
        realms.append(
            {
                "seat": p,
                "colour": CONTENT.realm_colours[p],
                "king_queen_card": CONTENT.realm_cards[p],
                "resources": _res(s.res[p]),
                "vp": s.vp[p],
                "mayors": s.mayors[p],
                "generals": s.generals[p],
                "admirals": s.admirals[p],
                "display": [card_json(CARDS[c], n) for c in s.display[p]],
                "in_play": [card_json(CARDS[c], n) for c in s.in_play[p]],
                "extras": [RESOURCES[r] for r in s.extras[p]],
                "passed": s.passed[p],
                "placed": s.committed[p] or bool(s.revealed[p]),
                "placement": shown,
                "controlled_areas": list(s.controlled[p]),
                "tokens_owed": s.dues[p],
                "turn_position": s.order.index(p) + 1,
            }
        )
    a = s.auction
    out: dict[str, Any] = {
        "you": seat,
        "round": s.round,
        "rounds": ROUNDS,
        "phase": PHASE_NAMES[s.phase],
        "to_move": to_move,
        "turn_order": list(s.order),
        "start_player": s.order[0],
        "acting": s.order[s.turn] if s.phase == ACTIONS else None,
        "panel": [
            {"square": i + 1, "price": 1 + i // 4, "card": card_json(CARDS[c], n) if c >= 0 else None}
            for i, c in enumerate(s.panel)
        ],
        "future": [card_json(CARDS[c], n) if c >= 0 else None for c in s.future],
        "deck_size": len(s.deck),
        "discards": [{"id": c, "name": CARDS[c].name} for c in s.discards],
        "realms": realms,
        "auction": None
        if a is None
        else {
            "card": card_json(CARDS[a.card], n),
            "square": a.square + 1,
            "activator": a.activator,
            "bid": a.bid,
            "leader": a.leader if a.leader >= 0 else None,
            "bidder": a.bidder,
            "out": list(a.out),
            "history": [[seat, bid or None] for seat, bid in a.history],
        },
        "map": {
            "areas": areas(n),
            "rewards": {str(i): _res(CONTENT.area_rewards[i]) for i in range(1, areas(n) + 1)},
            "strengths": map_strengths(s),
        },
        "events": [event_json(e, n) for e in s.events],
    }
    if over:
        out["final"] = [
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
    return out


def describe_action(s: RealmsState, action: Action) -> str:
    """An action in the rulebook's words."""
    k, args = action.kind, action.args
    if action == CANCEL:
        if s.auction is not None:
            return "Take back the activation of the auction card"
        return "Take back the leaders placed this round"
    if k == "extra":
        return f"Take one {_label(args[0])} and one {_label(args[1])} token (extra resources)"
    if k == "mayor":
        return f"Place a Mayor on {_label(args[0])}"
    if k in ("general", "admiral"):
        return f"Place a{'n' if k == 'admiral' else ''} {k.title()} on area {args[0]}"
    if k == "buffer":
        return f"Place a buffer Mayor on area {args[0]}"
    if k == "activate" and isinstance(args[0], int) and 1 <= args[0] <= 12 and s.panel[args[0] - 1] >= 0:
        card = CARDS[s.panel[args[0] - 1]]
        if card.kind == "auction":
            return f"Activate {card.name} (square {args[0]}) and open the auction"
        return (
            f"Activate {card.name} ({card.kind} card, square {args[0]}, {1 + (args[0] - 1) // 4} Production)"
        )
    if k == "play" and isinstance(args[0], int) and 0 <= args[0] < len(CARDS):
        card = CARDS[args[0]]
        extra = f", taking 4 {_label(args[1])}" if len(args) > 1 else ""
        if card.type == "tithe" and len(args) == 1:
            extra = ", taking no tokens"
        return f"Put {card.name} into play{extra}"
    if k == "pass":
        return "Pass on this auction" if s.auction is not None else "Pass"
    if k == "bid" and s.auction is not None:
        return f"Bid {args[0]} {RESOURCE_LABEL[CARDS[s.auction.card].cost_resource]}"
    if k == "token":
        return f"Take a {_label(args[0])} token (Victory Point track)"
    return str(action)


def _label(name: object) -> str:
    return RESOURCE_LABEL[RESOURCES.index(name)] if name in RESOURCES else str(name)


def _card_line(c: dict[str, Any]) -> str:
    cost_text = f"{c['cost']} {c['cost_resource'] or ''}".strip()
    return f"{c['name']} ({c['colour']}, {c['kind']}, cost {cost_text})"


def render_text(game: MedievalRealms, s: RealmsState, seat: int | None) -> str:
    """The seat's view as terminal text."""
    v = view(game, s, seat)
    lines = [f"MEDIEVAL REALMS — round {v['round']}/{ROUNDS}, {v['phase']}"]
    order = ", ".join(f"{i + 1}. {CONTENT.realm_colours[p]}" for i, p in enumerate(v["turn_order"]))
    lines.append(f"Turn order: {order}")
    lines.append("Current Events Panel:")
    for sq in v["panel"]:
        card = _card_line(sq["card"]) if sq["card"] else "—"
        lines.append(f"  {sq['square']:>2} ({sq['price']}P) {card}")
    if s.phase == PLACE:
        rewards = []
        for area, reward in v["map"]["rewards"].items():
            gains = "+".join(f"{n} {RESOURCE_LABEL[RESOURCES.index(r)]}" for r, n in reward.items() if n)
            rewards.append(f"{area}: {gains}")
        lines.append("Realm's Map: " + "; ".join(rewards))
    future = "; ".join(c["name"] if c else "—" for c in v["future"])
    lines.append(f"Future Events: {future}   (deck: {v['deck_size']} cards)")
    for r in v["realms"]:
        mark = " (you)" if r["seat"] == seat else ""
        status = " passed" if r["passed"] and s.phase == ACTIONS else ""
        if v["acting"] == r["seat"] and not r["passed"]:
            status = " — to act"
        if r["tokens_owed"]:
            status += f" — owed {r['tokens_owed']} token(s) of choice"
        lines.append(
            f"{r['colour']}{mark}: {r['vp']} VP{status}; Mayors {r['mayors']}, Generals "
            f"{r['generals']}, Admirals {r['admirals']}"
        )
        lines.append(
            "  Manor: " + ", ".join(f"{RESOURCE_LABEL[i]} {n}" for i, n in enumerate(r["resources"].values()))
        )
        if r["display"]:
            lines.append("  Display: " + "; ".join(_card_line(c) for c in r["display"]))
        if r["in_play"]:
            lines.append("  In play: " + ", ".join(c["name"] for c in r["in_play"]))
        if r["placement"] is not None and (s.phase == PLACE or r["placement"]):
            won = ", ".join(map(str, r["controlled_areas"]))
            areas_won = f" — controls area {won}" if won else ""
            placed = ", ".join(p["text"] for p in r["placement"]) or "none placed yet"
            lines.append("  Leaders: " + placed + areas_won)
        elif s.phase == PLACE:
            lines.append("  Leaders: behind the Defensive Wall" + (" (done)" if r["placed"] else ""))
    if v["auction"]:
        a = v["auction"]
        leader = CONTENT.realm_colours[a["leader"]] if a["leader"] is not None else "no one yet"
        lines.append(f"AUCTION: {a['card']['name']} — high bid {a['bid']} by {leader}")
        bids = [f"{CONTENT.realm_colours[p]} {'passes' if b is None else b}" for p, b in a["history"]]
        if bids:
            lines.append("  Bids: " + ", ".join(bids))
    for e in v["events"][-5:]:
        lines.append(f"  · {e['text']}")
    if "final" in v:
        for f in v["final"]:
            lines.append(f"FINAL {CONTENT.realm_colours[f['seat']]}: {f['total']} VP")
    return "\n".join(lines)
