"""The pure race (simulator/engine/tuning.py): moved decks keep the shuffles, paired totals do
not depend on how the games are split, and the race's decisions come from exact sums."""

from __future__ import annotations

import json

import pytest

from games.unmatched.engine import ENGINE
from games.unmatched.golden import GOLDEN_DECK
from simulator.engine.cards import SimCard
from simulator.engine.deal import deal_orders
from simulator.engine.goals import HIGHER, Goal
from simulator.engine.metrics import Metrics
from simulator.engine.tuning import (
    BASE_KEY,
    MIN_ROUND,
    Move,
    RaceState,
    all_moves,
    move_key,
    moved_deck,
    paired_totals,
    race,
)

DECK = GOLDEN_DECK
PARAMS = ENGINE.params.clean({})
DAMAGE = Goal(
    "damage",
    "Damage by turn %(turn)s",
    HIGHER,
    "mean",
    lambda metrics, turn: metrics.sums[f"damage_by_turn:{turn:02d}"],
    turn=4,
)
ACTIONS = [card.code for card in DECK.cards if card.card_type != "character"]
NEW = SimCard(index=0, code="um-new", name="New", card_type="attack", attributes={"value": 5})


def test_a_swapped_card_takes_the_very_place_of_the_copy_it_replaces() -> None:
    pile = DECK.pile()
    cut = DECK.cards[pile[7]].code
    moved = moved_deck(DECK, Move(cut, "um-new"), {"um-new": NEW})
    new_index = len(DECK.cards)
    place = max(p for p, card in enumerate(pile) if DECK.cards[card].code == cut)
    assert moved.pile() == [new_index if p == place else c for p, c in enumerate(pile)]
    assert moved.cards[new_index].code == "um-new" and moved.cards[new_index].index == new_index
    assert moved.size == DECK.size
    assert moved.cards[: len(DECK.cards)] == DECK.cards  # the deck's own indexes stay


def test_a_move_that_changes_nothing_leaves_the_pile_as_it_was() -> None:
    code = ACTIONS[3]
    assert moved_deck(DECK, Move(code, code), {}).pile() == DECK.pile()


def test_a_copy_more_keeps_the_other_cards_order_in_every_game() -> None:
    moved = moved_deck(DECK, Move(None, ACTIONS[0]), {})
    assert moved.size == DECK.size + 1
    size = DECK.size
    for before, after in zip(
        deal_orders(5, 0, 200, size), deal_orders(5, 0, 200, size + 1), strict=True
    ):
        assert [p for p in after.tolist() if p < size] == before.tolist()


def test_a_copy_fewer_moves_only_the_last_card_into_its_gap() -> None:
    pile = DECK.pile()
    cut = DECK.cards[pile[3]].code
    moved = moved_deck(DECK, Move(cut, None), {})
    place = max(p for p, card in enumerate(pile) if DECK.cards[card].code == cut)
    expected = list(pile)
    expected[place] = pile[-1]
    assert moved.pile() == expected[:-1]


def test_a_cut_card_must_be_in_the_draw_zone_and_an_added_one_known() -> None:
    with pytest.raises(ValueError):
        moved_deck(DECK, Move("character-medusa", None), {})
    with pytest.raises(ValueError):
        moved_deck(DECK, Move(None, "nowhere"), {})


def test_all_moves_skips_pins_and_swapping_a_card_for_itself() -> None:
    moves = all_moves(DECK, [ACTIONS[0], ACTIONS[1]], pins=[ACTIONS[2]], sizes=True)
    assert Move(ACTIONS[0], ACTIONS[0]) not in moves
    assert all(m.cut != ACTIONS[2] for m in moves)
    assert Move(None, ACTIONS[1]) in moves and Move(ACTIONS[3], None) in moves


def _prepared(moves: list[Move]) -> tuple[object, list[tuple[int, object]]]:
    baseline = ENGINE.prepare(DECK, PARAMS)
    return baseline, [
        (i, ENGINE.prepare(moved_deck(DECK, m, {"um-new": NEW}), PARAMS))
        for i, m in enumerate(moves)
    ]


def test_paired_totals_are_the_same_however_the_games_are_split() -> None:
    moves = [Move(ACTIONS[0], "um-new"), Move(ACTIONS[5], ACTIONS[1]), Move(None, "um-new")]
    baseline, candidates = _prepared(moves)
    whole = paired_totals(ENGINE, baseline, candidates, PARAMS, DAMAGE, 4, 99, 0, 3_000)
    parts = Metrics.merged(
        paired_totals(ENGINE, baseline, candidates, PARAMS, DAMAGE, 4, 99, start, count)
        for start, count in ((0, 1), (1, 999), (1_000, 1_337), (2_337, 663))
    )
    assert whole.to_json() == parts.to_json()
    # the baseline's own sums are its values added up, game by game
    values = ENGINE.goal_values(baseline, PARAMS, DAMAGE, 4, 99, 0, 3_000)
    assert whole.sums[BASE_KEY] == int(values.sum())


def test_a_no_op_move_differs_by_exactly_zero_in_every_game() -> None:
    code = ACTIONS[4]
    baseline, candidates = _prepared([Move(code, code)])
    totals = paired_totals(ENGINE, baseline, candidates, PARAMS, DAMAGE, 4, 7, 0, 2_000)
    assert (totals.sums[move_key(0)], totals.squares[move_key(0)]) == (0, 0)


def test_a_race_is_reproducible_and_its_state_survives_json() -> None:
    moves = all_moves(DECK, ACTIONS[:4])[:20]
    first = race(
        ENGINE,
        DECK,
        moves,
        new_cards={},
        params=PARAMS,
        goal=DAMAGE,
        turn=4,
        seed=3,
        budget=60_000,
    )
    again = race(
        ENGINE,
        DECK,
        moves,
        new_cards={},
        params=PARAMS,
        goal=DAMAGE,
        turn=4,
        seed=3,
        budget=60_000,
    )
    assert first.ranking == again.ranking
    state = first.state
    assert RaceState.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert state.spent <= state.budget
    assert state.done and state.next_round() is None


def test_rounds_double_and_the_last_takes_what_is_left() -> None:
    state = RaceState.start(moves=3, budget=12_000, resolution=0.0)
    assert state.first == MIN_ROUND
    rounds = []
    while (games := state.next_round()) is not None:
        start, count = games
        rounds.append(count)
        metrics = Metrics(games=count)
        for i in range(3):  # three moves never told apart: no drop
            metrics.sums[move_key(i)] = count
            metrics.squares[move_key(i)] = count * 4
        state.record(metrics, start, count)
    assert rounds == [200, 400, 800, 1600]
    assert sum(rounds) * 4 == state.spent <= 12_000
    assert 12_000 - state.spent < 4 * MIN_ROUND


def test_a_move_clearly_behind_the_leader_is_dropped_and_a_close_one_kept() -> None:
    state = RaceState.start(moves=3, budget=10**6, resolution=0.0)
    start, count = state.next_round() or (0, 0)
    metrics = Metrics(games=count)
    # move 0: +1 every game; move 1: +1 or 0 (mean 0.5); move 2: +1 or +0.98-ish (close)
    metrics.sums[move_key(0)], metrics.squares[move_key(0)] = count, count
    metrics.sums[move_key(1)], metrics.squares[move_key(1)] = count // 2, count // 2
    metrics.sums[move_key(2)], metrics.squares[move_key(2)] = count - 2, count - 2
    state.record(metrics, start, count)
    assert state.dropped == [None, 1, None]
    ranking = state.ranking()
    assert [r.index for r in ranking] == [0, 2, 1]
    assert ranking[1].tied and not ranking[2].tied


def test_a_round_out_of_order_is_refused() -> None:
    state = RaceState.start(moves=1, budget=10**6, resolution=0.0)
    with pytest.raises(ValueError):
        state.record(Metrics(games=100), 5, 100)
