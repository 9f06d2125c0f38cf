"""A tuning round on a worker: the baseline and the moves still in the race, paired.

A round is a simulation run whose deck data carries the tuning (``ROUND_KEY``); the worker
plays it through the runs' own chunk path (claim, lease, store), with ``PairedPlay`` in the
engine's place: its ``prepare`` builds the baseline's and every surviving candidate's tables,
its ``play_games`` gives the round's paired totals (``simulator.engine.tuning``). A race's
candidate decks do not change between rounds, so their tables are kept per worker thread
across rounds (``_kept``), keyed by the job.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine
from simulator.engine.goals import Goal, goal_by_code
from simulator.engine.metrics import Metrics
from simulator.engine.tuning import Move, moved_deck, paired_totals
from simulator.serialise import sim_deck_from_json

#: the key of a round's tuning data in its run's ``deck_data``
ROUND_KEY = "tuning"
#: candidate tables a worker thread keeps (a few hundred moves of one or two jobs)
KEPT_TABLES = 2_000


def is_round(deck_data: Mapping[str, Any] | None) -> bool:
    return bool(deck_data) and ROUND_KEY in deck_data  # type: ignore[operator]


def new_cards_from_json(cards: list[dict[str, Any]]) -> dict[str, SimCard]:
    """The cards a tuning's moves may add, by code (read as a deck's cards are)."""
    deck = sim_deck_from_json(
        {"format": 2, "game": "", "draw_zone": "", "cards": cards, "zones": []}
    )
    return {card.code: card for card in deck.cards}


@dataclass(frozen=True)
class PairedTables:
    baseline: Any
    candidates: tuple[tuple[int, Any], ...]


class _Kept(threading.local):
    def __init__(self) -> None:
        self.tables: OrderedDict[tuple[str, int], Any] = OrderedDict()


_kept = _Kept()


class PairedPlay:
    """The engine's stand-in for a round: ``prepare`` and ``play_games`` as
    ``simulator.engine.engine.play_prepared`` calls them."""

    def __init__(self, engine: Engine[Any, Any], data: Mapping[str, Any]) -> None:
        self.engine = engine
        self.slug = engine.slug
        self.job = str(data["job"])
        self.moves = [Move(cut, add) for cut, add in data["moves"]]
        self.survivors = [int(i) for i in data["survivors"]]
        self.new_cards = new_cards_from_json(list(data["new_cards"]))
        goal = goal_by_code(engine.goals, str(data["goal"]))
        if goal is None:
            raise ValueError(f"engine {engine.slug} has no goal {data['goal']!r}")
        self.goal: Goal = goal
        self.turn: int | None = data.get("turn")
        #: the round's first game: a round run's games are numbered from 0, the race's from here
        self.offset = int(data["offset"])

    def _tables(self, key: int, build: Any) -> Any:
        kept = _kept.tables
        found = kept.get((self.job, key))
        if found is None:
            found = kept[(self.job, key)] = build()
            while len(kept) > KEPT_TABLES:
                kept.popitem(last=False)
        else:
            kept.move_to_end((self.job, key))
        return found

    def prepare(self, deck: SimDeck, params: dict[str, Any]) -> PairedTables:
        baseline = self._tables(-1, lambda: self.engine.prepare(deck, params))
        candidates = tuple(
            (
                index,
                self._tables(
                    index,
                    lambda index=index: self.engine.prepare(
                        moved_deck(deck, self.moves[index], self.new_cards), params
                    ),
                ),
            )
            for index in self.survivors
        )
        return PairedTables(baseline, candidates)

    def play_games(
        self, prepared: PairedTables, params: dict[str, Any], run_seed: int, start: int, count: int
    ) -> Metrics:
        return paired_totals(
            self.engine,
            prepared.baseline,
            prepared.candidates,
            params,
            self.goal,
            self.turn,
            run_seed,
            self.offset + start,
            count,
        )


def round_play(
    engine: Engine[Any, Any], deck_data: Mapping[str, Any]
) -> tuple[PairedPlay, dict[str, Any]]:
    """For a round's run: the stand-in engine and the baseline deck's data to prepare."""
    data = deck_data[ROUND_KEY]
    return PairedPlay(engine, data), dict(data["baseline"])
