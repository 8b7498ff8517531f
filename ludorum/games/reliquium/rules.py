"""Rules shared by every chapter: control, the march rules, the ownership track, castles and support.

Functions named ``*_error`` return the refusal in the player's words (or ``None``); the same checks
enumerate the legal actions and validate ``apply``, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from ludorum.engine.i18n import N_, T, Tn, join

from .content import TERRAINS, WATER, content
from .state import NO, ReliquiumState

C = content()
LIMIT = 3
"""The unit limit (Rulebook › Peace phase › March: "The limit is always three")."""

R_MARCH = T("Rulebook › Peace phase › March")
R_MELEE = T("Rulebook › Peace phase › Melee combat")
R_RECRUIT = T("Rulebook › Peace phase › Recruiting units")
R_RANGED = T("Rulebook › Peace phase › Ranged combat")
R_BUILD = T("Rulebook › Peace phase › Building a castle")
R_SUMMON = T("Rulebook › Peace phase › Summoning a creature")
R_ABILITY = T("Rulebook › Summoning a creature › Special abilities")
R_PEACE = T("Rulebook › Peace phase")
R_SUPPORT = T("Rulebook › War phase › Support stage")
R_BATTLE = T("Rulebook › War phase › Battle")
R_ALLIES = T("Rulebook › Additional rules › Allies")


def tset(t: tuple, i: int, v: object) -> tuple:  # type: ignore[type-arg]
    """``t`` with entry ``i`` replaced by ``v``."""
    return (*t[:i], v, *t[i + 1 :])


def name(r: int) -> str:
    """A region's name with its article, as players say it ("the Wasteland")."""
    return T("the {region}", region=C.names[r])


def faction_name(f: int) -> str:
    """A faction's full name."""
    return T("the {faction}", faction=C.factions[f].name)


def units_text(u: tuple[Any, ...]) -> str:
    """ "2 warriors and 1 mage"."""
    parts: list[str] = [unit_count(c, n) for c, n in enumerate(u[:3]) if n]
    if len(u) > 3 and u[3]:
        parts.append(T("the militia"))
    if not parts:
        return T("no units")
    if len(parts) == 1:
        return parts[0]
    return T("{some} and {last}", some=join(", ", parts[:-1]), last=parts[-1])


UNIT_COUNTS = (
    lambda n: Tn("{n} warrior", "{n} warriors", n),
    lambda n: Tn("{n} defender", "{n} defenders", n),
    lambda n: Tn("{n} mage", "{n} mages", n),
)
CLASS_NAMES = (N_("warrior"), N_("defender"), N_("mage"))
TERRAIN_NAMES = (N_("plains"), N_("mountains"), N_("forests"), N_("water"))


def unit_count(c: int, n: int) -> str:
    """ "2 warriors", in the reader's language."""
    return UNIT_COUNTS[c](n)


def class_name(c: int) -> str:
    """A unit class as players read it."""
    return T(CLASS_NAMES[c])


def terrain_name(t: int) -> str:
    """A terrain as players read it."""
    return T(TERRAIN_NAMES[t])


def controls(s: ReliquiumState, f: int, r: int) -> bool:
    """Region ``r`` holds a castle or at least one unit of ``f`` (Rulebook › Melee combat)."""
    return s.castle[r] == f or s.occupant[r] == f


def allied(s: ReliquiumState, f: int, g: int) -> bool:
    """Whether ``f`` and ``g`` have a pact this round (Allies)."""
    return (f, g) in s.pacts or (g, f) in s.pacts


def entry_error(s: ReliquiumState, f: int, dst: int, n: int) -> str | None:
    """Why ``n`` units of ``f`` may not enter ``dst`` under the march rules, or ``None``."""
    c = s.castle[dst]
    if c != NO and c != f and c in s.factions:
        return T("{region} holds a castle of {faction}", region=name(dst), faction=faction_name(c))
    o = s.occupant[dst]
    if o != NO and o != f:
        return T("{region} holds units of {faction}", region=name(dst), faction=faction_name(o))
    if (sum(s.units[dst]) if o == f else 0) + n > LIMIT:
        return T("{region} would exceed the unit limit of three", region=name(dst))
    return None


def add_units(s: ReliquiumState, r: int, f: int, u: tuple[int, int, int]) -> None:
    """Put units ``u`` of ``f`` into region ``r``."""
    old = s.units[r]
    s.units = tset(s.units, r, (old[0] + u[0], old[1] + u[1], old[2] + u[2]))
    s.occupant = tset(s.occupant, r, f)


def remove_units(s: ReliquiumState, r: int, u: tuple[int, int, int]) -> None:
    """Take units ``u`` out of region ``r`` (they go wherever the caller puts them)."""
    old = s.units[r]
    new = (old[0] - u[0], old[1] - u[1], old[2] - u[2])
    s.units = tset(s.units, r, new)
    if new == (0, 0, 0):
        s.occupant = tset(s.occupant, r, NO)
    clamp_support(s, r)


def to_reserve(s: ReliquiumState, f: int, u: tuple[int, int, int]) -> None:
    """Return units ``u`` of ``f`` to its army reserve."""
    old = s.reserve[f]
    s.reserve = tset(s.reserve, f, (old[0] + u[0], old[1] + u[1], old[2] + u[2]))


def move_units(s: ReliquiumState, f: int, src: int, dst: int, u: tuple[int, int, int]) -> None:
    """Move units ``u`` of ``f`` from ``src`` to ``dst`` (already checked against the march rules)."""
    remove_units(s, src, u)
    add_units(s, dst, f, u)


def clamp_support(s: ReliquiumState, r: int) -> None:
    """Supporting units that left region ``r`` (losses, flight, marches) support no longer."""
    if not s.ranged:
        return
    owner = s.occupant[r]
    have = list(s.units[r])
    tokens = list(s.ranged)
    changed = False
    for i, t in enumerate(tokens):
        if t[2] != r:
            continue
        keep = [0, 0, 0]
        for c in range(3):
            keep[c] = min(t[4 + c], have[c]) if t[0] == owner else 0
            have[c] -= keep[c]
        if tuple(keep) != t[4:7]:
            tokens[i] = (t[0], t[1], t[2], t[3], keep[0], keep[1], keep[2], t[7])
            changed = True
    if changed:
        s.ranged = tuple(tokens)


def token_borders(s: ReliquiumState) -> set[int]:
    """Borders that carry a melee or ranged combat token."""
    return {C.border(t[2], t[3]) for t in s.melee} | {C.border(t[2], t[3]) for t in s.ranged}


def border_free_error(s: ReliquiumState, a: int, b: int) -> str | None:
    """A token may go on the border between ``a`` and ``b`` only if none lies or lay there this round."""
    return border_words(border_refusal(s, a, b), a, b)


def border_free(s: ReliquiumState, a: int, b: int) -> bool:
    """Whether a token may go on the border between ``a`` and ``b`` (``border_free_error`` is ``None``,
    without wording a refusal: legal lists ask of many borders)."""
    return border_refusal(s, a, b) == 0


def border_refusal(s: ReliquiumState, a: int, b: int) -> int:
    """0 if the border between ``a`` and ``b`` is free, else which of :func:`border_free_error`'s refusals
    holds (1–3)."""
    bid = C.border(a, b)
    if bid in s.blocked:
        return 1
    for m in s.melee:
        if C.border(m[2], m[3]) == bid:
            return 2
    for t in s.ranged:
        if C.border(t[2], t[3]) == bid:
            return 3
    return 0


def border_words(why: int, a: int, b: int) -> str | None:
    """The words of :func:`border_refusal`'s answer ``why`` (``None`` for 0)."""
    if why == 0:
        return None
    if why == 1:
        return T("a token was removed from the border of {a} and {b} this round", a=name(a), b=name(b))
    if why == 2:
        return T("a melee combat token already lies between {a} and {b}", a=name(a), b=name(b))
    return T("a ranged combat token already lies between {a} and {b}", a=name(a), b=name(b))


def lowest(used: int) -> int:
    """The lowest token strength (1–3) not yet used this round, or 0."""
    for v in (1, 2, 3):
        if not used >> v & 1:
            return v
    return 0


# -- the ownership track (Rulebook › Peace phase; Building a castle) --------------------------------


def is_free(track: tuple[int, int, int], d: int) -> bool:
    """Whether division ``d`` (0–8) carries no castle token."""
    return d % 3 >= track[d // 3]


def first_free(track: tuple[int, int, int]) -> int:
    """The first free division, or ``NO``."""
    for d in range(9):
        if d % 3 >= track[d // 3]:
            return d
    return NO


def next_free(track: tuple[int, int, int], d: int) -> int:
    """The nearest free division right of ``d``, or ``NO``."""
    for e in range(d + 1, 9):
        if e % 3 >= track[e // 3]:
            return e
    return NO


def castles_on_board(s: ReliquiumState, f: int) -> int:
    """Castles of ``f`` standing on the board (= free divisions of its track)."""
    return 9 - sum(s.track[f])


def terrain_of(s: ReliquiumState) -> tuple[int, ...]:
    """Each region's terrain on the side of the board the game is played on (designed: three players have a
    side of their own, docs/reliquium.md, "The three-player side"; ``Content.terrains``)."""
    return C.terrains(s.config.players)


def tokens_off_board(castle: Sequence[int], f: int, terrain: Sequence[int]) -> tuple[int, int, int]:
    """The castle tokens of ``f`` not on the board (``castle``: each region's castle; ``terrain``: each
    region's terrain on the board's side in play), by segment: plains, mountains, forests.

    A faction has 9 castle tokens, 3 of each type (Rulebook › Components; Setup), and a castle stands on land
    of its own type; a count below 0 means the board holds more than 3 of a type (the callers refuse it).
    """
    left = [3, 3, 3]
    for r, owner in enumerate(castle):
        if owner == f and terrain[r] != WATER:
            left[terrain[r]] -= 1
    return (left[0], left[1], left[2])


def units_on_board(s: ReliquiumState, f: int) -> int:
    """Units of ``f`` standing on the board (not in its reserve)."""
    return sum(sum(u) for r, u in enumerate(s.units) if s.occupant[r] == f)


def build_castle(s: ReliquiumState, f: int, r: int) -> None:
    """Move the rightmost token of the matching segment into ``r``; the ninth castle wins at once."""
    seg = terrain_of(s)[r]
    s.track = tset(s.track, f, tset(s.track[f], seg, s.track[f][seg] - 1))
    s.castle = tset(s.castle, r, f)
    if s.track[f] == (0, 0, 0):  # Rulebook › Building a castle: "Declare yourself the winner"
        s.winner = f
        s.reason = T("{faction} built the ninth castle", faction=faction_name(f))
        s.phase = "over"


def build_error(s: ReliquiumState, f: int, r: int) -> str | None:
    """Why ``f`` may not build a castle in ``r`` (Rulebook › Building a castle), or ``None``."""
    why = _build_refusal(s, f, r)
    if why == 0:
        return None
    if why == 1:
        return T("a castle cannot be built on water ({region})", region=name(r))
    if why == 2:
        return T("{region} already has a castle", region=name(r))
    if why == 3:
        return T("{region} holds none of your units", region=name(r))
    terrain = T(TERRAINS[terrain_of(s)[r]])
    return T("no {terrain} castle token is left on your ownership track", terrain=terrain)


def can_build(s: ReliquiumState, f: int, r: int) -> bool:
    """Whether ``f`` may build a castle in ``r`` (``build_error`` is ``None``, without wording a refusal:
    the legal lists ask of every region ``f`` holds, and most are refused)."""
    return _build_refusal(s, f, r) == 0


def _build_refusal(s: ReliquiumState, f: int, r: int) -> int:
    """0 if ``f`` may build in ``r``, else which of :func:`build_error`'s refusals holds (1–4)."""
    terrain = C.sides[s.config.players]  # terrain_of(s) without the call: the legal lists ask of every land
    if terrain[r] == WATER:
        return 1
    if s.castle[r] != NO:
        return 2
    if s.occupant[r] != f:
        return 3
    if s.track[f][terrain[r]] == 0:
        return 4
    return 0


def destroy_castle(s: ReliquiumState, r: int) -> None:
    """A victory march destroyed the castle in ``r``: its token returns to the track, left to right."""
    f = s.castle[r]
    seg = terrain_of(s)[r]
    division = 3 * seg + s.track[f][seg]
    s.track = tset(s.track, f, tset(s.track[f], seg, s.track[f][seg] + 1))
    s.castle = tset(s.castle, r, NO)
    if s.marker[f] == division:  # "the marker is moved to the nearest free division to the right"
        nxt = next_free(s.track[f], division)
        s.marker = tset(s.marker, f, nxt if nxt != NO else first_free(s.track[f]))


@cache
def subsets(have: tuple[int, int, int], most: int) -> tuple[tuple[int, int, int], ...]:
    """Every non-empty choice of units from ``have`` with at most ``most`` units."""
    return tuple(
        (w, d, m)
        for w in range(have[0] + 1)
        for d in range(have[1] + 1)
        for m in range(have[2] + 1)
        if 0 < w + d + m <= most
    )


def aura(s: ReliquiumState, f: int, r: int) -> tuple[int, int, int]:
    """Rulebook › Strengthening aura: +1 per unit of ``f`` of the creature's class where it is present."""
    bonus = [0, 0, 0]
    for c, j in s.creatures:
        cr = C.creatures[c]
        if cr.faction == f and r in C.junctions[j]:
            bonus[cr.cls] += 1
    return (bonus[0], bonus[1], bonus[2])
