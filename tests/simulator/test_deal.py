"""Counter-based deals (simulator/engine/deal.py): each game's order is a uniform permutation
that depends only on (run seed, game index), equal in a batch and alone, and the keys are the
splitmix64 hash they claim to be (checked against a plain-Python implementation here)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from simulator.engine.deal import deal_keys, deal_orders
from simulator.engine.rng import GameRng, dealt_order, game_rng, game_seed

MASK = (1 << 64) - 1


def splitmix(z: int) -> int:
    """splitmix64's finaliser on Python integers (written apart from the numpy one)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def keys_by_hand(run_seed: int, index: int, size: int) -> list[int]:
    base = splitmix(run_seed ^ 0x5DEECE66D)
    game = splitmix((base + index * 0x9E3779B97F4A7C15) & MASK)
    return [splitmix((game + (j + 1) * 0x9E3779B97F4A7C15) & MASK) for j in range(size)]


@pytest.mark.parametrize(
    ("run_seed", "index", "size"), [(0, 0, 5), (1, 0, 30), (2**63 - 1, 123_456, 50), (7, 99, 1)]
)
def test_the_keys_are_the_splitmix64_hash_of_seed_game_and_position(
    run_seed: int, index: int, size: int
) -> None:
    expected = keys_by_hand(run_seed, index, size)
    assert deal_keys(run_seed, index, 1, size)[0].tolist() == expected
    order = sorted(range(size), key=expected.__getitem__)
    assert deal_orders(run_seed, index, 1, size)[0].tolist() == order
    assert GameRng(run_seed, index).order(size) == order


def test_a_known_deal_stays_the_same_on_every_machine() -> None:
    """Stored runs replay only while this holds: a change here needs an engine version bump."""
    assert deal_orders(1, 0, 1, 10)[0].tolist() == [0, 4, 5, 1, 7, 2, 8, 3, 9, 6]
    assert deal_orders(42, 7, 1, 6)[0].tolist() == [0, 4, 5, 1, 3, 2]


def test_every_row_is_a_permutation_and_a_game_deals_the_same_in_any_batch() -> None:
    whole = deal_orders(11, 0, 1000, 30)
    assert all(sorted(row) == list(range(30)) for row in whole.tolist())
    for start, count in [(0, 1), (1, 173), (500, 500), (999, 1)]:
        assert (deal_orders(11, start, count, 30) == whole[start : start + count]).all()
    assert GameRng(11, 637).order(30) == whole[637].tolist()
    assert len({tuple(row) for row in whole.tolist()}) == 1000
    assert not (deal_orders(12, 0, 1000, 30) == whole).all()


def test_all_24_orders_of_four_cards_are_equally_likely() -> None:
    orders = deal_orders(2026, 0, 48_000, 4)
    seen = Counter(tuple(row) for row in orders.tolist())
    assert set(seen) == set(itertools.permutations(range(4)))
    _stat, p_value = stats.chisquare(list(seen.values()))
    assert p_value > 0.001, seen


def test_each_card_lands_in_each_position_of_a_30_card_deck_equally_often() -> None:
    orders = deal_orders(5, 0, 30_000, 30)
    table = np.zeros((30, 30), dtype=np.int64)
    for position in range(30):
        table[:, position] = np.bincount(orders[:, position], minlength=30)
    _stat, p_value, _dof, _expected = stats.chi2_contingency(table)
    assert p_value > 0.001
    # neighbouring games are not alike: the top cards of games i and i+1 are independent
    pairs = Counter(zip(orders[:-1, 0].tolist(), orders[1:, 0].tolist(), strict=True))
    assert max(pairs.values()) < 3 * (30_000 / 900)


def test_negative_seeds_or_indexes_are_refused() -> None:
    with pytest.raises(ValueError):
        deal_orders(-1, 0, 1, 5)
    with pytest.raises(ValueError):
        deal_orders(1, -1, 1, 5)


def test_the_game_generator_keeps_the_old_seeding_and_knows_its_game() -> None:
    rng = game_rng(8, 3)
    assert rng.random() == random.Random(game_seed(8, 3)).random()
    assert (rng.run_seed, rng.index) == (8, 3)
    assert dealt_order(rng, 12) == deal_orders(8, 3, 1, 12)[0].tolist()
    with pytest.raises(TypeError, match="game_rng"):
        dealt_order(random.Random(1), 12)


def test_the_same_game_of_different_runs_is_dealt_independently() -> None:
    tops = Counter(int(deal_orders(seed, 0, 1, 10)[0][0]) for seed in range(3000))
    _stat, p_value = stats.chisquare([tops[card] for card in range(10)])
    assert p_value > 0.001, tops


@pytest.mark.parametrize("run_seed", [0, 1, 12_345, 2**62, 2**63 - 1])
def test_the_kernels_deal_is_the_chunk_deal_for_every_deck_size(run_seed: int) -> None:
    """``compiled.deal_order`` (one game, inside numba) deals what ``deal_orders`` deals, for
    decks of 1 to 60 cards, from the smallest run seed to the largest: every kernel deals
    through it."""
    from simulator.engine.compiled import deal_order

    for size in range(1, 61):
        expected = deal_orders(run_seed, 7, 40, size)
        keys = np.empty(size, dtype=np.uint64)
        out = np.empty(size, dtype=np.intp)
        for row in range(40):
            deal_order(run_seed, 7 + row, size, keys, out)
            assert out.tolist() == expected[row].tolist(), (run_seed, size, row)
