"""Legends of Signum (Легенды Сигнума) as a :class:`~ludorum.engine.Game`: who decides, what is legal,
how an action is applied, what each seat may see.  The rules themselves live in the chapter modules."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import CANCEL, CHANCE, Action, Config, Game, IllegalAction, Result
from ludorum.engine.i18n import N_, T
from ludorum.engine.options import Option
from ludorum.engine.provides import Provides, RulesPage
from ludorum.engine.state import derived_view_matches, derived_view_names
from ludorum.games.signum import actions as act
from ludorum.games.signum import combat, dice, setup, turn, victory
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.content import effects as content_effects
from ludorum.games.signum.movement import destination_point, why_not_point
from ludorum.games.signum.state import SignumState, new_action, player

VIEW_KEYS = derived_view_names(SignumState) | {"cards", "to_move"}
"""The keys of a Signum view: the derived fields, the visible cards' summaries and who decides."""

_cache: tuple[Any, Any] = (None, None)
"""The last state asked for its legal actions and the answer (states are never changed in place).

This memo and Signum's other one-entry memos (the last Battlefield's destinations, properties, bases and
so on) are rebound whole, key and answer in one tuple: a thread (the server's bots run in threads beside
its event loop) interrupted between storing a key and storing its answer would leave another thread's key
beside its own answer (tests/games/signum/test_caches.py)."""

MOVEMENT_RULE = T("7.1 Movement (designed § 7.1, docs/signum-rules.md)")
"""The rule a refused exact point cites.  The rulebook gives chapter 7.1 only its title (its contents list);
chapters 8–11 say nothing of how a move is measured, so the whole check is the project's design."""
CHAPTERS = {
    "build": N_("6.2 Building phase"),
    "terrain": N_("6.3 Terrain cards"),
    "activation": N_("6.4 Activation phase"),
}
"""The rulebook chapter of each phase, named in refusals."""
START_CHAPTER = N_("5 Start of the game")
"""The chapter of the set-up's decisions."""

OPEN_MOVE = {"move_to": T("the new centre of the acting model: x and y in millimetres")}
"""The open kind of a creature choosing where to move (worded once: the RL tables ask at every step)."""

END_TURN = Action("end_turn")
"""The action every free moment offers (made once: actions are immutable)."""
PASS = Action("pass")
"""Ending the building or the terrain phase (made once, likewise)."""

DICE_KINDS = ("roll", "first_die")
WAITING = (
    "melee_roll",
    "backstab",
    "boiler",
    "find",
    "shot",
    "shot_block",
    "magic",
    "heal",
    "control",
    "detect",
)


class SignumGame(Game[SignumState]):
    """The rules of Legends of Signum for two players."""

    provides = Provides(
        evaluation="ludorum.games.signum.evaluation:EVALUATION",
        facts="ludorum.games.signum.facts:FACTS",
        tunables="ludorum.games.signum.evaluation:TUNABLES",
        encoding="ludorum.games.signum.encoding:ENCODING",
        rules=RulesPage(doc="signum-rules.md", translations={"ru": "signum-rules.ru.md"}),
    )
    """Its search evaluation, lab facts, tunable weights, RL encoding and rules page, each resolved on use."""

    name = "signum"
    title = "Legends of Signum"
    min_players = 2
    max_players = 4
    blurb = T(
        "A skirmish card game on a tabletop battlefield: build from your deck, bring creatures into "
        "play and fight. Kill the enemy hero or reach 51 prosperity to win."
    )
    length = T("turns until a hero falls or 51 prosperity (60 turns each at most)")
    variants = {
        "architect": T("Experienced Architect: a building deck stacked in a chosen order (Rulebook › 10)"),
        "teams": T("4 players, 2 against 2: P1 and P3 against P2 and P4 (designed, Rulebook › 10)"),
    }
    options = tuple(
        Option(
            f"deck{i}",
            T(
                "player {n}'s deck and hero: a starter deck, or 'hero: card, card*2, ...' of one's own",
                n=i + 1,
            ),
            kind="text",
            choices=setup.deck_choices(),
            default=setup.DEFAULT_DECKS[i],
            seat=i,
        )
        for i in range(4)
    )
    state_type = SignumState
    # DESIGN.md §5: tactic cards are played face down; Rulebook › 10: an Experienced Architect lays out its
    # building deck "in the order it wants", and a deck lies face down, so the order is the owner's.
    private_kinds = frozenset({"set", "stack"})
    # Open moves (the kit checks).  Not ``move``: a move can end exactly where a ``contact`` would, the same
    # state, and then no other seat can tell which of the two was chosen (the soak's seed 887,
    # tests/games/signum/test_disclosure.py).
    public_kinds = frozenset({"activate", "run", "done", "end_turn"})
    public_labels = public_kinds  # their labels name only what everyone sees (the kit checks)
    plain_labels = True  # a label names only what its seat sees (the kit checks)
    rules_version = 7  # the history of versions: docs/signum.md, "Rules versions"

    def check_options(self, config: Config) -> None:
        """Refuse an invalid deck, naming every reason; 2 against 2 needs four players."""
        if config.has("teams") and config.players != 4:
            from ludorum.engine import ConfigError

            raise ConfigError(T("Legends of Signum: 2 against 2 ('teams') is for 4 players"))
        setup.check_decks(config)

    def new(self, config: Config, seed: int) -> SignumState:
        """Shuffle, deal and place the heroes; chance then rolls who chooses the first player."""
        return setup.new_state(config, seed)

    def max_decisions(self, config: Config) -> int:
        """A bound: the turn limit times a generous bound on one turn's decisions, plus setup."""
        # A turn: ≤ 40 cards played and ≤ 70 models activated, each activation ≤ 80 decisions (a move
        # with Backstab dice, a melee's splits and re-rolled dice, a Pursuit) — 8,000 is ample.
        return 60 * config.players + victory.limit(config.players) * 8000

    # -- who decides and what is legal ---------------------------------------------------------------

    def to_move(self, state: SignumState) -> int:
        """Chance while dice or the opening die roll wait; the splitting fighter in a melee; else the
        active player (or the die-roll winner choosing who goes first)."""
        if state.rolls or state.phase == "roll_first":
            return CHANCE
        if state.pending:
            p = state.pending[-1]
            if p.kind == "melee":
                return combat.splitter(state, p).side()
            return state.model(p.actor).side()
        return state.active

    def is_over(self, state: SignumState) -> bool:
        """Whether a victory condition ended the game."""
        return state.phase == "over"

    def legal_actions(self, state: SignumState) -> Sequence[Action]:
        """Every action open to the deciding seat."""
        global _cache
        cached = _cache
        if cached[0] is state:
            return cached[1]  # type: ignore[no-any-return]
        out = self._legal(state)
        _cache = (state, out)
        return out

    def _legal(self, s: SignumState) -> list[Action]:
        if s.phase == "over":
            return []
        if s.phase == "roll_first":  # DESIGN.md §5: every player rolls; the winner chooses (version 4)
            return [Action("first_die", (seat,)) for seat in range(s.players)]
        if s.rolls:
            return [Action("roll", counts) for counts, _ in dice.outcomes(s.rolls[0].n)]
        if s.pending:
            p = s.pending[-1]
            if p.kind == "melee":
                return [Action("split", (n,)) for n in combat.split_options(s, combat.splitter(s, p))]
            return act.pursuit_actions(s, p.actor)
        if s.phase == "choose_first":
            return [Action("first", (seat,)) for seat in range(s.players)]
        if s.phase == "stack":
            return [Action("stack", (b,)) for b in setup.stack_options(s, s.active)]
        if s.phase == "build":
            return [*turn.buildable(s), PASS]
        if s.phase == "terrain":
            return [*turn.terrain_actions(s), PASS]
        if s.coins_due:
            uid = s.coins_due[0]
            return [Action("clink", (uid, True)), Action("clink", (uid, False))]
        if s.acting >= 0:
            return act.stage_actions(s)
        return [
            *turn.card_actions(s),
            *[new_action(("activate", (m.uid,))) for m in turn.activatable(s)],
            END_TURN,
        ]

    def random_action(self, state: SignumState, rng: random.Random) -> Action:
        """As the engine's, but a creature about to move draws without listing every destination
        (:func:`~ludorum.games.signum.actions.random_stage_action`, the same distribution)."""
        if _cache[0] is not state and self._moving(state):
            return act.random_stage_action(state, rng)
        return super().random_action(state, rng)

    def chance_outcomes(self, state: SignumState) -> Sequence[tuple[Action, float]]:
        """Dice face counts with their multinomial probabilities; every player is as likely to win the
        opening roll."""
        if state.phase == "roll_first":
            rolls = self.legal_actions(state)
            return [(a, 1 / len(rolls)) for a in rolls]
        return [(Action("roll", counts), p) for counts, p in dice.outcomes(state.rolls[0].n)]

    # -- applying ------------------------------------------------------------------------------------

    def open_kinds(self, state: SignumState) -> dict[str, str]:
        """While a creature chooses where to move, any exact point may be given (Battlefield)."""
        if self._moving(state):
            return dict(OPEN_MOVE)
        return {}

    def apply(self, state: SignumState, action: Action) -> SignumState:
        """Validate, then apply to a copy."""
        if action.kind == "move_to" and self._moving(state):
            self._check_point(state, action)
        elif not self._quick_legal(state, action) and action not in self.legal_actions(state):
            raise IllegalAction(
                self.refusal(state, action), T("Legends of Signum › {chapter}", chapter=self.chapter(state))
            )
        s = state.clone()
        self._apply(s, action)
        self._settle(s)
        return s

    @staticmethod
    def _moving(s: SignumState) -> bool:
        """Whether the acting creature may still choose where to move (nothing else is pending)."""
        return (
            s.acting >= 0 and s.stage == 0 and not s.pending and not s.rolls and not s.coins_due
        ) and s.phase == "activation"

    def _quick_legal(self, s: SignumState, action: Action) -> bool:
        """A fast, exact membership test for the commonest actions (dice and moves); False = ask the list."""
        kind, args = action.kind, action.args
        if kind == "roll":
            return (
                bool(s.rolls)
                and s.phase != "over"
                and len(args) == 3
                and all(type(a) is int and a >= 0 for a in args)
                and sum(args) == s.rolls[0].n  # type: ignore[arg-type]
            )
        if s.phase == "over" or s.rolls:
            return False
        free = not s.pending and not s.coins_due
        if kind in ("activate", "end_turn"):
            if not (free and s.acting < 0 and s.phase == "activation"):
                return False
            if kind == "end_turn":
                return not args
            if len(args) != 1:
                return False
            m = s.find(args[0])  # type: ignore[arg-type]
            # turn.activatable, for this one model
            return m is not None and m.side() == s.active and not m.activated and not m.fresh
        if kind == "pass":
            return not args and not s.pending and s.phase in ("build", "terrain")
        if kind == "split":
            if not s.pending or s.pending[-1].kind != "melee" or len(args) != 1:
                return False
            return args[0] in combat.split_options(s, combat.splitter(s, s.pending[-1]))
        if kind == "done" and not args:
            if s.pending:
                return s.pending[-1].kind == "pursuit"
            return free and s.acting >= 0
        if kind == "cancel":
            return not args and free and s.acting >= 0 and s.stage == 0
        if kind in ("move", "run") and self._moving(s) and len(args) == (2 if kind == "move" else 1):
            m = s.model(s.acting)
            if kind == "run" and cr.has(s, m, "slow"):
                return False
            try:  # the list's names as keys (or the one direction named): no loop over the list
                return destination_point(s, m, kind == "run", tuple(args)) is not None
            except TypeError:  # an unhashable argument names no destination
                return False
        return False

    def _check_point(self, state: SignumState, action: Action) -> None:
        args = action.args
        if len(args) != 2 or not all(type(a) is int for a in args):
            raise IllegalAction(T("Move: give the point as two whole millimetres"), MOVEMENT_RULE)
        why = why_not_point(state, state.model(state.acting), args[0] / 10.0, args[1] / 10.0)  # type: ignore[operator]
        if why:
            raise IllegalAction(T("Move: {why}", why=why), MOVEMENT_RULE)

    def _apply(self, s: SignumState, action: Action) -> None:
        kind, args = action.kind, action.args
        if kind == "roll":
            r = s.rolls[0]
            nxt = dice.advance(r, args)  # type: ignore[arg-type]
            if isinstance(nxt, dice.Rolled):
                s.rolls = s.rolls[1:]
                s.rolled = (*s.rolled, nxt)
            else:
                s.rolls = (nxt, *s.rolls[1:])
        elif kind == "first_die":
            s.active = int(args[0])  # type: ignore[arg-type]
            s.phase = "choose_first"
        elif kind == "first":
            s.first = int(args[0])  # type: ignore[arg-type]
            s.active = s.first
            setup.compensate(s)
            if s.config.has("architect"):
                s.phase = "stack"
            else:
                s.turn = 0
                turn.begin_turn(s, s.first)
        elif kind == "stack":
            if setup.stack(s, str(args[0])):
                turn.begin_turn(s, s.first)
        elif kind == "split":
            combat.choose_split(s, int(args[0]))  # type: ignore[arg-type]
        elif s.pending:
            act.apply_pursuit(s, action)
        elif kind == "build":
            turn.build(s, str(args[0]))
        elif kind == "pass":
            if s.phase == "build":
                s.phase = "terrain"
                turn.skip_empty_phases(s)
            else:
                turn.start_activation(s)
        elif kind == "terrain":
            turn.lay_terrain(s, str(args[0]), int(args[1]))  # type: ignore[arg-type]
        elif kind == "clink":
            turn.clink(s, int(args[0]), bool(args[1]))  # type: ignore[arg-type]
        elif s.acting >= 0:
            act.apply_stage(s, action)
        elif kind == "activate":
            s.acting, s.stage = int(args[0]), 0  # type: ignore[arg-type]
        elif kind == "end_turn":
            turn.end_turn(s)
        else:
            turn.play_card(s, action)

    def _settle(self, s: SignumState) -> None:
        """Finish procedures whose dice are all rolled, then check the victory conditions."""
        while not s.rolls and s.pending and s.pending[-1].kind in WAITING and s.phase != "over":
            combat.resume(s)
            if victory.check_end(s):
                return
        if victory.check_end(s):
            return
        if s.acting >= 0 and s.find(s.acting) is None:
            s.acting, s.stage = -1, 0
        if s.out[s.active] and not s.rolls and not s.pending and s.phase != "over":
            turn.end_turn(s)  # the active player's hero fell in its own turn: the next player goes on

    # -- refusals ------------------------------------------------------------------------------------

    def chapter(self, s: SignumState) -> str:
        """The rulebook chapter of the decision at hand (its Russian title is the rulebook's contents')."""
        if s.rolls:
            return T("The three-faced die")
        if s.pending:
            return T("7.2 Melee")
        return T(CHAPTERS.get(s.phase, START_CHAPTER))

    def refusal(self, s: SignumState, action: Action) -> str:
        """Why the action is not possible, in the player's words."""
        from ludorum.games.signum.refusals import why

        return why(s, action)

    # -- results and information -----------------------------------------------------------------------

    def result(self, state: SignumState) -> Result:
        """1 to the winner (and its partner in 2 against 2), 0 to the others; ½ each in a draw."""
        w = state.winner
        n = state.players
        keys = [
            [0.5]
            if w == victory.DRAW
            else [1.0 if seat == w or (w >= 0 and not state.hostile(seat, w)) else 0.0]
            for seat in range(n)
        ]
        return Result.from_keys(keys, state.reason)

    def stage(self, state: SignumState) -> str:
        """The turn number and whose turn it is (set-up before the first turn)."""
        if state.phase == "over":
            return ""
        if state.phase in ("roll_first", "choose_first", "stack"):
            return T("Set-up")
        return T("Turn {n} · {seat}'s turn", n=state.turn, seat=player(state.active))

    def seat_name(self, state: SignumState, seat: int) -> str:
        """The faction a seat leads."""
        from ludorum.games.signum.content import faction_name

        return T(
            "{seat}, {faction}", seat=player(seat), faction=faction_name(cr.CARDS[state.heroes[seat]].faction)
        )

    def view(self, state: SignumState, seat: int | None) -> dict[str, Any]:
        """The derived view plus, for clients, summaries of every card the seat can see and who decides."""
        from ludorum.engine import derive_view
        from ludorum.games.signum.render import visible_cards

        out = derive_view(state, seat)
        out["cards"] = visible_cards(state, seat)
        out["to_move"] = None if self.is_over(state) else self.to_move(state)
        return out

    def view_equals(self, state: SignumState, seat: int | None, view: Mapping[str, Any]) -> bool:
        """``view(state, seat) == view``, its derived fields compared one by one, the cards last."""
        from ludorum.games.signum.render import visible_cards

        return (
            view.keys() == VIEW_KEYS
            and derived_view_matches(state, seat, view)
            and view["to_move"] == (None if self.is_over(state) else self.to_move(state))
            and view["cards"] == visible_cards(state, seat)
        )

    def sample_state(self, state: SignumState, seat: int | None, rng: random.Random) -> SignumState:
        """Redraw what ``seat`` cannot know: other hands, face-down tactics, deck orders, the generator."""
        s = state.clone()
        hands, tactics, decks, bdecks = list(s.hands), list(s.tactics), list(s.decks), list(s.building_decks)
        for p in range(state.players):
            # Every redraw starts from a canonical (sorted) order, so that it depends on what the seat
            # knows and on ``rng``, never on the true order it cannot see.
            if p == seat:
                order = sorted(decks[p])
                rng.shuffle(order)
                decks[p] = tuple(order)
                continue
            pool = sorted([*hands[p], *tactics[p], *decks[p]])
            rng.shuffle(pool)
            n_t = len(tactics[p])
            tac = [c for c in pool if cr.CARDS[c].kind == "tactic"][:n_t]
            rest = list(pool)
            for c in tac:
                rest.remove(c)
            tactics[p] = tuple(tac)
            hands[p] = tuple(rest[: len(hands[p])])
            decks[p] = tuple(rest[len(hands[p]) :])
            # While Experienced Architects stack their decks, which buildings are already in another
            # seat's deck is that seat's secret too (Rulebook › 10): redraw them from its whole pool.
            stacking = s.phase == "stack"
            b = sorted(setup.building_pool(cr.CARDS[s.heroes[p]].faction) if stacking else bdecks[p])
            rng.shuffle(b)
            bdecks[p] = tuple(b[: len(bdecks[p])])
        s.hands, s.tactics, s.decks, s.building_decks = (
            tuple(hands),
            tuple(tactics),
            tuple(decks),
            tuple(bdecks),
        )
        s.rng = rng.getrandbits(64)
        return s

    def describe(self, state: SignumState, action: Action) -> str:
        """The action in the rulebook's words."""
        from ludorum.games.signum.render import describe

        return describe(state, action)

    def render_text(self, state: SignumState, seat: int | None) -> str:
        """The Battlefield and the zones as text."""
        from ludorum.games.signum.render import render_text

        return render_text(state, seat)

    def effects(self) -> Mapping[str, Mapping[str, Any]]:
        """What each thing of the game does (its content's effect texts), for the table's tooltips."""
        return content_effects()

    def bots(self) -> Mapping[str, type[Any]]:
        """The heuristic bot."""
        from ludorum.games.signum.bot import HeuristicBot

        return {"heuristic": HeuristicBot}


_ = CANCEL
