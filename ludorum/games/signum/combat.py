"""Chapters 7.2–7.4: melee, shooting, magic, healing, control and the Backstab, resolved with dice.

Each procedure pushes a :class:`Pending` and the dice it needs (:mod:`dice`); when chance has rolled
them, :func:`resume` finishes it.  Decisions inside a procedure (the melee dice split, a pursuit) are
pendings that the deciding seat answers.
"""

from __future__ import annotations

from ludorum.engine.i18n import T
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import creatures as cr
from ludorum.games.signum import dice
from ludorum.games.signum.effects import bury_dead, fire_tactic, heal, wound
from ludorum.games.signum.state import Model, Pending, SignumState

MAGICAL = ("magic_shot", "strike", "control")
"""Magical abilities: a creature that has moved may use them only with Battle Mage (Glossary)."""


# -- helpers -----------------------------------------------------------------------------------------


def push(s: SignumState, p: Pending) -> None:
    """Put a procedure on top of the pending stack."""
    s.pending = (*s.pending, p)


def pop(s: SignumState) -> Pending:
    """Take the top procedure off the pending stack."""
    p = s.pending[-1]
    s.pending = s.pending[:-1]
    return p


def roll(s: SignumState, tag: str, n: int, mask: int, master: int = 0, forced: bool = False) -> None:
    """Ask chance for ``n`` dice (none: the group is settled at once with no success)."""
    if n <= 0:
        s.rolled = (*s.rolled, dice.Rolled(tag, 0, (0, 0, 0)))
    else:
        s.rolls = (*s.rolls, dice.Roll(tag, n, mask, master, forced))


def results(s: SignumState) -> dict[str, dice.Rolled]:
    """Take the finished dice groups, by tag."""
    out = {r.tag: r for r in s.rolled}
    s.rolled = ()
    return out


def attack_mask(s: SignumState, m: Model) -> int:
    """Melee attack faces: Axe or Shield/Axe; only Shield/Axe when wounded without Stalwart.

    DESIGN.md §5 (Magical Strike) and Rulebook › Glossary › Stalwart: "does not suffer the penalty of
    its wounds in melee".
    """
    if m.wounds and not cr.has(s, m, "stalwart"):
        return dice.HITS_WOUNDED
    return dice.HITS_MELEE


def reveal(s: SignumState, uid: int) -> None:
    """Rulebook › Glossary › Hidden: running, attacking or activating an ability reveals the creature."""
    m = s.find(uid)
    if m is not None and m.hidden:
        s.put(m.but(hidden=False))


def end_activation(s: SignumState, uid: int) -> None:
    """The creature has acted this turn."""
    m = s.find(uid)
    if m is not None:
        s.put(m.but(activated=True))
    if s.acting == uid or s.find(s.acting) is None:
        s.acting = -1
        s.stage = 0


def armour(s: SignumState, m: Model) -> int:
    """Armour X (DESIGN.md §5, designed § 7.2): each non-magical attack deals X wounds fewer."""
    return cr.x_of(s, m, "armour")


# -- melee -------------------------------------------------------------------------------------------


def split_first(s: SignumState, a: Model, d: Model) -> int:
    """Who splits dice first: 0 the attacker, 1 the defender (designed default: the attacker).

    Rulebook › Glossary › Predictable: always splits first; › Agile: always splits second; two
    Predictable or two Agile fighters follow the standard order.
    """
    ap, dp = cr.has(s, a, "predictable"), cr.has(s, d, "predictable")
    if ap != dp:
        return 0 if ap else 1
    aa, da = cr.has(s, a, "agile"), cr.has(s, d, "agile")
    if aa != da:
        return 1 if aa else 0
    return 0


def split_options(s: SignumState, m: Model) -> range:
    """How many strength dice the fighter may put into attack.

    Rulebook › Glossary › Warlike X: at least X dice into attack, but not more than its strength;
    › Cautious X: at least X dice into defence, but not more than its strength.
    """
    st = cr.strength(s, m)
    lo = min(cr.x_of(s, m, "warlike"), st)
    hi = max(lo, st - min(cr.x_of(s, m, "cautious"), st))
    return range(lo, hi + 1)


def declare_melee(s: SignumState, a_uid: int, d_uid: int, momentum: bool) -> None:
    """A creature declares a melee attack on an enemy in contact (Chapter 7.2)."""
    reveal(s, a_uid)
    a, d = s.model(a_uid), s.model(d_uid)
    bonus = max(0, fire_tactic(s, d.owner, "melee_declared_against"))
    s.say(
        T(
            "{attacker} attacks {defender} in melee",
            attacker=cr.CARDS[a.card].name,
            defender=cr.CARDS[d.card].name,
        )
    )
    push(s, Pending("melee", a_uid, d_uid, (split_first(s, a, d), -1, -1, int(momentum), bonus)))
    auto_split(s)


def splitter(s: SignumState, p: Pending) -> Model:
    """The fighter whose split is awaited."""
    first, a_att, d_att = p.data[0], p.data[1], p.data[2]
    if first == 0:
        return s.model(p.actor if a_att < 0 else p.target)
    return s.model(p.target if d_att < 0 else p.actor)


def auto_split(s: SignumState) -> None:
    """Take the split for a fighter with a single option; start the dice once both have split."""
    while s.pending and s.pending[-1].kind == "melee":
        p = s.pending[-1]
        if p.data[1] >= 0 and p.data[2] >= 0:
            _melee_dice(s)
            return
        m = splitter(s, p)
        options = split_options(s, m)
        if len(options) != 1:
            return
        choose_split(s, options[0])


def choose_split(s: SignumState, attack: int) -> None:
    """Record the awaited fighter's split (dice into attack; the rest into defence)."""
    p = pop(s)
    m = splitter(s, p)
    data = list(p.data)
    data[1 if m.uid == p.actor else 2] = attack
    push(s, Pending("melee", p.actor, p.target, tuple(data)))
    auto_split(s)


def _melee_dice(s: SignumState) -> None:
    p = pop(s)
    a, d = s.model(p.actor), s.model(p.target)
    _, a_att, d_att, momentum, bonus = p.data
    sa, sd = cr.strength(s, a), cr.strength(s, d)
    a_def, d_def = sa - a_att, sd - d_att
    # Rulebook › Glossary › Attack Expert / Defence Expert: all dice into one → one more die there.
    a_n = a_att + (sa > 0 and a_att == sa and cr.has(s, a, "attack_expert"))
    a_n += momentum and cr.has(s, a, "momentum")  # › Momentum: a bonus if it moved before attacking
    a_d = a_def + (sa > 0 and a_att == 0 and cr.has(s, a, "defence_expert"))
    d_n = d_att + (sd > 0 and d_att == sd and cr.has(s, d, "attack_expert"))
    d_d = d_def + (sd > 0 and d_att == 0 and cr.has(s, d, "defence_expert")) + bonus
    # −X from attacks (DESIGN.md §5): attacks on the creature roll X dice fewer.
    a_n -= cr.x_of(s, d, "minus_attack")
    d_n -= cr.x_of(s, a, "minus_attack")
    a_init, d_init = cr.has(s, a, "initiative"), cr.has(s, d, "initiative")
    if a_init != d_init:
        # Rulebook › Glossary › Initiative: "strikes first (with all its effects), and then its opponent
        # makes its attack" — the opponent's attack is rolled only after the first blow's wounds are placed,
        # so a wounded opponent attacks with the penalty of its wounds, and a dead one not at all.
        first = 0 if a_init else 1
        later = (d_n, a_d) if first == 0 else (a_n, d_d)
        push(s, Pending("melee_roll", p.actor, p.target, (*p.data, first, *later)))
        if first == 0:
            _attack_roll(s, "aa", a, d, a_n)
            _defence_roll(s, "dd", d, d_d)
        else:
            _attack_roll(s, "da", d, a, d_n)
            _defence_roll(s, "ad", a, a_d)
        return
    push(s, Pending("melee_roll", p.actor, p.target, p.data))
    _attack_roll(s, "aa", a, d, a_n)
    _defence_roll(s, "ad", a, a_d)
    _attack_roll(s, "da", d, a, d_n)
    _defence_roll(s, "dd", d, d_d)


def _attack_roll(s: SignumState, tag: str, m: Model, foe: Model, n: int) -> None:
    """Roll a fighter's melee attack dice: › Master of Attack X re-rolls X failures; › Seasoned Fighter:
    the attacker of a Seasoned Fighter must re-roll its successes; the penalty of wounds (DESIGN.md §5)."""
    roll(s, tag, n, attack_mask(s, m), cr.x_of(s, m, "master_attack"), cr.has(s, foe, "seasoned_fighter"))


def _defence_roll(s: SignumState, tag: str, m: Model, n: int) -> None:
    """Roll a fighter's melee defence dice (› Master of Defence X re-rolls X failures)."""
    roll(s, tag, n, dice.BLOCKS_MELEE, cr.x_of(s, m, "master_defence"))


def _strike(s: SignumState, r: dict[str, dice.Rolled], att: str, dfn: str, victim: Model, by: Model) -> None:
    """Place the wounds of one side's melee attack: hits less parries, less the victim's Armour."""
    n = max(0, r[att].hits - r[dfn].hits)
    n = max(0, n - armour(s, victim)) if n else 0
    wound(s, victim.uid, n, by.side())


def _initiative_outcome(s: SignumState, p: Pending) -> None:
    """Rulebook › Glossary › Initiative: the first blow's wounds, then (if it lives) the opponent's attack."""
    r = results(s)
    a, d = s.model(p.actor), s.model(p.target)
    first = p.data[5]
    striker, victim = (a, d) if first == 0 else (d, a)
    if len(p.data) == 8:  # the first blow has been rolled
        _strike(s, r, "aa" if first == 0 else "da", "dd" if first == 0 else "ad", victim, striker)
        s.say(T("Initiative: {name} strikes first", name=cr.CARDS[striker.card].name))
        victim = s.model(victim.uid)
        if victim.wounds < cr.health(victim):
            n_att, n_def = p.data[6], p.data[7]
            push(s, Pending("melee_roll", p.actor, p.target, (*p.data[:6], -1)))
            _attack_roll(s, "da" if first == 0 else "aa", victim, striker, n_att)
            _defence_roll(s, "ad" if first == 0 else "dd", striker, n_def)
            return
    else:  # the opponent's attack, rolled after its wounds were placed
        _strike(s, r, "da" if first == 0 else "aa", "ad" if first == 0 else "dd", striker, victim)
    bury_dead(s)
    after_kill(s, p.actor, killed=s.find(p.target) is None)


def _melee_outcome(s: SignumState, p: Pending) -> None:
    if len(p.data) > 5:
        _initiative_outcome(s, p)
        return
    r = results(s)
    a, d = s.model(p.actor), s.model(p.target)
    to_d = max(0, r["aa"].hits - r["dd"].hits)
    to_a = max(0, r["da"].hits - r["ad"].hits)
    to_d = max(0, to_d - armour(s, d)) if to_d else 0
    to_a = max(0, to_a - armour(s, a)) if to_a else 0
    s.say(T("Melee: {to_d} wound(s) to the defender, {to_a} to the attacker", to_d=to_d, to_a=to_a))
    # DESIGN.md §5: both sides strike at the same time (Initiative: see _initiative_outcome); what the
    # wounds trigger resolves the acting side's first (designed, as every simultaneous effect).
    wound(s, a.uid, to_a, d.side())
    wound(s, d.uid, to_d, a.side())
    bury_dead(s)
    after_kill(s, p.actor, killed=s.find(p.target) is None)


def after_kill(s: SignumState, uid: int, killed: bool) -> None:
    """Rulebook › Glossary › Pursuit X: after killing an enemy in melee, it may move S and attack again."""
    m = s.find(uid)
    if m is not None and killed and s.acting == uid and m.pursuits < cr.x_of(s, m, "pursuit"):
        push(s, Pending("pursuit", uid))
        return
    end_activation(s, uid)


# -- the Backstab ------------------------------------------------------------------------------------


def backstab(s: SignumState, m: Model, leaving: list[Model], then: Pending) -> None:
    """DESIGN.md §5: leaving contact with an enemy invites a Backstab (designed § 7.2: each enemy left
    strikes with all its strength; the creature leaving cannot defend; Armour counts)."""
    push(s, then)
    push(s, Pending("backstab", m.uid, -1, tuple(e.uid for e in leaving)))
    for i, e in enumerate(leaving):
        n = cr.strength(s, e) - cr.x_of(s, m, "minus_attack")
        roll(
            s, f"b{i}", n, attack_mask(s, e), cr.x_of(s, e, "master_attack"), cr.has(s, m, "seasoned_fighter")
        )


def _backstab_outcome(s: SignumState, p: Pending) -> None:
    r = results(s)
    m = s.model(p.actor)
    total = sum(max(0, r[f"b{i}"].hits - armour(s, m)) for i in range(len(p.data)))
    s.say(T("Backstab: {n} wound(s)", n=total))
    by = s.find(p.data[0]) if p.data else None
    wound(s, m.uid, total, by.side() if by is not None else -1)
    bury_dead(s)
    then = pop(s)
    if s.find(m.uid) is None:
        s.acting, s.stage = -1, 0
        return
    finish_move(s, then)


def finish_move(s: SignumState, p: Pending) -> None:
    """Put the creature at its destination (a move a Backstab interrupted resumes here); after a Run
    its activation ends, after a Pursuit's move its melee is declared."""
    m = s.model(p.actor)
    s.put(m.but(x=p.x, y=p.y))
    if p.data[0]:
        end_activation(s, m.uid)
        return
    if s.acting == m.uid:
        s.stage = 1
    if p.target >= 0 and s.find(p.target) is not None:
        declare_melee(s, m.uid, p.target, momentum=True)


# -- shooting and magic ----------------------------------------------------------------------------


def declare(s: SignumState, kind: str, a_uid: int, t_uid: int) -> None:
    """Declare a ranged attack, magic or ability: the Steam Boiler first, then sorcery's detection."""
    a = s.model(a_uid)
    # › Hidden: activating (an activated property such as Healer X or Control X) or attacking reveals the
    # creature; "a Hidden can find a Hidden without revealing itself".
    if kind != "detect":
        reveal(s, a_uid)
    boiler = cr.props(s, a).get("steam_boiler")
    powered = {"shoot": "shot", "magic_shot": "magic_shot", "strike": "magical_strike"}.get(kind)
    if boiler is not None and boiler.arg == powered:
        # Rulebook › Glossary › Steam Boiler: roll the Boiler's die and apply it before the action
        # (designed § 7.4: Bullseye scalds it for 1 wound, Axe nothing, Shield/Axe +1 die).
        push(s, Pending("boiler", a_uid, t_uid, card=kind))
        roll(s, "boiler", 1, dice.SHIELD_AXE)
        return
    start(s, kind, a_uid, t_uid, 0)


def _boiler_outcome(s: SignumState, p: Pending) -> None:
    r = results(s)["boiler"]
    if r.faces[0]:
        s.say(T("The Steam Boiler scalds its crew: 1 wound"))
        # Dealt by the side that commands the creature: no enemy kill of its own (Rulebook › 9), its
        # controller's if it is an enemy taken by Control X (designed).
        wound(s, p.actor, 1, s.model(p.actor).side())
        bury_dead(s)
        if s.find(p.actor) is None:
            s.acting, s.stage = -1, 0
            return
    start(s, p.card, p.actor, p.target, r.hits)


def start(s: SignumState, kind: str, a_uid: int, t_uid: int, bonus: int) -> None:
    """Roll the dice of a ranged attack or ability."""
    a, t = s.model(a_uid), s.model(t_uid)
    if kind in ("magic_shot", "bolt") and t.hidden:
        # › Hidden: sorcery finds a hidden creature within XL on a Bullseye.
        push(s, Pending("find", a_uid, t_uid, (bonus,), card=kind))
        roll(s, "find", 1, dice.BULLSEYE)
        return
    if kind == "shoot":
        cover = max(0, fire_tactic(s, t.owner, "shot_at"))
        n = cr.x_of(s, a, "shot") + bonus - cover - cr.x_of(s, t, "minus_attack")
        d = cr.dist(a, t)
        sniper = cr.has(s, a, "sniper") and bf.L - bf.EPS <= d <= bf.XL + bf.EPS
        buck = cr.has(s, a, "buckshot") and d <= bf.M + bf.EPS
        push(s, Pending("shot", a_uid, t_uid, (int(sniper), int(buck))))
        roll(s, "hit", n, dice.HITS_SHOT, cr.x_of(s, a, "master_shooting"), cr.has(s, t, "hard_target"))
    elif kind in ("magic_shot", "bolt"):
        # › Magic Shot X and a bolt spell are magical ranged attacks: › Master of Shooting X re-rolls "in a
        # ranged attack", › Master of Magic X (designed: in sorcery) too — each its own failed dice.
        n = cr.x_of(s, a, "magic_shot") + bonus if kind == "magic_shot" else bonus  # a spell's X is ``bonus``
        push(s, Pending("magic", a_uid, t_uid, (1,) if kind == "bolt" else ()))
        master = cr.x_of(s, a, "master_magic") + cr.x_of(s, a, "master_shooting")
        roll(s, "hit", n, dice.HITS_SHOT, master, cr.has(s, t, "hard_target"))
    elif kind == "strike":
        push(s, Pending("magic", a_uid, t_uid))
        n = cr.x_of(s, a, "magical_strike") + bonus
        mask = attack_mask(s, a)
        roll(s, "hit", n, mask, cr.x_of(s, a, "master_magic"), cr.has(s, t, "seasoned_fighter"))
    elif kind == "heal":
        near = bf.in_contact(cr.disc(a), cr.disc(t))
        # › Healer X: in contact Axe and Shield/Axe heal; at a distance up to XL only Shield/Axe.
        mask = dice.HITS_MELEE if near else dice.SHIELD_AXE
        push(s, Pending("heal", a_uid, t_uid))
        roll(s, "hit", cr.x_of(s, a, "healer"), mask, cr.x_of(s, a, "master_healing"))
    elif kind == "control":
        push(s, Pending("control", a_uid, t_uid))
        roll(s, "hit", cr.x_of(s, a, "control"), dice.BULLSEYE)
    elif kind == "detect":
        push(s, Pending("detect", a_uid, t_uid))
        roll(s, "hit", 1, dice.SHIELD_AXE)


def resume(s: SignumState) -> None:
    """Finish the procedure on top of the stack now that its dice are rolled."""
    p = pop(s)
    if p.kind == "melee_roll":
        _melee_outcome(s, p)
    elif p.kind == "backstab":
        _backstab_outcome(s, p)
    elif p.kind == "boiler":
        _boiler_outcome(s, p)
    elif p.kind == "find":
        if results(s)["find"].hits:
            reveal(s, p.target)
            s.say(T("Sorcery finds the hidden creature"))
            start(s, p.card, p.actor, p.target, p.data[0])
        else:
            s.say(T("Sorcery fails to find the hidden creature"))
            _done(s, p)
    elif p.kind == "shot":
        hits = results(s)["hit"].hits
        if hits:
            push(s, Pending("shot_block", p.actor, p.target, (*p.data, hits)))
            roll(s, "block", hits, dice.BLOCKS_SHOT)
        else:
            s.say(T("The shot misses"))
            if p.data[1]:  # › Buckshot: "on a shot at M or less the target is moved S" — hit or not
                _buckshot(s, p.actor, p.target)
                bury_dead(s)
            _done(s, p)
    elif p.kind == "shot_block":
        _shot_outcome(s, p)
    else:
        _ability_outcome(s, p)


def _done(s: SignumState, p: Pending) -> None:
    if (p.kind == "magic" and p.data[:1] == (1,)) or p.card == "bolt":
        return  # a spell: no creature's activation ends
    end_activation(s, p.actor)


def _shot_outcome(s: SignumState, p: Pending) -> None:
    sniper, buck, hits = p.data
    blocks = results(s)["block"].hits
    t = s.model(p.target)
    per_hit = 2 if sniper else 1  # › Sniper: each successful shot at L to XL deals 2 damage
    n = max(0, (hits - blocks) * per_hit)  # designed § 7.3: Armour does not stop shots
    s.say(T("Shot: {hits} hit(s), {blocks} blocked, {n} wound(s)", hits=hits, blocks=blocks, n=n))
    shooter = s.model(p.actor).side()
    wound(s, t.uid, n, shooter)
    t = s.model(t.uid)
    if buck and t.wounds < cr.health(t):
        _buckshot(s, p.actor, t.uid)
    bury_dead(s)
    end_activation(s, p.actor)


def _buckshot(s: SignumState, shooter_uid: int, target_uid: int) -> None:
    """Rulebook › Glossary › Buckshot: the target is moved S (straight away from the shooter — designed);
    leaving contact so gives no Backstab; if it cannot be moved the full distance, it takes 1 more wound."""
    t, a = s.model(target_uid), s.model(shooter_uid)
    others = [cr.disc(o) for o in s.models if o.uid != t.uid]
    x, y, full = bf.push_away(cr.disc(t), cr.disc(a), bf.S, others, cr.obstacles(s.terrain))
    s.put(t.but(x=x, y=y))
    if not full:
        wound(s, t.uid, 1, a.side())


def _ability_outcome(s: SignumState, p: Pending) -> None:
    hits = results(s)["hit"].hits
    if p.kind == "magic":
        caster = s.find(p.actor)
        wound(
            s, p.target, hits, caster.side() if caster else -1
        )  # magic: the target cannot defend and Armour does not help
        s.say(T("Magic: {n} wound(s)", n=hits))
        bury_dead(s)
        if p.data[:1] == (1,):
            return
    elif p.kind == "heal":
        heal(s, p.target, hits)
        s.say(T("Healing removes {n} wound(s)", n=hits))
    elif p.kind == "control":
        t = s.find(p.target)
        a = s.find(p.actor)
        if hits and t is not None and a is not None:
            s.put(t.but(controller=a.side()))
            s.say(T("{name} is under control until the end of the turn", name=cr.CARDS[t.card].name))
    elif p.kind == "detect" and hits:
        reveal(s, p.target)
        s.say(T("The hidden creature is found"))
        s.stage = 2
        return
    end_activation(s, p.actor)
