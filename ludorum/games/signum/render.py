"""Labels and the terminal view: the Battlefield drawn top-down, the zones listed."""

from __future__ import annotations

import functools

from ludorum.engine import Action
from ludorum.engine.i18n import N_, Joined, T, Text, join, say
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import creatures as cr
from ludorum.games.signum import dice
from ludorum.games.signum.glossary import label
from ludorum.games.signum.state import SignumState, player
from ludorum.games.signum.turn import ENTRY_X, TERRAIN_SPOTS, available_buildings

PLACES: dict[tuple[str, str], str] = {
    ("", ""): N_("the centre"),
    ("north", ""): N_("the north"),
    ("south", ""): N_("the south"),
    ("", "west"): N_("the west"),
    ("", "east"): N_("the east"),
    ("north", "west"): N_("the north-west"),
    ("north", "east"): N_("the north-east"),
    ("south", "west"): N_("the south-west"),
    ("south", "east"): N_("the south-east"),
}
"""The ninths of the Battlefield in words."""

EDGE_POINTS = (
    (N_("far west"), N_("west"), N_("middle"), N_("east"), N_("far east")),
    (N_("far south"), N_("south"), N_("middle"), N_("north"), N_("far north")),
)
"""The five entry points along a south or north edge (P1, P2), and along a west or east edge (P3, P4)."""

ATTACKS = {
    "melee": N_("Attack in melee {target}"),
    "shoot": N_("Shoot at {target}"),
    "magic_shot": N_("Magic Shot at {target}"),
    "strike": N_("Magical Strike at {target}"),
    "heal": N_("Heal {target}"),
    "control": N_("Take control of {target}"),
    "detect": N_("Search for the hidden {target}"),
}
"""The actions that name one creature as their target."""


def place(x: float, y: float) -> Text:
    """A point of the 60 × 60 cm Battlefield in words, by ninths: "the south-west", "the centre".
    P1's edge is the south, P2's the north (P3 west, P4 east)."""
    ns = "south" if y < 25 else "north" if y > 35 else ""
    we = "west" if x < 21 else "east" if x > 39 else ""
    return T(PLACES[ns, we])


def entry_place(seat: int, along: float) -> Text:
    """One of the five entry points on a seat's table edge, in words."""
    words = EDGE_POINTS[seat >= 2]  # P3 and P4 enter along the west and east edges
    return T("the {point} of {seat}'s edge", point=T(words[min(4, int(along // 12))]), seat=player(seat))


def _name(s: SignumState, uid: object) -> Text:
    """A creature by its name; where several of that name stand, by whose it is and where it stands."""
    m = s.find(uid) if isinstance(uid, int) else None
    if m is None:
        return T("a creature no longer on the Battlefield")
    name = cr.CARDS[m.card].name
    twins = [o for o in s.models if o.card == m.card and o.uid != m.uid]
    if not twins:
        return name
    if all(o.owner != m.owner for o in twins):
        return T("{seat}'s {name}", seat=player(m.owner), name=name)
    return T("{seat}'s {name} in {place}", seat=player(m.owner), name=name, place=place(m.x, m.y))


def _faces(counts: tuple[int, ...] | tuple[object, ...]) -> Joined:
    """Dice face counts, "2× Bullseye, 0× Axe, 1× Shield/Axe"."""
    return join(
        ", ",
        (T("{n}× {face}", n=n, face=T(dice.FACE_NAMES[f])) for n, f in zip(counts, (1, 2, 4), strict=True)),
    )


def describe(s: SignumState, action: Action) -> str:
    """The action in the rulebook's words."""
    k, a = action.kind, action.args
    if k == "roll":
        return T("Dice: {faces}", faces=_faces(a))
    if k == "first_die":
        return T("The die roll: {seat} chooses who goes first", seat=player(int(a[0])))  # type: ignore[arg-type]
    if k == "first":
        return T("{seat} plays first", seat=player(int(a[0])))  # type: ignore[arg-type]
    if k == "stack":  # secret: the label may be shown to every seat
        return T("Put a building card next in the building deck")
    if k == "build":
        return T("Build {card}", card=cr.CARDS[str(a[0])].label())
    if k == "pass":
        return T("Pass this phase")
    if k == "terrain":
        tx, ty = TERRAIN_SPOTS[int(a[1])]  # type: ignore[arg-type]
        return T("Lay {card} in {place}", card=cr.CARDS[str(a[0])].name, place=place(tx, ty))
    if k == "clink":
        if a[1]:
            return T("Clink of Coins: pay 1 prosperity for {target}", target=_name(s, a[0]))
        return T("Clink of Coins: do not pay for {target}", target=_name(s, a[0]))
    if k == "recruit":
        where = entry_place(s.active, ENTRY_X[int(a[1])])  # type: ignore[arg-type]
        return T(
            "Bring {card} onto the Battlefield at {place}", card=cr.CARDS[str(a[0])].label(), place=where
        )
    if k == "cast":
        card = cr.CARDS[str(a[0])].name
        if a[1] == -1:
            return T("Cast {card}", card=card)
        return T("Cast {card} on {target}", card=card, target=_name(s, a[1]))
    if k == "equip":
        return T("Give the hero {card}", card=cr.CARDS[str(a[0])].name)
    if k == "set":  # secret: the label may be shown to every seat
        return T("Set a tactic card face down")
    if k == "activate":
        return T("Activate {target}", target=_name(s, a[0]))
    if k == "end_turn":
        return T("End the turn")
    if k == "move":
        direction = T(bf.DIRECTION_NAMES[int(a[0])])  # type: ignore[arg-type]
        return T("Move {direction} {cm} cm", direction=direction, cm=f"{int(a[1]) / 10:g}")  # type: ignore[arg-type]
    if k == "run":
        return T("Run {direction}", direction=T(bf.DIRECTION_NAMES[int(a[0])]))  # type: ignore[arg-type]
    if k == "move_to":
        x, y = int(a[0]) / 10, int(a[1]) / 10  # type: ignore[arg-type]
        return T(
            "Move to a point in {place} ({x} cm from the west edge, {y} cm from the south)",
            place=place(x, y),
            x=f"{x:g}",
            y=f"{y:g}",
        )
    if k == "pursue":
        return T("Pursue {target}", target=_name(s, a[0]))
    if k == "contact":
        return T("Move into contact with {target}", target=_name(s, a[0]))
    if k == "split":
        return T("Put {n} strength dice into attack, the rest into defence", n=a[0])
    if k in ATTACKS:
        return T(ATTACKS[k], target=_name(s, a[0]))
    if k == "done":
        return T("End this creature's activation")
    if k == "cancel":
        return T("Choose another creature")
    return str(action)


TURN_LINES = {
    "roll_first": N_("Turn {n}, {seat} to play, phase roll_first"),
    "choose_first": N_("Turn {n}, {seat} to play, phase choose_first"),
    "stack": N_("Turn {n}, {seat} to play, phase stack"),
    "build": N_("Turn {n}, {seat} to play, phase build"),
    "terrain": N_("Turn {n}, {seat} to play, phase terrain"),
    "activation": N_("Turn {n}, {seat} to play, phase activation"),
    "over": N_("Turn {n}, {seat} to play, phase over"),
}
"""The terminal view's first line, by phase (one message each: the English names the phase by its id)."""

DICE_GROUPS = {
    "aa": N_("aa"),
    "ad": N_("ad"),
    "da": N_("da"),
    "dd": N_("dd"),
    "hit": N_("hit"),
    "block": N_("block"),
    "boiler": N_("boiler"),
    "find": N_("find"),
}
"""The groups of dice an action rolls, by their tags: the terminal's English names them by the tag
(aa: the attacker's attack dice, ad: its defence, da/dd: the defender's), other languages in words.
A Backstab's are ``b0``, ``b1``, …"""


def _group(tag: str) -> Text | str:
    """A group of dice as the terminal names it."""
    if tag in DICE_GROUPS:
        return T(DICE_GROUPS[tag])
    if tag[:1] == "b" and tag[1:].isdigit():
        return T("b{i}", i=int(tag[1:]))
    return tag


def render_text(s: SignumState, seat: int | None) -> str:
    """The Battlefield as a 30×15 character grid (2 cm per column, 4 cm per row) and the zones, in the
    current language (``say`` of its messages)."""
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
    out = [say(T(TURN_LINES[s.phase], n=s.turn, seat=player(s.active)))]
    out += ["  " + line for line in lines]
    for p in range(s.players):
        city = join(", ", (cr.CARDS[b].name for b in s.city[p])) if s.city[p] else "—"
        line = T(
            "{seat}: prosperity {prosperity}, deck {deck}, hand {hand}, tactics face down {tactics}, "
            "City: {city}, Graveyard {graveyard}",
            seat=T("{seat} (you)", seat=player(p)) if p == seat else player(p),
            prosperity=s.prosperity[p],
            deck=s.deck_sizes[p],
            hand=len(s.hands[p]),
            tactics=len(s.tactics[p]),
            city=city,
            graveyard=len(s.graveyard[p]),
        )
        out.append(say(line))
    if seat is not None:
        out.append(say(T("Your hand: {cards}", cards=join(", ", (cr.CARDS[c].name for c in s.hands[seat])))))
        if s.tactics[seat]:
            tactics = join(", ", (cr.CARDS[c].name for c in s.tactics[seat]))
            out.append(say(T("Your face-down tactics: {cards}", cards=tactics)))
    for m in s.models:
        c = cr.CARDS[m.card]
        flags = [T(f) for f, on in ((N_("hidden"), m.hidden), (N_("activated"), m.activated)) if on]
        line = T(
            "#{uid} {seat} {name} at ({x}, {y}) wounds {wounds}/{health} str {strength}",
            uid=m.uid,
            seat=player(m.owner),
            name=c.name,
            x=f"{m.x:.1f}",
            y=f"{m.y:.1f}",
            wounds=m.wounds,
            health=cr.health(m),
            strength=cr.strength(s, m),
        )
        out.append(f"  {say(line)} {say(join('; ', (label(p) for p in c.props)))} {say(join(' ', flags))}")
    for r in s.rolls:
        out.append("  " + say(T("dice waiting: {n} for {tag}", n=r.n, tag=_group(r.tag))))
    for rolled in s.rolled:
        out.append("  " + say(T("rolled {tag}: {faces}", tag=_group(rolled.tag), faces=_faces(rolled.faces))))
    out += ["  " + say(line) for line in s.log[-5:]]
    if s.phase == "over":
        out.append(say(T("Game over: {reason}", reason=s.reason)))
    return "\n".join(out)


@functools.cache
def _summary(card_id: str) -> dict[str, object]:
    """What a client needs to draw and explain a card: names, type, stats and properties in words."""
    c = cr.CARDS[card_id]
    out: dict[str, object] = {"name_en": c.name_en, "name_ru": c.name_ru, "kind": c.kind, "cost": c.cost}
    if c.is_creature:
        out.update(
            strength=c.strength,
            movement=c.movement,
            health=c.health,
            base_mm=c.base,
            properties=[label(p) for p in c.props],
            property_ids=[p.name for p in c.props],  # what a client matches on: the words are translated
        )
    elif c.kind == "relic":
        out.update(property_ids=[p.name for p in c.props])  # a relic's properties count for its bearer
    elif c.kind == "terrain":
        out.update(
            radius=c.radius, impassable=c.impassable, difficult=c.difficult, blocks_sight=c.blocks_sight
        )
    elif c.kind == "building":
        out.update(income=c.income, benefit=c.effect, amount=c.amount, unique=c.unique)
    return out


_cards_last: dict[int | None, tuple[tuple[object, ...], dict[str, dict[str, object]]]] = {}
"""Each seat's last answer and what it was found from (consecutive views often share every zone)."""


def visible_cards(s: SignumState, seat: int | None) -> dict[str, dict[str, object]]:
    """Summaries of every card the seat can see: on the Battlefield, in Cities, Graveyards, open hands, and
    the buildings it could build."""
    hand, tactics = (None, None) if seat is None else (s.hands[seat], s.tactics[seat])
    zones = (s.models, s.terrain, s.city, s.graveyard, s.terrain_hands, s.building_hands, s.heroes)
    inputs = (*zones, s.config, hand, tactics)
    last = _cards_last.get(seat)
    if last is not None and _same(last[0], inputs):
        return dict(last[1])
    found = _visible_cards(s, seat)
    _cards_last[seat] = (inputs, found)
    return dict(found)


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """Whether two tuples hold the very same objects (immutable zones: the same objects, the same cards;
    comparing values would cost more than finding the cards again)."""
    return all(x is y for x, y in zip(a, b, strict=True))


def _visible_cards(s: SignumState, seat: int | None) -> dict[str, dict[str, object]]:
    ids: set[str] = {m.card for m in s.models}
    for m in s.models:
        if m.relics:
            ids.update(m.relics)
    ids.update(t.card for t in s.terrain)
    for zone in (s.city, s.graveyard, s.terrain_hands, s.building_hands):
        for cards in zone:
            ids.update(cards)
    if seat is not None:
        ids.update(s.hands[seat])
        ids.update(s.tactics[seat])
        ids.update(available_buildings(s, seat))  # public cards in no zone that the board offers to build
    # The summaries are shared by every view (as their lists of properties always were): views are built
    # hundreds of times a step by the log's disclosure rule, and copying them was a third of a view's
    # cost.  A view is read (encoded, compared, sent), never changed in place.
    return {i: _summary(i) for i in sorted(ids)}
