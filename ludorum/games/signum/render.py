"""Labels and the terminal view: the Battlefield drawn top-down, the zones listed."""

from __future__ import annotations

import functools

from ludorum.engine import Action
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import creatures as cr
from ludorum.games.signum import dice
from ludorum.games.signum.glossary import label
from ludorum.games.signum.state import SignumState
from ludorum.games.signum.turn import ENTRY_X, TERRAIN_SPOTS


def place(x: float, y: float) -> str:
    """A point of the 60 × 60 cm Battlefield in words, by ninths: "the south-west", "the centre".
    P1's edge is the south, P2's the north (P3 west, P4 east)."""
    ns = "south" if y < 25 else "north" if y > 35 else ""
    we = "west" if x < 21 else "east" if x > 39 else ""
    return "the " + ("-".join(w for w in (ns, we) if w) or "centre")


def entry_place(seat: int, along: float) -> str:
    """One of the five entry points on a seat's table edge, in words."""
    south_north = seat >= 2  # P3 and P4 enter along the west and east edges
    ends = ("south", "north") if south_north else ("west", "east")
    words = (f"far {ends[0]}", ends[0], "middle", ends[1], f"far {ends[1]}")
    return f"the {words[min(4, int(along // 12))]} of P{seat + 1}'s edge"


def _name(s: SignumState, uid: object) -> str:
    """A creature by its name; where several of that name stand, by whose it is and where it stands."""
    m = s.find(uid) if isinstance(uid, int) else None
    if m is None:
        return "a creature no longer on the Battlefield"
    name = cr.CARDS[m.card].name_en
    twins = [o for o in s.models if o.card == m.card and o.uid != m.uid]
    if not twins:
        return name
    if all(o.owner != m.owner for o in twins):
        return f"P{m.owner + 1}'s {name}"
    return f"P{m.owner + 1}'s {name} in {place(m.x, m.y)}"


def describe(s: SignumState, action: Action) -> str:
    """The action in the rulebook's words."""
    k, a = action.kind, action.args
    if k == "roll":
        return f"Dice: {a[0]}× Bullseye, {a[1]}× Axe, {a[2]}× Shield/Axe"
    if k == "first_die":
        return f"The die roll: P{int(a[0]) + 1} chooses who goes first"  # type: ignore[arg-type]
    if k == "first":
        return f"P{int(a[0]) + 1} plays first"  # type: ignore[arg-type]
    if k == "stack":  # secret: the label may be shown to every seat
        return "Put a building card next in the building deck"
    if k == "build":
        return f"Build {cr.CARDS[str(a[0])].label()}"
    if k == "pass":
        return "Pass this phase"
    if k == "terrain":
        tx, ty = TERRAIN_SPOTS[int(a[1])]  # type: ignore[arg-type]
        return f"Lay {cr.CARDS[str(a[0])].name_en} in {place(tx, ty)}"
    if k == "clink":
        return f"Clink of Coins: {'pay 1 prosperity for' if a[1] else 'do not pay for'} {_name(s, a[0])}"
    if k == "recruit":
        where = entry_place(s.active, ENTRY_X[int(a[1])])  # type: ignore[arg-type]
        return f"Bring {cr.CARDS[str(a[0])].label()} onto the Battlefield at {where}"
    if k == "cast":
        target = f" on {_name(s, a[1])}" if a[1] != -1 else ""
        return f"Cast {cr.CARDS[str(a[0])].name_en}{target}"
    if k == "equip":
        return f"Give the hero {cr.CARDS[str(a[0])].name_en}"
    if k == "set":  # secret: the label may be shown to every seat
        return "Set a tactic card face down"
    if k == "activate":
        return f"Activate {_name(s, a[0])}"
    if k == "end_turn":
        return "End the turn"
    if k == "move":
        return f"Move {bf.DIRECTION_NAMES[int(a[0])]} {int(a[1]) / 10:g} cm"  # type: ignore[arg-type]
    if k == "run":
        return f"Run {bf.DIRECTION_NAMES[int(a[0])]}"  # type: ignore[arg-type]
    if k == "move_to":
        x, y = int(a[0]) / 10, int(a[1]) / 10  # type: ignore[arg-type]
        return f"Move to a point in {place(x, y)} ({x:g} cm from the west edge, {y:g} cm from the south)"
    if k in ("contact", "pursue"):
        return f"{'Pursue' if k == 'pursue' else 'Move into contact with'} {_name(s, a[0])}"
    if k == "split":
        return f"Put {a[0]} strength dice into attack, the rest into defence"
    words = {
        "melee": "Attack in melee",
        "shoot": "Shoot at",
        "magic_shot": "Magic Shot at",
        "strike": "Magical Strike at",
        "heal": "Heal",
        "control": "Take control of",
        "detect": "Search for the hidden",
    }
    if k in words:
        return f"{words[k]} {_name(s, a[0])}"
    if k == "done":
        return "End this creature's activation"
    if k == "cancel":
        return "Choose another creature"
    return str(action)


def render_text(s: SignumState, seat: int | None) -> str:
    """The Battlefield as a 30×15 character grid (2 cm per column, 4 cm per row) and the zones."""
    w, h = 30, 15
    grid = [["." for _ in range(w)] for _ in range(h)]
    for t in s.terrain:
        c = cr.CARDS[t.card]
        for row in range(h):
            for col in range(w):
                x, y = col * 2 + 1, row * 4 + 2
                if (x - t.x) ** 2 + (y - t.y) ** 2 <= c.radius**2:
                    grid[row][col] = "#" if c.impassable else "%" if c.difficult else "^"
    for m in s.models:
        col = min(w - 1, int(m.x / 2))
        row = min(h - 1, int(m.y / 4))
        grid[row][col] = str(m.owner + 1) if cr.is_hero(s, m) else "abcd"[m.owner]
    lines = ["".join(r) for r in reversed(grid)]
    out = [f"Turn {s.turn}, P{s.active + 1} to play, phase {s.phase}"]
    out += ["  " + line for line in lines]
    for p in range(s.players):
        you = " (you)" if p == seat else ""
        out.append(
            f"P{p + 1}{you}: prosperity {s.prosperity[p]}, deck {s.deck_sizes[p]}, "
            f"hand {len(s.hands[p])}, tactics face down {len(s.tactics[p])}, "
            f"City: {', '.join(cr.CARDS[b].name_en for b in s.city[p]) or '—'}, "
            f"Graveyard {len(s.graveyard[p])}"
        )
    if seat is not None:
        out.append("Your hand: " + ", ".join(cr.CARDS[c].name_en for c in s.hands[seat]))
        if s.tactics[seat]:
            out.append("Your face-down tactics: " + ", ".join(cr.CARDS[c].name_en for c in s.tactics[seat]))
    for m in s.models:
        c = cr.CARDS[m.card]
        flags = [f for f, on in (("hidden", m.hidden), ("activated", m.activated)) if on]
        out.append(
            f"  #{m.uid} P{m.owner + 1} {c.name_en} at ({m.x:.1f}, {m.y:.1f})"
            f" wounds {m.wounds}/{cr.health(m)} str {cr.strength(s, m)}"
            f" {'; '.join(label(p) for p in c.props)} {' '.join(flags)}"
        )
    for r in s.rolls:
        out.append(f"  dice waiting: {r.n} for {r.tag}")
    for rolled in s.rolled:
        faces = ", ".join(f"{n}× {dice.FACE_NAMES[f]}" for n, f in zip(rolled.faces, (1, 2, 4), strict=True))
        out.append(f"  rolled {rolled.tag}: {faces}")
    out += ["  " + line for line in s.log[-5:]]
    if s.phase == "over":
        out.append(f"Game over: {s.reason}")
    return "\n".join(out)


def card_summary(card_id: str) -> dict[str, object]:
    """What a client needs to draw and explain a card: names, type, stats and properties in words."""
    return dict(_summary(card_id))


@functools.cache
def _summary(card_id: str) -> dict[str, object]:
    c = cr.CARDS[card_id]
    out: dict[str, object] = {"name_en": c.name_en, "name_ru": c.name_ru, "kind": c.kind, "cost": c.cost}
    if c.is_creature:
        out.update(
            strength=c.strength,
            movement=c.movement,
            health=c.health,
            base_mm=c.base,
            properties=[label(p) for p in c.props],
        )
    elif c.kind == "terrain":
        out.update(
            radius=c.radius, impassable=c.impassable, difficult=c.difficult, blocks_sight=c.blocks_sight
        )
    elif c.kind == "building":
        out.update(income=c.income, benefit=c.effect, amount=c.amount, unique=c.unique)
    return out


def visible_cards(s: SignumState, seat: int | None) -> dict[str, dict[str, object]]:
    """Summaries of every card the seat can see: on the Battlefield, in Cities, Graveyards, open hands."""
    ids: set[str] = {m.card for m in s.models} | {r for m in s.models for r in m.relics}
    ids |= {t.card for t in s.terrain}
    for zone in (s.city, s.graveyard, s.terrain_hands, s.building_hands):
        for cards in zone:
            ids.update(cards)
    if seat is not None:
        ids.update(s.hands[seat])
        ids.update(s.tactics[seat])
    return {i: card_summary(i) for i in sorted(ids)}
