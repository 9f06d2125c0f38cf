"""Monster Hunter TCG (Capcom, 2007): the goldfish engine (rules digest:
shared/rules/monster-hunter.md; the Japanese original shared/seeds/000_8f85e727828b31e6.txt,
cited as "seed NNN", wins where they differ).

What a game is here. Set-up: HR points, retreats and material points 0, an empty hand
(monster-hunter.md:38); no mulligan, cards are drawn from turn 1 (line 39). Every turn:

1. Hand (line 45): discard by ``discard_policy``, then draw back up to 6.
2. Placement (lines 46-48): at most one monster a turn, face down on our own sheet; the 2-player
   side holds one per area in 4 areas, the 3-4-player side up to 3 per area in 2 areas (line 47).
   On a full sheet a new monster may replace only a face-up monster without a main-target icon
   (line 48, seed 085-087). The goldfish opponent never hunts (line 68), so our monsters stay
   face down and a full sheet stays full. (Seed 223 has a 4th monster in a 3-4-player area
   replace one there; seed 085 allows replacing only on a full sheet. Monsters are placed in an
   area with room, so the two agree here; which area a monster sits in is not tracked.)
3. Move and 4. Hunt (lines 49-59), only in the training-ground mode (``lineup``): the opponent's
   sheet holds reference monsters (HP, attack, reach, rank) that our hunter hunts for HR; see
   "The training ground" below.
5. Equip (lines 60-61): weapons and armor from the hand, paid with material points.
6. Result (lines 63-65): the retirement check, +1 HR point for each face-down monster on our
   sheet, +1 in a 2-player game when the opponent's sheet has no monster; damage resets.

The game ends at 20 HR points (a win; line 41, at once, even in the middle of a hunt, seed 072),
at the retirement check after the 3rd retreat (line 41; the HR win beats it, line 42, see
``same_turn``), or after ``max_turns`` turns. An empty deck is a retreat (line 59, seed 054):
+1 retreat, the discard pile is shuffled into a new deck, the hunter goes back to camp.

The training ground. The hunter is the deck's hunter card (attack, movement, reach, item icons;
defence 0, no weapon; lines 15-16). An equipped weapon overrides attack, movement, reach, item
icons and weapon icon; equipped armor overrides defence (lines 20, 25, seed 235, 248). The map is
abstract (an assumption, ``approach``): from camp every area of the training sheet is
``approach`` areas away and its areas are one step apart, so a hunter on the sheet can reach any
of its areas. In the hunt (lines 51-58) the hunter and the face-up monsters of its area act in
reach order (``reach_ties`` breaks ties). Attacking a face-down monster flips it; a flipped
monster with a higher reach interrupts and attacks first, then the hunter's attack starts again
(line 53, seed 115-117). The hunter may discard weapon cards for +1 attack each, only with a
weapon icon matching the equipped weapon's, any weapon when none is equipped (line 21-22, seed
177-178, 240-241), and use items whose icons match its item icons (line 26). A monster with 0 HP
is slain: +rank HR points (line 55). A monster's attack hits the hunter: armor cards discarded
give +1 defence each for the turn (line 57, seed 254); damage beyond defence mills that many
cards from the deck (line 58).

The policy (every choice the digest leaves to the player is a parameter):
  * hand phase: ``discard_policy`` -- "dead" discards every card the hunter can never use in
    this game (``policy.dead_card``): monsters beyond the free slots of the sheet (ours never
    leave it), and, as there is a hunt only in the training ground, items, weapon cards for
    attack and armor for defence without a line-up; items whose icons do not match or that
    have no effect; weapons and armor that are no upgrade or can never be paid for (without
    material, only a trade-in pays). In the plain goldfish (no line-up, no material) only
    monsters are of use. "none" keeps everything; "dig" keeps only the monsters that can
    still be placed (as many as the free slots, the sturdiest first);
  * placement: the monster with the highest HP (then rank) whenever one can be placed;
  * move: to the area of the best monster the hunter can slay this turn (``hunt_policy``),
    else to the area with the least face-up attack;
  * hunt: attack that monster, spending just enough weapon cards (lowest attack first) and
    then usable items; with nothing to slay it holds when only face-down monsters are there
    (seed 111), else attacks the weakest face-up monster and spends nothing;
  * monster attacks: ``armor_policy`` "absorb" discards armor cards (lowest defence first)
    while damage remains; items add defence only with ``item_effect`` "defence";
  * equip: the affordable weapon with the highest attack above the current one, then the
    affordable armor with the highest defence above the current one (one of each a turn).

Measures: see ``metrics.py`` (their names are stable: the results page reads them).

The engine's modules (pure Python, no Django):
  * ``engine.py``: ``MonsterHunterEngine`` (its parameters, assumptions, what it does not
    model, the digest lines it cites, the fast ``play``) and ``ENGINE``;
  * ``constants.py``: the rules' numbers, card kinds and icons, phases, actions, outcomes and
    the training ground's line-ups;
  * ``prepared.py``: ``MonsterHunterPrepared``, the integer tables ``prepare`` builds;
  * ``state.py``: ``MonsterHunterState``, what the rules allow and how each action plays;
  * ``policy.py``: ``policy_action``, the goldfish policy described above;
  * ``metrics.py``: the measures' names and ``record_game``;
  * ``plan.py``: ``hand_plan``, what the policy does first with an opening hand;
  * ``goals.py``: what a deck is tuned for (``GOALS``), read from a game's measures or from
    the kernel's per-game rows (``MonsterHunterEngine.goal_values``).

Deals: a game's deck is dealt from counter-based keys (``simulator/engine/deal.py``), and the
r-th reshuffle after a retreat is the same deal of game ``index + r * RESHUFFLE_STRIDE``
(version 2: the same seed deals other games than the version 1 shuffle did).

Speed: ``prepare`` turns the deck into integer tables; ``play`` drives the same state methods
as ``apply`` but without the legality check and without building transcript text, so both play
exactly the same games (the tests compare them seed by seed). A worker's batch
(``play_games``) runs the compiled kernel (``kernel.py``, numba) on the same tables as arrays;
where it cannot, the Python batch path (``python_batch``) plays the fast loop. The kernel
plays the state API's games (``tests/games/monster_hunter/test_kernel.py``); see
docs/engines/monster_hunter.md.

Version 2 (issue 22): the counter-based deal, and the hand policy fixed: "dead" counts every
card the hunter can never use as dead (before, weapons, armor and matching items were kept in
the plain goldfish, where none can be used, and hands clogged); "dig" (and "dead") keep only
the monsters that can still be placed, not every monster while a slot is free.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from games.monster_hunter import GAME, kernel
from games.monster_hunter.constants import HUNTER_ZONE, NO_LINEUP, UNIFORM, Action
from games.monster_hunter.goals import GOALS, ROW_READS
from games.monster_hunter.metrics import (
    M_ARMOR_TURN,
    M_DEAD_ITEMS,
    M_FIRST_RETREAT,
    M_FIRST_SLAY,
    M_HR_PREFIX,
    M_HUNT_HR,
    M_LIMIT,
    M_MILLED,
    M_PLACED_PREFIX,
    M_REACHED,
    M_REACHED_TURN,
    M_RETIRED,
    M_RETIRED_TURN,
    M_RETREATS,
    M_SLAIN,
    M_USABLE,
    M_WEAPON_TURN,
    M_WEAPONS,
    M_WON_RETIRING,
    record_game,
)
from games.monster_hunter.plan import PlanStep, hand_plan
from games.monster_hunter.policy import policy_action
from games.monster_hunter.prepared import MonsterHunterPrepared, build_prepared
from games.monster_hunter.schedule import SCHEDULE
from games.monster_hunter.state import MonsterHunterState
from simulator.engine import compiled
from simulator.engine.cards import SimDeck
from simulator.engine.deal import deal_orders
from simulator.engine.engine import Engine
from simulator.engine.goals import Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec
from simulator.engine.rng import GameRng, dealt_order

__all__ = ["ENGINE", "GAME_SLUG", "MonsterHunterEngine", "PlanStep", "hand_plan"]

GAME_SLUG = GAME.slug
DIGEST = "monster-hunter.md"
#: games whose kernel rows ``goal_values`` holds at once: a row is 8 * (43 + 2 * max_turns)
#: bytes, so however many games a tuning round asks for, its rows never take more than about
#: 10 MB (at 60 turns)
GOAL_ROWS = 8_192


# --- the engine ------------------------------------------------------------------------------

#: every digest line the engine applies: the card types, the start, the win, and the turn
#: (lines 44-65) line by line -- but 56 and 62 (the slain monster's owner banks it; the
#: uniqueness checks), which a goldfish never meets
CITED_LINES = (*range(15, 19), 20, 21, 22, 25, 26, 38, 39, 41, 42, *range(45, 56), 57, 58)
CITED_LINES += (59, 60, 61, 63, 64, 65, 68)


class MonsterHunterEngine(Engine[MonsterHunterPrepared, MonsterHunterState]):
    slug = GAME_SLUG
    version = 2
    schedule = SCHEDULE
    max_turns = 60
    params = ParamSpec(
        (
            Param(
                "players",
                N_("Play sheet side"),
                "choice",
                "2",
                choices=(("2", N_("2 players")), ("3-4", N_("3-4 players"))),
                help=N_(
                    "2 players: one monster per area, 4 areas, and +1 HR point when the "
                    "opponent's sheet is empty; 3-4 players: up to 3 per area, 2 areas."
                ),
            ),
            Param(
                "discard_policy",
                N_("Hand phase discards"),
                "choice",
                "dead",
                choices=(
                    ("dead", N_("Dead cards")),
                    ("none", N_("Nothing")),
                    ("dig", N_("All but placeable monsters")),
                ),
                help=N_(
                    "Which cards to discard before drawing back up to 6: dead cards (every "
                    "card the hunter can never use in this game: without a training line-up "
                    "there is no hunt, so items are never used, weapons and armor only when "
                    "they can be equipped; monsters beyond the free slots of your sheet), "
                    "nothing, or everything except monsters that can still be placed. "
                    "Discarding digs deeper but brings the deck-out (a retreat) sooner."
                ),
            ),
            Param(
                "lineup",
                N_("Training ground line-up"),
                "choice",
                NO_LINEUP,
                choices=(
                    (NO_LINEUP, N_("None: the opponent's sheet stays empty")),
                    ("starter", N_("Starter: four small monsters")),
                    ("mixed", N_("Mixed: small to rank 3")),
                    ("elder", N_("Elder: ranks 3 to 5")),
                    (UNIFORM, N_("Uniform: the numbers below")),
                ),
                help=N_(
                    "Reference monsters on the opponent's sheet that your hunter hunts for "
                    "HR points. None is the plain goldfish: the opponent never places a "
                    "monster."
                ),
            ),
            Param(
                "lineup_count",
                N_("Uniform line-up: monsters"),
                "int",
                4,
                minimum=1,
                maximum=6,
                help=N_("Used by the uniform line-up; at most 4 fit the 2-player sheet."),
            ),
            Param(
                "lineup_hp",
                N_("Uniform line-up: HP"),
                "int",
                4,
                minimum=1,
                maximum=20,
                help=N_("Used by the uniform line-up."),
            ),
            Param(
                "lineup_attack",
                N_("Uniform line-up: attack"),
                "int",
                2,
                minimum=0,
                maximum=10,
                help=N_("Used by the uniform line-up."),
            ),
            Param(
                "lineup_reach",
                N_("Uniform line-up: reach"),
                "int",
                2,
                minimum=0,
                maximum=6,
                help=N_("Used by the uniform line-up."),
            ),
            Param(
                "lineup_rank",
                N_("Uniform line-up: rank"),
                "int",
                2,
                minimum=0,
                maximum=5,
                help=N_("Used by the uniform line-up: HR points for slaying one."),
            ),
            Param(
                "restock",
                N_("Slain reference monsters return"),
                "choice",
                "one",
                choices=(
                    ("one", N_("One a turn")),
                    ("all", N_("All at once")),
                    ("none", N_("Never")),
                ),
                help=N_(
                    "An assumption: the training opponent places slain monsters back, face "
                    "down, in the placement phase (a real opponent places one a turn)."
                ),
            ),
            Param(
                "approach",
                N_("Areas from camp to the training sheet"),
                "int",
                2,
                minimum=1,
                maximum=6,
                help=N_(
                    "An assumption, as the map is not modelled: every area of the training "
                    "sheet is this many moves from your camp, and one move from each other."
                ),
            ),
            Param(
                "hunt_policy",
                N_("Hunt target"),
                "choice",
                "rank",
                choices=(
                    ("rank", N_("Highest rank it can slay")),
                    ("cheap", N_("Fewest cards spent")),
                ),
                help=N_(
                    "Which monster the hunter goes for among those it can slay this turn: "
                    "the highest rank, or the one costing the fewest discarded cards."
                ),
            ),
            Param(
                "item_effect",
                N_("Item effect"),
                "choice",
                "attack",
                choices=(
                    ("attack", N_("+1 attack")),
                    ("defence", N_("+1 defence")),
                    ("none", N_("None (only counted)")),
                ),
                help=N_(
                    "An assumption: item effects vary by card and are not in the catalog, so "
                    "a usable item counts as +1 attack, +1 defence, or nothing."
                ),
            ),
            Param(
                "armor_policy",
                N_("Armor cards in hand"),
                "choice",
                "absorb",
                choices=(
                    ("absorb", N_("Discard to absorb hits")),
                    ("never", N_("Keep them")),
                ),
                help=N_(
                    "Whether armor cards in hand are discarded for +1 defence each when a "
                    "monster hits (each saves one milled card)."
                ),
            ),
            Param(
                "reach_ties",
                N_("Equal reach acts first"),
                "choice",
                "hunter",
                choices=(("hunter", N_("The hunter")), ("monster", N_("The monster"))),
                help=N_(
                    "An assumption: the rules order the hunt by reach but do not say who "
                    "acts first on a tie. A flipped monster interrupts only with a higher "
                    "reach, as the rules say."
                ),
            ),
            Param(
                "deck_out",
                N_("Retreat when"),
                "choice",
                "on_empty",
                choices=(
                    ("on_empty", N_("The deck becomes empty")),
                    ("on_draw", N_("A card is needed from an empty deck")),
                ),
                help=N_(
                    "An assumption: the rules say a player whose deck has run out retreats. "
                    "Damage left when the retreat happens is lost."
                ),
            ),
            Param(
                "same_turn",
                N_("HR win and retirement in one turn"),
                "choice",
                "hr_first",
                choices=(
                    ("hr_first", N_("HR points first")),
                    ("retire_first", N_("Retirement check first")),
                ),
                help=N_(
                    "The rules say the HR win beats retirement, but list the retirement "
                    "check before the result phase's HR points. HR first: a player at the 3rd "
                    "retreat still scores those points and wins at 20. Retirement first: the "
                    "check comes before them."
                ),
            ),
            Param(
                "material_per_turn",
                N_("Material points a turn"),
                "int",
                0,
                minimum=0,
                maximum=10,
                help=N_(
                    "An assumption: material comes from your monsters that opponents slay, "
                    "which a goldfish never does, so only trade-ins pay for equipment. This "
                    "banks one material card worth this much each turn, as a stand-in."
                ),
            ),
            Param(
                "max_turns",
                N_("Turns at most"),
                "int",
                30,
                minimum=1,
                maximum=60,
                help=N_("A game still going after this many turns ends at the turn limit."),
            ),
        )
    )
    #: the parameters standing in for what the rules do not say, as the run pages list them
    assumptions = tuple(p.help for p in params.params if p.help.startswith("An assumption"))
    not_modelled = (
        N_("The opponent's hunter: it never hunts your monsters, so they stay face down."),
        N_("The map: roads and camps are replaced by a fixed distance to the training sheet."),
        N_("Other hunters in the training ground and the order of areas between hunters."),
        N_("Card text: item effects are one assumed +1; weak points are ignored."),
        N_(
            "Uniqueness checks: your monsters stay face down and reference monsters carry "
            "no main-target or one-per-field icons."
        ),
        N_("The parent (first player) and who becomes the next parent."),
        N_("Material points from your own slain monsters (see the material parameter)."),
    )
    cites = tuple(f"{DIGEST}:{line}" for line in CITED_LINES)
    goals = GOALS
    metric_labels = {
        M_HR_PREFIX: N_("HR points by turn"),
        M_PLACED_PREFIX: N_("Monsters placed by turn"),
        M_REACHED: N_("Reached 20 HR points"),
        M_REACHED_TURN: N_("Turn 20 HR points were reached"),
        M_RETIRED: N_("Retired (3 retreats)"),
        M_RETIRED_TURN: N_("Turn of retirement"),
        M_LIMIT: N_("Turn limit reached"),
        M_WON_RETIRING: N_("HR win in the turn of the 3rd retreat"),
        M_RETREATS: N_("Retreats"),
        M_FIRST_RETREAT: N_("Turn of the first retreat"),
        M_MILLED: N_("Cards milled by monster damage"),
        M_WEAPONS: N_("Matching weapons in hand"),
        M_USABLE: N_("Usable items in hand"),
        M_DEAD_ITEMS: N_("Dead items in hand"),
        M_SLAIN: N_("Reference monsters slain"),
        M_HUNT_HR: N_("HR points from hunts"),
        M_FIRST_SLAY: N_("Turn of the first slain monster"),
        M_WEAPON_TURN: N_("Turn a weapon was first equipped"),
        M_ARMOR_TURN: N_("Turn armor was first equipped"),
    }

    def deck_problems(self, deck: SimDeck) -> list[str]:
        problems = []
        hunters = deck.in_zone(HUNTER_ZONE)
        if not hunters:
            problems.append(N_("The deck has no hunter card (it goes beside the deck)."))
        elif deck.copies(HUNTER_ZONE) > 1:
            problems.append(N_("The deck has more than one hunter card."))
        if deck.size < 1:
            problems.append(N_("The deck has no cards to draw."))
        return problems

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> MonsterHunterPrepared:
        self.require_playable(deck)
        values = self.params.clean(params)
        return build_prepared(deck, values)

    def new_game(
        self, prepared: MonsterHunterPrepared, params: dict[str, Any], rng: random.Random
    ) -> MonsterHunterState:
        # the game's chance step: the counter-based deal of game (run seed, index), which
        # the compiled kernel deals too; retreats reshuffle from the same two numbers
        pile = prepared.pile
        order = dealt_order(rng, len(pile))
        deck = [pile[i] for i in reversed(order)]  # drawn from the end: the top card last
        assert isinstance(rng, GameRng)  # dealt_order refuses any other generator
        return MonsterHunterState(prepared, deck, rng.run_seed, rng.index)

    def choose(self, state: MonsterHunterState) -> Action:
        return policy_action(state)

    def record(self, state: MonsterHunterState, metrics: Metrics) -> None:
        record_game(state, metrics)

    def play(
        self,
        prepared: MonsterHunterPrepared,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """The policy's game through ``step`` without the legality check, and without text
        unless a transcript is wanted: the same game as ``choose`` + ``apply``."""
        state = self.new_game(prepared, params, rng)
        step = state.step
        if transcript is None:
            while not state.over:
                step(policy_action(state), None)
        else:
            while not state.over:
                log: list[str] = []
                step(policy_action(state), log)
                transcript.append("; ".join(log))
        record_game(state, metrics)

    def play_games(
        self,
        prepared: MonsterHunterPrepared,
        params: dict[str, Any],
        run_seed: int,
        start: int,
        count: int,
    ) -> Metrics:
        """A worker's batch: the compiled kernel (``kernel.py``) where numba runs, else the
        Python batch path; both play the games ``play`` plays (the tests compare them)."""
        p = prepared
        if compiled.available():
            totals = kernel.batch_totals(p.tables, run_seed, start, count)
            return kernel.metrics_of(totals, p.hr_keys, p.placed_keys)
        compiled.fallback_notice(self.slug)
        return python_batch(p, run_seed, start, count)

    def goal_values(
        self,
        prepared: MonsterHunterPrepared,
        params: dict[str, Any],
        goal: Goal,
        turn: int | None,
        run_seed: int,
        start: int,
        count: int,
    ) -> Values:
        """The goal's value in each game, read off the compiled kernel's per-game rows (the
        games ``play`` plays: tests/games/monster_hunter/test_goals.py holds them equal to
        ``values_by_play`` game by game); without numba, or for a goal the rows do not
        carry, each game played alone."""
        read = ROW_READS.get(goal.code)
        if read is None or not compiled.available():
            return super().goal_values(prepared, params, goal, turn, run_seed, start, count)
        values = np.empty(count, dtype=np.int64)
        for at in range(0, count, GOAL_ROWS):
            size = min(GOAL_ROWS, count - at)
            rows = kernel.per_game(prepared.tables, run_seed, start + at, size)
            values[at : at + size] = read(rows, prepared.max_turns, turn)
        return values

    def warm(self) -> None:
        """Compile the kernel, or load it from numba's on-disk cache, on the golden deck."""
        if not compiled.available():
            return
        from games.monster_hunter.golden import GOLDEN_DECK

        kernel.warm(self.prepare(GOLDEN_DECK, {"lineup": "mixed"}).tables)


def python_batch(p: MonsterHunterPrepared, run_seed: int, start: int, count: int) -> Metrics:
    """The Python batch path (the kernel's fallback): every deck of the batch dealt at once
    (``deal_orders``, as ``new_game`` deals each), each game played by the fast loop."""
    metrics = Metrics()
    if count <= 0:
        return metrics
    pile = np.asarray(p.pile, dtype=np.intp)
    # each row reversed: drawn from the end, the deal's first card last
    decks = pile[deal_orders(run_seed, start, count, len(p.pile))[:, ::-1]].tolist()
    for offset, deck in enumerate(decks):
        state = MonsterHunterState(p, deck, run_seed, start + offset)
        step = state.step
        while not state.over:
            step(policy_action(state), None)
        record_game(state, metrics)
    metrics.games += count
    return metrics


ENGINE = MonsterHunterEngine()
