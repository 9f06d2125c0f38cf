"""Countdown's engine (the rules are in the package's docstring)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine, GameState
from simulator.engine.goals import HIGHER, LOWER, Goal
from simulator.engine.i18n import N_
from simulator.engine.metrics import Metrics
from simulator.engine.params import Param, ParamSpec
from tests.simulator.fake_games.countdown import GAME
from tests.simulator.fake_games.countdown.schedule import SCHEDULE

GAME_SLUG = GAME.slug
MAX_TURNS = 12
MIN_CARDS = 5


class Exploded(RuntimeError):
    pass


@dataclass(frozen=True)
class Prepared:
    damage: tuple[int, ...]  # by position in the unshuffled pile
    opponent_hp: int


class CountdownState(GameState):
    def __init__(self, prepared: Prepared, order: list[int]) -> None:
        self.prepared = prepared
        self.order = order
        self.turn = 0
        self.dealt = 0
        self.by_turn: list[int] = []
        self.fell_turn = 0

    def is_over(self) -> bool:
        return bool(self.fell_turn) or self.turn >= min(MAX_TURNS, len(self.order))

    def legal_actions(self) -> list[Any]:
        return [] if self.is_over() else ["draw"]

    def apply(self, action: Any) -> str:
        card = self.order[self.turn]
        self.turn += 1
        self.dealt += self.prepared.damage[card]
        self.by_turn.append(self.dealt)
        if self.dealt >= self.prepared.opponent_hp:
            self.fell_turn = self.turn
        return f"turn {self.turn}: {self.dealt}"

    def copy(self) -> CountdownState:
        other = CountdownState(self.prepared, self.order)
        other.turn, other.dealt, other.fell_turn = self.turn, self.dealt, self.fell_turn
        other.by_turn = list(self.by_turn)
        return other


def _damage_by(metrics: Metrics, turn: int | None) -> int:
    return metrics.sums[f"damage_by_turn_{turn or MAX_TURNS:02d}"]


def _fall_turn(metrics: Metrics, _turn: int | None) -> int:
    # a game the opponent survives counts as the turn after the last
    return next(iter(metrics.histograms.get("falls_turn", {MAX_TURNS + 1: 1})))


#: the goals a Countdown deck is tuned for (the tuning tests' toy game)
GOALS = (
    Goal(
        "damage",
        N_("Damage dealt by turn %(turn)s"),
        HIGHER,
        "mean",
        _damage_by,
        turn=3,
        cite="mattsan.md:19",
    ),
    Goal(
        "fall_turn",
        N_("The turn the opponent falls"),
        LOWER,
        "mean",
        _fall_turn,
        cite="mattsan.md:19",
    ),
)


class CountdownEngine(Engine[Prepared, CountdownState]):
    slug = GAME_SLUG
    version = 3
    schedule = SCHEDULE
    params = ParamSpec(
        (
            Param("opponent_hp", N_("Opponent HP"), "int", 20, minimum=1, maximum=100),
            Param("explode", N_("Fail on purpose"), "bool", False),
            Param(
                "style",
                N_("Style"),
                "choice",
                "calm",
                choices=(("calm", N_("Calm")), ("wild", N_("Wild"))),
            ),
        )
    )
    not_modelled = (N_("Everything but drawing and dealing damage."),)
    cites = ("mattsan.md:19",)
    metric_labels = {"fell": N_("The opponent fell"), "damage_by_turn_": N_("Damage by turn")}
    goals = GOALS

    def deck_problems(self, deck: SimDeck) -> list[str]:
        if deck.size < MIN_CARDS:
            return [N_("The deck needs at least five cards.")]
        return []

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> Prepared:
        if params.get("explode"):
            raise Exploded("asked to fail")
        pile = deck.pile()
        damage = tuple(int(deck.cards[i].attributes.get("hp") or 0) for i in pile)
        return Prepared(damage=damage, opponent_hp=int(params["opponent_hp"]))

    def new_game(self, prepared: Prepared, params: dict[str, Any], rng: random.Random) -> Any:
        order = list(range(len(prepared.damage)))
        rng.shuffle(order)
        return CountdownState(prepared, order)

    def choose(self, state: CountdownState) -> Any:
        return "draw"

    def record(self, state: CountdownState, metrics: Metrics) -> None:
        metrics.count("fell", int(bool(state.fell_turn)))
        if state.fell_turn:
            metrics.observe("falls_turn", state.fell_turn)
        last = state.by_turn[-1] if state.by_turn else 0
        for turn in range(1, MAX_TURNS + 1):
            dealt = state.by_turn[turn - 1] if turn <= len(state.by_turn) else last
            metrics.add(f"damage_by_turn_{turn:02d}", dealt)
        metrics.add("cards_drawn", state.turn)


ENGINE = CountdownEngine()
