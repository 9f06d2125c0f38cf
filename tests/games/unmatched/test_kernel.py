"""Unmatched's compiled batch kernel (games/unmatched/kernel.py) against the state API, game by
game, and ``play_games`` compiled against its Python batch path, total by total.

The reference is the state API (``new_game`` + ``choose`` + ``apply``): every kernel game
(``kernel.play_each``, the core ``play_batch`` runs) is compared with the state API's game of
the same run seed and index, on 10,000 games per deck and parameter set, and on edge decks
(1- and 3-card decks, exhaustion at set-up and in play, turn limits 1 and 60, opponent HP 1
and 40, a deck of dead cards only, a deck whose damage is exactly the opponent's HP).
"""

from __future__ import annotations

import importlib.util
import itertools
import logging
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pytest

from games.unmatched import kernel
from games.unmatched.engine import ENGINE, UnmatchedPrepared
from games.unmatched.golden import GOLDEN_DECK
from simulator.engine import compiled
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import BATCH, run_games
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng

RUN_SEED = 20261127
GAMES = 10_000  # per deck and parameter set (issue 22)

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="the kernel tests need numba (DECKLAB_COMPILED unset)"
)


@cache
def medusa() -> SimDeck:
    """The Medusa hero deck of the catalog file (the benchmark's deck), read the way the
    benchmark reads it."""
    from django.conf import settings

    path = settings.BASE_DIR / "bench" / "engine_speed.py"
    spec = importlib.util.spec_from_file_location("engine_speed_for_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    deck: SimDeck = module.product_deck("unmatched", "medusa", settings.BASE_DIR)
    return deck


# --- hand-built decks --------------------------------------------------------------------------

#: name -> (type, value or None, fighter, boost)
CARDS: dict[str, tuple[str, int | None, str, int]] = {
    "Gaze": ("attack", 2, "Medusa", 4),
    "Shot": ("attack", 3, "Medusa", 1),
    "Shot+": ("attack", 3, "Medusa", 3),  # Shot's value, a higher boost: attack order ties
    "Claws": ("versatile", 3, "Harpy", 2),
    "Dash": ("versatile", 4, "any", 1),
    "Jab": ("versatile", 1, "any", 1),
    "Spear": ("attack", 5, "Achilles", 0),  # another hero's: dead
    "Empty": ("attack", 0, "any", 1),  # value 0: dead
    "Guard": ("defense", 4, "Medusa", 0),
    "Plan": ("scheme", None, "Medusa", 3),
}


def deck_of(order: Sequence[str], hp: int = 16) -> SimDeck:
    """A deck of these cards (one pile line per name and count; the deal shuffles them)."""
    names = sorted(set(order))
    cards = [
        SimCard(0, "character-medusa", "Medusa", "character", {"hp": hp, "sidekick": "Harpies"})
    ]
    for index, name in enumerate(names, start=1):
        card_type, value, fighter, boost = CARDS[name]
        attributes: dict[str, Any] = {"boost": boost, "fighter": fighter}
        if value is not None:
            attributes["value"] = value
        cards.append(SimCard(index, name.lower(), name, card_type, attributes))
    return SimDeck(
        game="unmatched",
        cards=tuple(cards),
        zones={
            "hero": ((0, 1),),
            "deck": tuple((i, order.count(n)) for i, n in enumerate(names, start=1)),
        },
        draw_zone="deck",
    )


# --- the reference and the kernel, one tuple per game ----------------------------------------

Game = tuple[int, int, int, int, int, int, int, tuple[int, ...], tuple[int, ...]]


def state_api_games(
    p: UnmatchedPrepared, params: dict[str, Any], start: int, count: int
) -> list[Game]:
    games = []
    for index in range(start, start + count):
        state = ENGINE.new_game(p, params, game_rng(RUN_SEED, index))
        while not state.is_over():
            state.apply(ENGINE.choose(state))
        damage = tuple(state.damage)
        games.append(
            (
                state.fell_turn,
                int(state.lost),
                state.drawn,
                state.exhaustion,
                state.exhaustion_turn,
                len(damage),
                damage[-1] if damage else 0,
                tuple(state.dead_counts),
                damage,
            )
        )
    return games


def kernel_games(p: UnmatchedPrepared, start: int, count: int) -> list[Game]:
    rows, dead, damage = kernel.play_each(
        p.arrays, p.hero_hp, p.opponent_hp, p.max_turns, RUN_SEED, start, count
    )
    games = []
    for row, dead_row, damage_row in zip(
        rows.tolist(), dead.tolist(), damage.tolist(), strict=True
    ):
        turns = row[kernel.TURNS]
        games.append((*row, tuple(dead_row[:turns]), tuple(damage_row[:turns])))
    return games


def assert_same_games(deck: SimDeck, params: dict[str, Any], count: int) -> list[Game]:
    p = ENGINE.prepare(deck, params)
    ours, reference = kernel_games(p, 0, count), state_api_games(p, params, 0, count)
    differ = [i for i, (a, b) in enumerate(zip(ours, reference, strict=True)) if a != b]
    if differ:
        first = differ[0]
        pytest.fail(f"{len(differ)} games differ; {first}: {ours[first]} != {reference[first]}")
    return reference


# --- game by game ------------------------------------------------------------------------------

PARAMETER_SETS = [
    pytest.param({}, id="defaults"),
    pytest.param({"opponent_hp": 15}, id="15hp"),
    pytest.param({"opponent_hp": 1}, id="1hp"),
    pytest.param({"opponent_hp": 40}, id="40hp-exhaustion"),
    pytest.param({"max_turns": 1}, id="1-turn"),
    pytest.param({"opponent_hp": 40, "max_turns": 60}, id="40hp-60-turns"),
    pytest.param({"opponent_hp": 30, "max_turns": 9}, id="30hp-9-turns"),
]


@pytest.mark.parametrize("params", PARAMETER_SETS)
def test_the_kernel_plays_the_state_apis_games_on_the_golden_deck(params: dict[str, Any]) -> None:
    games = assert_same_games(GOLDEN_DECK, params, GAMES)
    assert len(games) == GAMES


@pytest.mark.parametrize(
    "params", [pytest.param({}, id="defaults"), pytest.param({"opponent_hp": 15}, id="15hp")]
)
def test_the_kernel_plays_the_state_apis_games_on_the_medusa_deck(params: dict[str, Any]) -> None:
    assert_same_games(medusa(), params, GAMES)


def test_the_golden_deck_games_reach_every_rule() -> None:
    """The 10,000-game comparisons meet what they claim to: the opponent falling, exhaustion
    at every stage, our hero losing to it, discards at the hand limit and the turn limit."""
    fell = state_api_games(ENGINE.prepare(GOLDEN_DECK, {}), {}, 0, 200)
    assert all(g[0] for g in fell)
    # 36 damage in the deck: a 40 HP opponent never falls and exhaustion defeats our hero
    reference = state_api_games(ENGINE.prepare(GOLDEN_DECK, {"opponent_hp": 40}), {}, 0, 2000)
    assert any(g[1] for g in reference) and not any(g[0] for g in reference)
    assert any(g[3] and g[4] for g in reference)
    assert max(max(g[7]) for g in reference) == 7  # hands filled to the limit with dead cards
    limited = state_api_games(ENGINE.prepare(GOLDEN_DECK, {"max_turns": 1}), {}, 0, 200)
    assert {g[5] for g in limited} == {1} and not all(g[0] for g in limited)


EDGE_DECKS = [
    pytest.param(["Gaze"], 16, {}, id="1-card"),
    pytest.param(["Gaze"], 8, {}, id="1-card-lost-at-set-up"),
    pytest.param(["Guard"], 9, {}, id="1-card-1hp-left"),
    pytest.param(["Gaze", "Claws", "Guard"], 16, {"opponent_hp": 12}, id="3-cards"),
    pytest.param(["Dash", "Jab", "Plan"], 16, {"opponent_hp": 5}, id="3-cards-exact-damage"),
    pytest.param(["Dash"] * 5, 16, {"opponent_hp": 20}, id="damage-exactly-the-hp"),
    pytest.param(["Dash"] * 5, 16, {"opponent_hp": 21}, id="damage-1-short"),
    pytest.param(["Guard", "Plan", "Spear", "Empty"] * 7, 16, {"max_turns": 60}, id="all-dead"),
    pytest.param(["Guard"] * 6, 2, {}, id="2hp-hero"),
    pytest.param(["Jab"] * 30, 16, {"opponent_hp": 40, "max_turns": 60}, id="one-card-30-copies"),
    pytest.param(
        ["Shot", "Shot+", "Dash", "Claws", "Gaze", "Jab", "Guard", "Plan", "Spear", "Empty"] * 3,
        16,
        {"opponent_hp": 40, "max_turns": 60},
        id="ties-and-dead-cards",
    ),
]


@pytest.mark.parametrize(("cards", "hp", "params"), EDGE_DECKS)
def test_the_kernel_plays_the_state_apis_games_on_edge_decks(
    cards: list[str], hp: int, params: dict[str, Any]
) -> None:
    assert_same_games(deck_of(cards, hp), params, 2000)


def test_the_batch_adds_up_the_games_it_plays_one_by_one() -> None:
    """``play_batch`` (totals) and ``play_each`` (rows) run the same core: the totals are the
    rows added up, the padding of finished games included."""
    p = ENGINE.prepare(GOLDEN_DECK, {"opponent_hp": 30, "max_turns": 9})
    args = (p.arrays, p.hero_hp, p.opponent_hp, p.max_turns, RUN_SEED, 100, 3000)
    rows, _dead, damage = kernel.play_each(*args)
    totals = kernel.play_batch(*args)
    turns = rows[:, kernel.TURNS]
    played = np.arange(p.max_turns)[None, :] < turns[:, None]
    padded = np.where(played, damage, rows[:, kernel.FINAL][:, None])
    assert totals.damage.tolist() == padded.sum(axis=0).tolist()
    assert totals.damage2.tolist() == (padded * padded).sum(axis=0).tolist()
    assert totals.dead.sum() == turns.sum()
    assert totals.scalars[kernel.S_DRAWN] == rows[:, kernel.DRAWN].sum()


# --- totals: the compiled play_games and the Python batch path -------------------------------


def python_run(
    monkeypatch: pytest.MonkeyPatch, deck: SimDeck, params: dict[str, Any], count: int
) -> Metrics:
    with monkeypatch.context() as patch:
        patch.setenv("DECKLAB_COMPILED", "0")
        assert not compiled.available()
        return run_games(ENGINE, deck, params, run_seed=RUN_SEED, start=0, count=count)


@pytest.mark.parametrize(
    ("deck", "params"),
    [
        pytest.param(GOLDEN_DECK, {}, id="golden"),
        pytest.param(GOLDEN_DECK, {"opponent_hp": 40}, id="golden-40hp"),
        pytest.param(GOLDEN_DECK, {"opponent_hp": 30, "max_turns": 9}, id="golden-limit"),
        pytest.param(deck_of(["Gaze"], 8), {}, id="lost-at-set-up"),
    ],
)
def test_play_games_compiled_gives_the_python_paths_metrics_however_the_run_is_split(
    monkeypatch: pytest.MonkeyPatch, deck: SimDeck, params: dict[str, Any]
) -> None:
    count = 2 * BATCH + 345
    expected = python_run(monkeypatch, deck, params, count).to_json()
    assert compiled.available()
    p = ENGINE.prepare(deck, params)
    for cuts in ((0, count), (0, 1, 8, 1000, count), (0, 999, 1001, 2002, count)):
        parts = [
            ENGINE.play_games(p, params, RUN_SEED, a, b - a) for a, b in itertools.pairwise(cuts)
        ]
        assert Metrics.merged(parts).to_json() == expected, cuts
    whole = run_games(ENGINE, deck, params, run_seed=RUN_SEED, start=0, count=count)
    assert whole.to_json() == expected


def test_an_empty_batch_gives_the_python_paths_empty_metrics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert ENGINE.play_games(p, {}, 1, 0, 0).to_json() == (
        ENGINE.play_games_python(p, {}, 1, 0, 0).to_json()
    )


def test_negative_seeds_and_indexes_are_refused_on_both_paths() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    for seed, start in ((-1, 0), (1, -1)):
        with pytest.raises(ValueError, match="not negative"):
            ENGINE.play_games(p, {}, seed, start, 10)
        with pytest.raises(ValueError, match="not negative"):
            ENGINE.play_games_python(p, {}, seed, start, 10)


# --- the fallback and the warm-up -----------------------------------------------------------------


def test_the_fallback_plays_the_python_path_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(compiled, "_noticed", set())
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with caplog.at_level(logging.INFO, logger="simulator.engine.compiled"):
        first = ENGINE.play_games(p, {}, 3, 0, 50)
        ENGINE.play_games(p, {}, 3, 50, 50)
        ENGINE.warm()  # nothing to compile: the Python path needs no warm-up
    notices = [r for r in caplog.records if "compiled kernels unavailable" in r.getMessage()]
    assert len(notices) == 1 and "unmatched" in notices[0].getMessage()
    assert first.to_json() == ENGINE.play_games_python(p, {}, 3, 0, 50).to_json()


def test_warm_readies_the_kernel_with_the_argument_types_a_run_passes() -> None:
    ENGINE.warm()
    dispatcher: Any = kernel._play_batch  # numba's dispatcher: it lists what it compiled
    before = list(dispatcher.signatures)
    assert before, "warm() compiled nothing"
    ENGINE.play_games(ENGINE.prepare(medusa(), {}), {}, 2**63 - 1, 10**9, 10)
    assert list(dispatcher.signatures) == before  # no second compilation


def test_the_prepared_arrays_are_the_prepared_tables() -> None:
    p = ENGINE.prepare(medusa(), {"opponent_hp": 15})
    a = p.arrays
    assert a.pile.tolist() == list(p.pile)
    assert a.value.tolist() == list(p.value) and a.score.tolist() == list(p.attack_score)
    assert a.rank.tolist() == list(p.discard_rank) and a.dead.tolist() == list(p.dead)
    assert p == ENGINE.prepare(medusa(), {"opponent_hp": 15})  # arrays do not take part
