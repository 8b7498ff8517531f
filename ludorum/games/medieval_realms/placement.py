"""The Round, steps 1–5: leaders placed behind the Defensive Wall, resources, the map challenge,
2 Production each and the new start player.

A seat's placement is a compound decision: one leader at a time — its Mayors, then Generals, then
Admirals, then (two players) its two buffer Mayors — which stays in the seat's secret ``placing`` entry;
``cancel`` takes them all back until the last leader is placed, which commits the placement.  When every
seat has committed, the walls come down (:func:`reveal`).
"""

from __future__ import annotations

from ludorum.engine import CANCEL, Action
from ludorum.engine.i18n import N_, T

from .cards import production_effects
from .content import CONTENT, PRODUCTION, RESOURCES, SQUARES
from .state import (
    ACTIONS,
    ADMIRAL,
    BUFFER,
    COMBAT_ADMIRAL,
    COMBAT_BUFFER,
    COMBAT_GENERAL,
    EV_REVEAL,
    GENERAL,
    MAYOR,
    SPOT,
    RealmsState,
    log,
    refused,
    setitem,
)

KIND_WORDS = ("mayor", "general", "admiral", "buffer")
MAYOR_ACTIONS = tuple(Action("mayor", (sq,)) for sq in SQUARES)
AREA_ACTIONS = {
    k: tuple(Action(KIND_WORDS[k], (a,)) for a in range(1, 11)) for k in (GENERAL, ADMIRAL, BUFFER)
}


def areas(players: int) -> int:
    """Areas in use: 1–8, and 9–10 only with five players (Rulebook › Place the Leader Tokens)."""
    return 10 if players == 5 else 8


def buffers(players: int) -> int:
    """The two extra Mayors of a 2-player game fight as buffers on the map."""
    return 2 if players == 2 else 0


def plan(s: RealmsState, seat: int) -> tuple[int, int, int, int]:
    """How many leaders of each kind ``seat`` places: management Mayors, Generals, Admirals, buffers."""
    b = buffers(s.config.players)
    return s.mayors[seat] - b, s.generals[seat], s.admirals[seat], b


def next_kind(s: RealmsState, seat: int, placed: int) -> int:
    """The kind of the leader placed after ``placed`` others (-1 when all are placed)."""
    m, g, a, b = plan(s, seat)
    if placed < m:
        return MAYOR
    if placed < m + g:
        return GENERAL
    if placed < m + g + a:
        return ADMIRAL
    if placed < m + g + a + b:
        return BUFFER
    return -1


def complete(s: RealmsState, seat: int, spots: tuple[int, ...]) -> bool:
    """Whether ``spots`` place every leader of ``seat``.

    Designed: buffers that find no area free of the player's own Military Leaders stay off the map.
    """
    kind = next_kind(s, seat, len(spots))
    if kind != BUFFER:
        return kind == -1
    military = {sp % SPOT for sp in spots if sp // SPOT in (GENERAL, ADMIRAL)}
    return len(military) >= areas(s.config.players)


def placing_seat(s: RealmsState) -> int:
    """The first seat in turn order that has not committed its placement."""
    for seat in s.order:
        if not s.committed[seat]:
            return seat
    raise AssertionError("every seat has placed")


def legal(s: RealmsState, seat: int) -> list[Action]:
    """Where the next leader may go (and ``cancel`` once a leader has been placed)."""
    spots = s.placing[seat]
    out = choices(s, seat, spots)
    if spots:
        out.append(CANCEL)
    return out


def choices(s: RealmsState, seat: int, spots: tuple[int, ...]) -> list[Action]:
    """Where ``seat``'s next leader may go once ``spots`` are placed (not ``cancel``): :func:`legal` of a
    placement that need not be the state's, without a state made for it (a drawn placement asks this
    of every leader)."""
    kind = next_kind(s, seat, len(spots))
    if kind == MAYOR:
        out = list(MAYOR_ACTIONS)
    else:
        n_areas = areas(s.config.players)
        acts = AREA_ACTIONS[kind][:n_areas]
        if kind == BUFFER:
            # Rulebook: buffers go ONLY on areas unoccupied by the player's own Military Leaders.
            military = {sp % SPOT for sp in spots if sp // SPOT in (GENERAL, ADMIRAL)}
            out = [a for a in acts if a.args[0] not in military]
        else:
            out = list(acts)
    return out


def allowed(s: RealmsState, seat: int, action: Action) -> bool:
    """Whether ``action`` is among :func:`legal` (checked directly, without listing every action)."""
    spots = s.placing[seat]
    if action == CANCEL:
        return bool(spots)
    kind = next_kind(s, seat, len(spots))
    if kind < 0 or action.kind != KIND_WORDS[kind] or len(action.args) != 1:
        return False
    where = action.args[0]
    if kind == MAYOR:
        return where in SQUARES
    if type(where) is not int or not 1 <= where <= areas(s.config.players):
        return False
    if kind == BUFFER:
        return all(sp % SPOT != where for sp in spots if sp // SPOT in (GENERAL, ADMIRAL))
    return True


NOW = (
    N_("place your mayors now (Mayors, then Generals, Admirals, buffers)"),
    N_("place your generals now (Mayors, then Generals, Admirals, buffers)"),
    N_("place your admirals now (Mayors, then Generals, Admirals, buffers)"),
    N_("place your buffers now (Mayors, then Generals, Admirals, buffers)"),
)
"""The refusal of a leader placed out of order, by the kind due (:data:`KIND_WORDS`)."""


def refusal(s: RealmsState, seat: int, action: Action) -> str:
    """The placement rule an illegal action breaks."""
    kind = next_kind(s, seat, len(s.placing[seat]))
    if action == CANCEL:
        return refused(T("Place the Leader Tokens"), T("you have placed no leader to take back"))
    if action.kind not in KIND_WORDS:
        return refused(
            T("Place the Leader Tokens"), T("place a leader (mayor, general, admiral, buffer) or cancel")
        )
    if KIND_WORDS.index(action.kind) != kind:
        return refused(T("Place the Leader Tokens"), T(NOW[kind]))
    if kind == MAYOR:
        return refused(
            T("Place the Leader Tokens"), T("Mayors go on a resource square of the Management Zone")
        )
    if kind == BUFFER and action.args and action.args[0] in range(1, 11):
        return refused(
            T("Place the Leader Tokens"), T("buffer Mayors only go where you have no General or Admiral")
        )
    return refused(
        T("Place the Leader Tokens"),
        T("areas 1–{n} only (9 and 10 with five players)", n=areas(s.config.players)),
    )


def apply(s: RealmsState, seat: int, action: Action) -> None:
    """Place one leader; the last one commits the placement and, last of all seats, reveals."""
    if action == CANCEL:
        s.placing = setitem(s.placing, seat, ())
        return
    spots = (*s.placing[seat], spot(action))
    s.placing = setitem(s.placing, seat, spots)
    if complete(s, seat, spots):
        s.committed = setitem(s.committed, seat, True)
        if all(s.committed):
            reveal(s)


def spot(action: Action) -> int:
    """The placement spot (``kind * SPOT + square or area``) of a legal leader's ``action``."""
    kind = KIND_WORDS.index(action.kind)
    where = SQUARES.index(str(action.args[0])) if kind == MAYOR else int(action.args[0])  # type: ignore[arg-type]
    return kind * SPOT + where


COMBAT = {GENERAL: COMBAT_GENERAL, ADMIRAL: COMBAT_ADMIRAL, BUFFER: COMBAT_BUFFER}
"""The combat value of each kind of leader on the Realm's Map (Mayors on the map are buffers; Rulebook ›
Place the Leader Tokens)."""


def _tallies(revealed: tuple[tuple[int, ...], ...], players: int) -> tuple[list[list[int]], list[list[bool]]]:
    """For each area (1 to :func:`areas`, at index ``area - 1``), each seat's combat value there, and
    whether it has a General or Admiral there: every placed leader counted once, in one pass."""
    n_areas = areas(players)
    values = [[0] * len(revealed) for _ in range(n_areas)]
    military = [[False] * len(revealed) for _ in range(n_areas)]
    for seat, spots in enumerate(revealed):
        for sp in spots:
            kind, area = divmod(sp, SPOT)
            if kind != MAYOR and 1 <= area <= n_areas:
                values[area - 1][seat] += COMBAT[kind]
                if kind != BUFFER:
                    military[area - 1][seat] = True
    return values, military


def strengths(revealed: tuple[tuple[int, ...], ...], players: int) -> list[list[tuple[int, bool]]]:
    """For each area (1 to :func:`areas`, at index ``area - 1``), each seat's combat value there and
    whether it has a General or Admiral there."""
    values, military = _tallies(revealed, players)
    return [list(zip(v, m, strict=True)) for v, m in zip(values, military, strict=True)]


def map_challenge(revealed: tuple[tuple[int, ...], ...], players: int) -> tuple[tuple[int, ...], ...]:
    """Rulebook › Get Resources: an area goes to the Military Leaders that beat every other realm by 1+.

    Ties give nothing; buffers count against opponents but never win an area.
    """
    won: list[list[int]] = [[] for _ in revealed]
    for area, (values, military) in enumerate(zip(*_tallies(revealed, players), strict=True), 1):
        best = max(values)
        # Beating every other realm by 1 or more is holding the one highest value.
        if values.count(best) == 1:
            seat = values.index(best)
            if military[seat]:
                won[seat].append(area)
    return tuple(tuple(w) for w in won)


def reveal(s: RealmsState) -> None:
    """Walls down: steps 3–5 of the round, then the action phase begins with the new start player."""
    n = s.config.players
    s.revealed = s.placing
    s.placing = ((),) * n
    s.committed = (False,) * n
    s.controlled = map_challenge(s.revealed, n)
    rewards = CONTENT.area_rewards
    res = list(s.res)
    for seat in range(n):
        r = list(res[seat])
        for sp in s.revealed[seat]:
            if sp // SPOT == MAYOR:
                r[sp % SPOT] += (
                    1  # Rulebook › Place the Leader Tokens: each Mayor gives 1 token of its square
                )
        for area in s.controlled[seat]:
            for i, amount in enumerate(rewards[area]):
                r[i] += amount
        r[PRODUCTION] += 2  # Rulebook › The Round › 4. All Players get 2 extra Production Tokens
        res[seat] = tuple(r)
    s.res = tuple(res)
    for seat in range(n):
        production_effects(s, seat)
    # Rulebook › 5. Determine Start Player: most Production first; ties keep the previous order.
    s.order = tuple(sorted(s.order, key=lambda seat: -s.res[seat][PRODUCTION]))
    s.phase = ACTIONS
    s.turn = 0
    s.passed = (False,) * n
    log(s, EV_REVEAL, s.order[0], -1, s.round)


def describe_spot(spot: int) -> str:
    """A placed leader in words ("Mayor on Science", "General on area 3")."""
    kind, where = divmod(spot, SPOT)
    if kind == MAYOR:
        return T("Mayor on {resource}", resource=T(RESOURCES[where].replace("_", " ").title()))
    if kind == GENERAL:
        return T("General on area {n}", n=where)
    if kind == ADMIRAL:
        return T("Admiral on area {n}", n=where)
    return T("Buffer on area {n}", n=where)
