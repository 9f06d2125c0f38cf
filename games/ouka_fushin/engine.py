"""央華封神 TCG: the goldfish engine (rules digest: shared/rules/ouka-fushin.md, cited as
"ouka-fushin.md:<line>"; the Japanese seed shared/seeds/001_c69c72f9df20aae7.txt wins where they
differ, cited as "seed:<line>").

What a game is here. Set-up: the protagonist starts at destiny 1 (seed:219); with
``mirror_match`` the opponent brought the same protagonist, a dice-off decides who substitutes,
and substituting swaps the protagonist's character cards in the deck for spares and gives 50
points (ouka-fushin.md:43-44, seed:64-66); without a substitute the game is lost
(ouka-fushin.md:40, 52). Shuffle, draw 6 (ouka-fushin.md:45). Each of our turns:

1. start: an empty deck ends the game (deck-out), else draw 2, or what is left
   (ouka-fushin.md:56, seed:83-85);
2. immortal phase: one character card grows the protagonist (same character, destiny + 1),
   grows an immortal (same, + 1) or is placed as a new immortal (destiny 1, an empty slot of the
   four beside the protagonist's, a character nobody has on the field) (ouka-fushin.md:57-59,
   seed:89-95, 186);
3. story phase: one non-accident story whose prerequisite keywords are on the field; d6 + the
   protagonist's ability at its destiny >= the target succeeds, a story with no target needs no
   roll; a failed roll of 1-3 may be turned into 6-5-4 by a hidden success, giving the opponent
   10 points (ouka-fushin.md:60-65, seed:99-146, 196-204). The story goes on an empty story slot,
   or on top of the own story it used as prerequisite (seed:272-273); the same card cannot be on
   the field twice (seed:275);
4. climax: when its keywords are on our open stories (ouka-fushin.md:70, seed:279-280); it ends
   the turn and the round (seed:79, 284); several may be played at once (seed:80);
5. end: discard or draw to exactly 6 (ouka-fushin.md:68, seed:157).

A round scores our open stories' points + the climaxes' bonus (ouka-fushin.md:71, seed:162);
the climax then sits on one of its condition slots with the condition stories under it, no more
usable (seed:166, 285-287). After rounds 1-2: cards may be taken back from the discard pile,
then the hand is discarded or drawn to 6, and the opponent starts the next round
(ouka-fushin.md:72-74, seed:167-173). A deck-out round scores nothing and costs d6 x 10
(ouka-fushin.md:72, seed:163-165). Missions are scored at the end (ouka-fushin.md:19-20,
seed:176, 233-234). The goldfish opponent never reacts and plays nothing (ouka-fushin.md:77).

Version 2 (issue 22): a story the protagonist in play can never pass (the die face it needs
is above 6 at every destiny, ``prepared._passable``) is worth 0 to keep, as ``card_value`` says.

The policy (parameters where the digest leaves the player a choice, see ``OukaEngine.params``):
  * immortal phase: grow the protagonist, else grow an immortal, else place one (lowest card
    index first within each);
  * story phase: among the playable stories with a chance of success, the one that makes a
    climax in hand playable, then the highest expected points (winning die faces x points), then
    the likelier, then the lowest card index; a story with a prerequisite goes on top of the
    latest own story holding it (``stacking``; or only when no slot is free), others on an
    empty slot; the ability of an "any" story is the protagonist's best;
  * hidden success: ``hidden_success`` (never / whenever it saves the check / only when the
    story is worth more than the 10 points given away or completes a climax's keywords);
  * climax: after the story phase (any earlier moment of the turn is never better here: growth
    lasts and a story can only add points), once the round would score ``climax_min_points``
    (0: at once), or when the deck is empty or every story slot is taken; the highest bonus
    first, up to ``climaxes_at_once`` together, each on its own condition stories, taking the
    covering stories worth the fewest points (the others stay open);
  * discards (end phase, round reset): the least useful card first (``card_value``); at a round
    reset with ``reclaim`` = useful, the hand becomes the 6 most useful cards of the hand and
    the discard pile, and only what is missing is drawn (this spares the deck).

Under this policy a turn uses at most 2 cards (a character, a story), so the end phase's refill
to 6 only ever discards: see ``metrics.cards_seen_by_turn`` for the exact count when more are
used.

The engine's modules (pure Python, no Django):
  * ``engine.py``: ``OukaEngine`` (its parameters, assumptions, what it does not model, the
    digest lines it cites, the fast ``play``) and ``ENGINE``;
  * ``constants.py``: the rules' numbers, deck zones, card kinds, phases, parameter choices;
  * ``dice.py``: the game's d6 and shuffle, and the faces that pass a check;
  * ``prepared.py``: ``OukaPrepared``, the integer tables ``prepare`` builds;
  * ``state.py``: ``OukaState`` (the state API, ``settle`` and the steps) and ``deal``;
  * ``policy.py``: the policy's pure pieces (climax covers, the keep value of a card);
  * ``metrics.py``: the measures' names, ``cards_seen_by_turn`` and ``record_game``;
  * ``plan.py``: ``hand_plan``, what the policy does first with an opening hand;
  * ``goals.py``: what a deck is tuned for (``GOALS``), read from a game's measures or from
    the kernel's rows (``OukaEngine.goal_values``);
  * ``kernel.py``: the compiled batch kernel ``play_games`` uses (numba; the same games as the
    state API, game by game: docs/engines/ouka_fushin.md).

Speed: ``prepare`` turns the deck into integer tables (keywords are bit masks, card identities
bits, the winning die faces of every story at every destiny precomputed); when the state settles
in a phase it keeps only the policy's choice there (``settle``), the full list of legal actions
being built only for ``legal_actions``; ``play`` runs the same step methods as ``apply`` in the
same order, without the legality check and without transcript lines unless asked for.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from games.ouka_fushin import GAME, kernel
from games.ouka_fushin.constants import (
    HAND_LIMIT,
    HIDDEN_ALWAYS,
    HIDDEN_NET,
    HIDDEN_NEVER,
    MATCH_ALL,
    MATCH_ANY,
    MIRROR_DICE,
    MIRROR_LOSE,
    MIRROR_NO,
    P_END,
    P_START,
    PROTAGONIST_ZONE,
    RECLAIM_NONE,
    RECLAIM_USEFUL,
    STACK_PREREQUISITE,
    STACK_WHEN_FULL,
    Action,
)
from games.ouka_fushin.goals import GOALS, ROW_READS
from games.ouka_fushin.metrics import (
    M_ATTEMPTED,
    M_CANNOT_SUBSTITUTE,
    M_CHECKS,
    M_CHECKS_PASSED,
    M_CLIMAX_TURN_PREFIX,
    M_CLIMAXES,
    M_COMPLETE,
    M_DECK_OUT,
    M_DECK_OUT_PENALTY,
    M_DECK_OUT_TURN,
    M_DESTINY,
    M_END_DRAWS,
    M_HIDDEN,
    M_HIDDEN_USED,
    M_MARGIN,
    M_MISSION_POINTS,
    M_MISSION_PREFIX,
    M_OPPONENT,
    M_RESET_DRAWS,
    M_ROUND_PREFIX,
    M_ROUNDS,
    M_SEEN,
    M_SUBSTITUTE_POINTS,
    M_SUBSTITUTED,
    M_SUCCEEDED,
    M_TOTAL,
    M_TURN_LIMIT,
    M_TURNS,
    M_USED,
    record_game,
)
from games.ouka_fushin.plan import PlanStep, hand_plan
from games.ouka_fushin.policy import worst_card
from games.ouka_fushin.prepared import OukaPrepared, build_prepared
from games.ouka_fushin.schedule import SCHEDULE
from games.ouka_fushin.state import OukaState, deal
from simulator.engine import compiled
from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine
from simulator.engine.goals import Goal, Values
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec

__all__ = ["ENGINE", "GAME_SLUG", "OukaEngine", "PlanStep", "hand_plan"]

GAME_SLUG = GAME.slug
DIGEST = "ouka-fushin.md"
#: games whose kernel rows ``goal_values`` holds at once (about 19 MB)
GOAL_SLICE = 65_536


# --- the engine ------------------------------------------------------------------------------


class OukaEngine(Engine[OukaPrepared, OukaState]):
    slug = GAME_SLUG
    version = 2  # 2: a story the protagonist can never pass is not kept (issue 22)
    schedule = SCHEDULE
    max_turns = 100
    goals = GOALS
    params = ParamSpec(
        (
            Param(
                "hidden_success",
                N_("Hidden success"),
                "choice",
                HIDDEN_ALWAYS,
                choices=(
                    (HIDDEN_NEVER, N_("Never")),
                    (HIDDEN_ALWAYS, N_("Whenever it saves the check")),
                    (HIDDEN_NET, N_("Only when worth the 10 points given away")),
                ),
                help=N_(
                    "After a failed check, a 1, 2 or 3 may be turned into 6, 5 or 4; each use "
                    "gives the opponent 10 points. The third choice uses it only when the story is "
                    "worth more than 10 points or completes the keywords of a climax in hand."
                ),
            ),
            Param(
                "climax_min_points",
                N_("Round points before a climax"),
                "int",
                0,
                minimum=0,
                maximum=1000,
                help=N_(
                    "A playable climax is held until the round (open stories and the climax "
                    "bonus) is worth this much; 0 plays it at once. It is played anyway when "
                    "the deck is empty or every story slot is taken."
                ),
            ),
            Param(
                "climaxes_at_once",
                N_("Climaxes played together"),
                "int",
                1,
                minimum=1,
                maximum=5,
                help=N_(
                    "Several climaxes may be played at the same moment, for one round; each "
                    "needs its own condition stories."
                ),
            ),
            Param(
                "stacking",
                N_("Where a story with a prerequisite goes"),
                "choice",
                STACK_PREREQUISITE,
                choices=(
                    (STACK_PREREQUISITE, N_("On its prerequisite story whenever it can")),
                    (STACK_WHEN_FULL, N_("In an empty slot; stacked only when none is left")),
                ),
                help=N_(
                    "A story played on one of our stories' keywords may be stacked on that "
                    "story: it keeps slots free, but a climax then takes the whole stack."
                ),
            ),
            Param(
                "reclaim",
                N_("Cards taken back at a round's end"),
                "choice",
                RECLAIM_USEFUL,
                choices=(
                    (RECLAIM_USEFUL, N_("The most useful of hand and discard pile")),
                    (RECLAIM_NONE, N_("None: refill from the deck")),
                ),
                help=N_(
                    "After rounds 1 and 2 any cards may return from the discard pile to the "
                    "hand before it is discarded or drawn to 6."
                ),
            ),
            Param(
                "mirror_match",
                N_("Opponent with the same protagonist"),
                "choice",
                MIRROR_NO,
                choices=(
                    (MIRROR_NO, N_("No")),
                    (MIRROR_DICE, N_("Yes, dice-off")),
                    (MIRROR_LOSE, N_("Yes, and we lose the dice-off")),
                ),
                help=N_(
                    "The loser of the dice-off plays its substitute protagonist, swaps its "
                    "protagonist's character cards for spares and gains 50 points; without a "
                    "substitute it loses. Assumption: a tied dice-off is rolled again."
                ),
            ),
            Param(
                "prerequisites",
                N_("Several prerequisite keywords (assumption)"),
                "choice",
                MATCH_ANY,
                choices=(
                    (MATCH_ANY, N_("Any one is enough")),
                    (MATCH_ALL, N_("All are needed")),
                ),
                help=N_(
                    "The rules name one condition keyword per story; for a card listing "
                    "several, this assumes whether one of them or all must be on the field."
                ),
            ),
            Param(
                "missions_need",
                N_("Missions with several climax types (assumption)"),
                "choice",
                MATCH_ALL,
                choices=(
                    (MATCH_ALL, N_("Every type on the field")),
                    (MATCH_ANY, N_("One type is enough")),
                ),
                help=N_(
                    "The catalog lists a mission's climax types, not its printed condition; "
                    "this assumes how they combine."
                ),
            ),
            Param(
                "extra_bonus",
                N_("Count climax extra bonuses (assumption)"),
                "bool",
                False,
                help=N_(
                    "The extra bonus's condition is printed text the catalog does not hold: "
                    "on, it is assumed met every time; off, never."
                ),
            ),
            Param(
                "completed_stories_score",
                N_("Completed stories score again (assumption)"),
                "bool",
                False,
                help=N_(
                    "Stories under an earlier climax can no longer be used or referred to; "
                    "off assumes they no longer score either, on counts them in every later "
                    "round's score."
                ),
            ),
            Param(
                "max_turns",
                N_("Turns at most"),
                "int",
                60,
                minimum=1,
                maximum=100,
                help=N_("A game still going after this many of our turns stops unfinished."),
            ),
        )
    )
    #: the parameters standing in for what the rules do not say, as the run pages list them
    assumptions = tuple(p.help for p in params.params if p.label.endswith("(assumption)"))
    not_modelled = (
        N_(
            "The opponent: it never plays stories, accidents, climaxes or immortals, never "
            "enlarges our stories and never runs out of cards."
        ),
        N_("Accidents: they only answer the opponent's stories, so they are dead cards here."),
        N_(
            "Card text: event and effect stories, characters' special abilities and one-shot "
            "uses (仙術・仙宝), immortals' abilities and untapping."
        ),
        N_("Foreshadowing (伏線): the policy never places a face-down card."),
        N_("Recruitment checks: the goldfish opponent has no immortals to recruit."),
        N_(
            "Climax extra-bonus conditions (see the parameter) and the tie-breaks of the final "
            "score."
        ),
        N_("Choosing the first player: with no reactions, going first or second plays alike."),
    )
    cites = tuple(
        f"{DIGEST}:{line}"
        for line in (
            15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 38, 39, 40, 43,
            44, 45, 46, 47, 50, 51, 52, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 68, 70, 71,
            72, 73, 74, 77,
        )
    )  # fmt: skip
    metric_labels = {
        M_ROUND_PREFIX: N_("Points in round"),
        M_TOTAL: N_("Total points"),
        M_MISSION_POINTS: N_("Mission points"),
        M_SUBSTITUTE_POINTS: N_("Substitute protagonist points"),
        M_OPPONENT: N_("Points given to the opponent (hidden successes)"),
        M_MARGIN: N_("Total points minus the opponent's"),
        M_CLIMAX_TURN_PREFIX: N_("Turn of the climax of round"),
        M_CLIMAXES: N_("Climaxes played"),
        M_ROUNDS: N_("Rounds scored"),
        M_COMPLETE: N_("All three rounds played"),
        M_ATTEMPTED: N_("Stories attempted"),
        M_SUCCEEDED: N_("Stories placed"),
        M_CHECKS: N_("Story checks rolled"),
        M_CHECKS_PASSED: N_("Story checks passed by the die"),
        M_HIDDEN: N_("Hidden successes"),
        M_HIDDEN_USED: N_("Used a hidden success"),
        M_MISSION_PREFIX: N_("Mission completed"),
        M_DECK_OUT: N_("Deck-out"),
        M_DECK_OUT_TURN: N_("Turn of the deck-out"),
        M_DECK_OUT_PENALTY: N_("Deck-out penalty"),
        M_SUBSTITUTED: N_("Played the substitute protagonist"),
        M_CANNOT_SUBSTITUTE: N_("Lost for want of a substitute"),
        M_TURN_LIMIT: N_("Stopped at the turn limit"),
        M_TURNS: N_("Turns played"),
        M_SEEN: N_("Cards seen"),
        M_END_DRAWS: N_("Cards drawn by the end phase's refill"),
        M_RESET_DRAWS: N_("Cards drawn at round resets"),
        M_USED: N_("Cards used from the hand in a turn"),
        M_DESTINY: N_("Protagonist's final destiny"),
    }

    def deck_problems(self, deck: SimDeck) -> list[str]:
        problems: list[str] = []
        if deck.copies(PROTAGONIST_ZONE) != 1:
            problems.append(N_("The deck needs exactly one protagonist."))
        if deck.size < 1:
            problems.append(N_("The deck has no cards to draw."))
        return problems

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> OukaPrepared:
        self.require_playable(deck)
        values = self.params.clean(params)
        return build_prepared(deck, values)

    def new_game(
        self, prepared: OukaPrepared, params: dict[str, Any], rng: random.Random
    ) -> OukaState:
        return deal(prepared, rng)

    def choose(self, state: OukaState) -> Action:
        return state.policy()

    def record(self, state: OukaState, metrics: Metrics) -> None:
        """One finished game's measures (``metrics.record_game``)."""
        record_game(state, metrics)

    def play_games(
        self, prepared: OukaPrepared, params: dict[str, Any], run_seed: int, start: int, count: int
    ) -> Metrics:
        """A batch: the compiled kernel (``games/ouka_fushin/kernel.py``, the same games game by
        game), or where numba is off or missing, the Python batch path (``play`` per game)."""
        if compiled.available():
            found = kernel.play_games(prepared, run_seed, start, count)
            if found is not None:
                return found
        else:
            compiled.fallback_notice(self.slug)
        return super().play_games(prepared, params, run_seed, start, count)

    def goal_values(
        self,
        prepared: OukaPrepared,
        params: dict[str, Any],
        goal: Goal,
        turn: int | None,
        run_seed: int,
        start: int,
        count: int,
    ) -> Values:
        """The goal read off the compiled kernel's rows (``goals.ROW_READS``), the same
        games as ``values_by_play``; a goal or deck the kernel does not cover, or numba off,
        plays the reference."""
        read = ROW_READS.get(goal.code)
        if read is not None and compiled.available():
            t = kernel.tables(prepared)
            if t is not None:
                out = np.empty(count, dtype=np.int64)
                # a row is a few hundred bytes: a round of a million games goes in slices
                for at in range(0, count, GOAL_SLICE):
                    n = min(GOAL_SLICE, count - at)
                    out[at : at + n] = read(kernel.play_rows(t, run_seed, start + at, n), turn)
                return out
        return super().goal_values(prepared, params, goal, turn, run_seed, start, count)

    def warm(self) -> None:
        """Compile the kernel (or load it from numba's disk cache) on the golden deck."""
        if not compiled.available():
            return
        compiled.warm_deal()
        from games.ouka_fushin.golden import GOLDEN_DECK

        kernel.warm(self.prepare(GOLDEN_DECK, {}))

    def play(
        self,
        prepared: OukaPrepared,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        """The policy's game: the same steps as ``apply`` without the legality check, and
        without building transcript lines unless asked for."""
        state = deal(prepared, rng)
        state.lines = transcript is not None
        step = state._step
        policy = state.policy
        hand = state.hand
        out = transcript.append if transcript is not None else None
        while not state.over:
            phase = state.phase
            # the two phases every turn passes through, called directly (``_step`` would
            # call the same methods; settling after them is needed only past the start)
            if phase == P_START:
                line = state._start()
                state.settle()
            elif phase == P_END:
                line = state._discard(worst_card(state)) if len(hand) > HAND_LIMIT else state._end()
            else:
                line = step(policy())
            if out is not None:
                out(line)
        self.record(state, metrics)


ENGINE = OukaEngine()
