"""Why an action is refused, in the player's words and naming the rule ("Shot: the target is beyond XL")."""

from __future__ import annotations

from ludorum.engine import Action
from ludorum.engine.i18n import T
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import combat, turn
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.actions import can_shoot, melee_targets
from ludorum.games.signum.effects import MAX_TACTICS
from ludorum.games.signum.state import SignumState

DIRECTION_RULE = T("Move: a direction is 0–7 (E, NE, N, NW, W, SW, S, SE) and a length in mm")


def _int(x: object) -> bool:
    return type(x) is int


def _card(x: object) -> str | None:
    return x if isinstance(x, str) and x in cr.CARDS else None


def why(s: SignumState, action: Action) -> str:
    """The reason ``action`` cannot be taken now."""
    kind, args = action.kind, action.args
    if s.phase == "over":
        return T("The game is over")
    if s.rolls:
        return T("Dice: chance rolls now (the dice of the action in progress)")
    if s.pending and kind not in ("split", "pursue", "done"):
        p = s.pending[-1]
        return (
            T("Melee: the fighters must split their dice first")
            if p.kind == "melee"
            else T("Pursuit: pursue or stop first")
        )
    if kind == "split":
        return _split(s, args)
    if s.coins_due and kind != "clink":
        return T("Clink of Coins: decide first whether to pay for it")
    if s.acting >= 0:
        return _acting(s, action)
    if kind in ("recruit", "cast", "equip", "set"):
        return _card_refusal(s, action)
    if kind == "activate":
        m = s.find(args[0]) if args and _int(args[0]) else None  # type: ignore[arg-type]
        if s.phase != "activation":
            return T("Activation: only in the activation phase")
        if m is None:
            return T("Activation: there is no such creature on the Battlefield")
        if m.side() != s.active:
            return T("Activation: that creature is not yours")
        if m.activated:
            return T("Activation: each creature acts once per turn")
        if m.fresh:
            return T("Activation: a character brought in this turn acts next turn (unless it has Rush)")
    if kind == "build":
        b = _card(args[0]) if args else None
        if s.phase != "build":
            return T("Building: only in the building phase, once per turn")
        if b is None or cr.CARDS[b].kind != "building":
            return T("Building: that is not a building card")
        if b in s.city[s.active]:
            return T("Building: {card} already stands in your City", card=cr.CARDS[b].name)
        if cr.CARDS[b].cost > s.prosperity[s.active]:
            have = s.prosperity[s.active]
            return T(
                "Building: {card} costs {cost} prosperity, you have {have}",
                card=cr.CARDS[b].name,
                cost=cr.CARDS[b].cost,
                have=have,
            )
        return T("Building: {card} is not yours to build", card=cr.CARDS[b].name)
    if kind == "terrain":
        if s.phase != "terrain":
            return T("Terrain: only in the terrain phase, one card per turn")
        t = _card(args[0]) if args else None
        if t is None or t not in s.terrain_hands[s.active]:
            return T("Terrain: that terrain card is not in your hand")
        if len(args) != 2 or not _int(args[1]) or not 0 <= args[1] < len(turn.TERRAIN_SPOTS):  # type: ignore[operator]
            return T("Terrain: the place is one of the nine points 0–8")
        x, y = turn.TERRAIN_SPOTS[args[1]]  # type: ignore[index]
        return turn.terrain_fits(s, t, x, y) or T("Terrain: not possible there")
    return T("{action} is not possible now", action=str(action))


def _split(s: SignumState, args: tuple[object, ...]) -> str:
    if not s.pending or s.pending[-1].kind != "melee":
        return T("Melee: there is no dice split to make now")
    m = combat.splitter(s, s.pending[-1])
    options = combat.split_options(s, m)
    return T(
        "Melee: {name} puts {low}–{high} of its {strength} strength dice into attack "
        "(Warlike and Cautious bound the split)",
        name=cr.CARDS[m.card].name,
        low=options[0],
        high=options[-1],
        strength=cr.strength(s, m),
    )


def _acting(s: SignumState, action: Action) -> str:
    kind, args = action.kind, action.args
    m = s.model(s.acting)
    name = cr.CARDS[m.card].name
    target = s.find(args[0]) if args and _int(args[0]) else None  # type: ignore[arg-type]
    if kind in ("activate", "end_turn", "recruit", "cast", "equip", "set"):
        return T(
            "Activation: finish {name}'s activation first (or choose another creature before it acts)",
            name=name,
        )
    if kind in ("move", "run", "contact") and s.stage > 0:
        return T("Move: {name} has already moved this activation", name=name)
    if kind == "run" and cr.has(s, m, "slow"):
        return T("Run: {name} is Slow and cannot run", name=name)
    if kind == "move":
        if len(args) != 2 or not all(_int(a) for a in args) or not 0 <= args[0] < 8:  # type: ignore[operator]
            return DIRECTION_RULE
        ux, uy = bf.DIRECTIONS[args[0]]  # type: ignore[index]
        d = args[1] / 10.0  # type: ignore[operator]
        from ludorum.games.signum.movement import why_not_point

        why = why_not_point(s, m, m.x + ux * d, m.y + uy * d) or T("that distance is not offered")
        return T("Move: {why}", why=why)
    if kind == "contact":
        return T("Move: that enemy is beyond reach or the way is blocked")
    if kind == "melee":
        if target is None or target in melee_targets(s, m):
            return T("Melee: no such enemy")
        if target.hidden:
            return T("Hidden: a hidden creature cannot be attacked until it is found")
        return T("Melee: the target must be an enemy in contact (a Defender in contact must be chosen)")
    if kind == "shoot":
        if not cr.x_of(s, m, "shot"):
            return T("Shot: {name} has no Shot X", name=name)
        if s.stage > 0 and not cr.has(s, m, "quick_shooter"):
            return T("Shot: a shooter that has moved cannot shoot (only a Quick Shooter may)")
        return (can_shoot(s, m, target) if target is not None else None) or T("Shot: no such target")
    if kind in ("magic_shot", "strike", "control") and s.stage > 0 and not cr.has(s, m, "battle_mage"):
        return T("Magic: {name} has moved; only a Battle Mage may use magic after moving", name=name)
    if kind == "heal":
        return T("Healer X: the target is one of your wounded creatures within XL, before moving")
    if kind == "control":
        return T("Control X: an enemy character (never a hero) in sight within XL")
    return T("{action} is not possible for {name} now", action=str(action), name=name)


def _card_refusal(s: SignumState, action: Action) -> str:
    seat = s.active
    c = _card(action.args[0]) if action.args else None
    if s.phase != "activation":
        return T("Cards: play them in the activation phase")
    if c is None or c not in s.hands[seat]:
        return T("Cards: that card is not in your hand")
    card = cr.CARDS[c]
    cost = turn.card_cost(s, seat, c)
    if cost > s.prosperity[seat]:
        return T(
            "Cards: {card} costs {cost} prosperity, you have {have}",
            card=card.name,
            cost=cost,
            have=s.prosperity[seat],
        )
    if action.kind == "recruit":
        return T("Recruit: that point of your table edge is taken (or the card is not a character)")
    if action.kind == "set":
        return (
            T("Tactics: at most {n} tactic cards lie face down", n=MAX_TACTICS)
            if card.kind == "tactic"
            else T("Tactics: only a tactic card is set face down")
        )
    if action.kind == "equip":
        return T("Relics: your hero must carry that relic type and have that slot free")
    return T(
        "Spells: that target is not allowed (bolt: an enemy within XL of your hero; mend: your wounded one)"
    )
