"""Monster Hunter's compiled batch kernel (games/monster_hunter/kernel.py) against the state API
(games/monster_hunter/state.py, the reference) game by game, and ``play_games`` compiled
against the Python batch path on totals.

Game by game: ``kernel.per_game`` gives a row per game (every measure, the final HR, bank,
equipment, card counts, a hash of the deck, hand and discard pile in order, HR and monsters by
turn); ``kernel.state_row`` gives the same row from a finished state. The reference games are
played two ways: through the state API itself (``new_game``, ``choose``, ``apply`` with its
legality check) on 1,000 seeds per parameter set, and through ``step`` + ``policy_action`` (the
engine's fast loop ``play``, which test_engine.py's
``test_the_fast_loop_plays_the_same_games_as_the_state_api`` and the conformance check
``play-equals-state-api`` compare with the state API transcript by transcript) on 10,000 seeds
per parameter set. Every value of every choice parameter is in at least one set.

Pure Python and numba; no database. About 35 s on the shared 2-core machine once the kernel is
in numba's cache (a cold compile adds 12 s of CPU, up to 100 s of wall time under load)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from games.monster_hunter import kernel
from games.monster_hunter.engine import ENGINE, python_batch
from games.monster_hunter.golden import GOLDEN_DECK
from games.monster_hunter.policy import policy_action
from games.monster_hunter.prepared import MonsterHunterPrepared
from simulator.engine import compiled
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng
from tests.games.monster_hunter.test_engine import CARDS, HUNTER

pytestmark = pytest.mark.skipif(not compiled.available(), reason="numba is not installed")

RUN_SEED = 17

#: every value of every choice parameter at least once, and the int parameters at their bounds
PARAM_SETS: list[dict[str, Any]] = [
    {},
    {"discard_policy": "dig", "players": "3-4"},
    {"discard_policy": "none", "material_per_turn": 1},
    {"lineup": "starter", "hunt_policy": "cheap", "item_effect": "defence", "approach": 1},
    {"lineup": "mixed", "material_per_turn": 2, "same_turn": "retire_first"},
    {
        "lineup": "elder",
        "players": "3-4",
        "reach_ties": "monster",
        "deck_out": "on_draw",
        "restock": "all",
        "material_per_turn": 3,
    },
    {
        "lineup": "uniform",
        "lineup_count": 4,
        "lineup_hp": 1,
        "lineup_attack": 10,
        "lineup_reach": 6,
        "lineup_rank": 0,
        "restock": "all",
        "armor_policy": "never",
        "discard_policy": "dig",
    },
    {
        "lineup": "uniform",
        "players": "3-4",
        "lineup_count": 6,
        "lineup_hp": 3,
        "lineup_attack": 3,
        "lineup_reach": 2,
        "item_effect": "none",
        "restock": "none",
        "approach": 6,
        "max_turns": 12,
    },
    # reach ties decide in some games here: a monster that survived its flip (the hunter
    # retreated) meets a hunter whose new weapon has the same reach
    {
        "lineup": "uniform",
        "lineup_hp": 3,
        "lineup_attack": 8,
        "lineup_reach": 3,
        "reach_ties": "monster",
        "material_per_turn": 2,
    },
    {
        "lineup": "uniform",
        "lineup_count": 1,
        "lineup_hp": 20,
        "lineup_attack": 0,
        "lineup_reach": 0,
        "lineup_rank": 5,
        "material_per_turn": 10,
        "max_turns": 60,
        "discard_policy": "none",
    },
]


def ids_of(raw: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in raw.items()) or "defaults"


def fast_row(p: MonsterHunterPrepared, run_seed: int, index: int) -> list[int]:
    """Game ``index`` through ``step`` + ``policy_action`` (the fast loop ``play``)."""
    state = ENGINE.new_game(p, {}, game_rng(run_seed, index))
    step = state.step
    while not state.over:
        step(policy_action(state), None)
    return kernel.state_row(state)


def api_row(p: MonsterHunterPrepared, run_seed: int, index: int) -> list[int]:
    """Game ``index`` through the state API alone (legal actions checked at every step)."""
    state = ENGINE.new_game(p, {}, game_rng(run_seed, index))
    while not state.is_over():
        state.apply(ENGINE.choose(state))
    return kernel.state_row(state)


def compare(p: MonsterHunterPrepared, start: int, count: int, reference: Any) -> None:
    rows = kernel.per_game(p.tables, RUN_SEED, start, count).tolist()
    for offset, row in enumerate(rows):
        expected = reference(p, RUN_SEED, start + offset)
        if row != expected:
            names = {v: k for k, v in vars(kernel).items() if k.startswith("R_")}
            pairs = enumerate(zip(expected, row, strict=True))
            wrong = [(names.get(i, i), e, r) for i, (e, r) in pairs if e != r]
            pytest.fail(f"game {start + offset}: (column, state, kernel) {wrong[:8]}")


# --- game by game -----------------------------------------------------------------------------


@pytest.mark.parametrize("raw", PARAM_SETS, ids=ids_of)
def test_the_kernel_plays_the_state_apis_games(raw: dict[str, Any]) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, raw)
    compare(p, 0, 1_000, api_row)


@pytest.mark.parametrize("raw", PARAM_SETS, ids=ids_of)
def test_the_kernel_plays_the_fast_loops_games_on_ten_thousand_seeds(raw: dict[str, Any]) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, raw)
    compare(p, 1_000, 10_000, fast_row)


def test_the_rows_cover_the_rules_they_check() -> None:
    """The parameter sets above reach the rare events, so the comparison means something."""
    seen: dict[str, int] = dict.fromkeys(
        ("retired", "limit", "won_retiring", "milled", "slain", "weapon", "armor", "reshuffled"),
        0,
    )
    for raw in PARAM_SETS:
        p = ENGINE.prepare(GOLDEN_DECK, raw)
        for row in kernel.per_game(p.tables, RUN_SEED, 0, 2_000).tolist():
            seen["retired"] += row[kernel.R_OUTCOME] == kernel.O_RETIRED
            seen["limit"] += row[kernel.R_OUTCOME] == kernel.O_LIMIT
            seen["won_retiring"] += row[kernel.R_WON_RETIRING]
            seen["milled"] += row[kernel.R_MILLED] > 0
            seen["slain"] += row[kernel.R_SLAIN] > 0
            seen["weapon"] += row[kernel.R_WEAPON_TURN] > 0
            seen["armor"] += row[kernel.R_ARMOR_TURN] > 0
            seen["reshuffled"] += row[kernel.R_RETREATS] > 0
    assert all(seen.values()), seen


# --- edge decks -------------------------------------------------------------------------------


def tiny_deck(names: list[str], copies: int = 1) -> SimDeck:
    """The hunter and ``copies`` of each named test card (test_engine.CARDS)."""
    cards = [SimCard(0, "hunter", "Hunter", "hunter", HUNTER)]
    for index, name in enumerate(names, start=1):
        card_type, attributes = CARDS[name]
        cards.append(SimCard(index, name.lower(), name, card_type, attributes))
    return SimDeck(
        game="monster-hunter",
        cards=tuple(cards),
        zones={"hunter": ((0, 1),), "main": tuple((i, copies) for i in range(1, len(cards)))},
        draw_zone="main",
    )


EDGE_DECKS = {
    "one monster": tiny_deck(["Boar"]),
    "one weapon": tiny_deck(["Cleaver"]),
    "one item": tiny_deck(["Haunch"]),
    "three cards": tiny_deck(["Wyvern", "Mail", "Keg"]),
    "three monsters": tiny_deck(["Boar", "Slug", "Crab"]),
    # six cards: the first refill empties the deck (a retreat with an empty discard pile)
    "six cards": tiny_deck(["Boar", "Cleaver", "Jerkin"], copies=2),
    # armor and weapons only: the hand clogs under "none", every card is dead under "dead"
    "no monsters": tiny_deck(["Cleaver", "Greatblade", "Maul", "Jerkin", "Mail"], copies=3),
    "every card": tiny_deck(list(CARDS), copies=2),
}
EDGE_PARAMS: list[dict[str, Any]] = [
    {},
    {"deck_out": "on_draw"},
    {"discard_policy": "none", "max_turns": 1},
    {"discard_policy": "dig", "max_turns": 2, "players": "3-4"},
    {"lineup": "starter", "material_per_turn": 1},
    {"lineup": "elder", "deck_out": "on_draw", "same_turn": "retire_first", "restock": "none"},
    {
        "lineup": "uniform",
        "lineup_count": 6,
        "lineup_attack": 10,
        "lineup_reach": 0,
        "lineup_hp": 2,
        "lineup_rank": 5,
        "players": "3-4",
        "item_effect": "defence",
        "reach_ties": "monster",
    },
    {
        "lineup": "uniform",
        "lineup_hp": 5,
        "lineup_attack": 8,
        "lineup_reach": 2,
        "reach_ties": "monster",
        "material_per_turn": 2,
    },
]


@pytest.mark.parametrize("deck_name", list(EDGE_DECKS))
@pytest.mark.parametrize("raw", EDGE_PARAMS, ids=ids_of)
def test_edge_decks_and_bounds(deck_name: str, raw: dict[str, Any]) -> None:
    p = ENGINE.prepare(EDGE_DECKS[deck_name], raw)
    compare(p, 0, 300, api_row)


def test_the_edge_decks_reach_exhaustion_retirement_and_the_turn_limit() -> None:
    outcomes: set[int] = set()
    for deck in EDGE_DECKS.values():
        for raw in EDGE_PARAMS:
            p = ENGINE.prepare(deck, raw)
            rows = kernel.per_game(p.tables, RUN_SEED, 0, 50)
            outcomes.update(int(o) for o in rows[:, kernel.R_OUTCOME])
    assert outcomes == {kernel.O_WIN, kernel.O_RETIRED, kernel.O_LIMIT}


# --- totals and the fallback ------------------------------------------------------------------


def chunked(p: MonsterHunterPrepared, start: int, sizes: list[int]) -> Metrics:
    total = Metrics()
    for size in sizes:
        total.merge(ENGINE.play_games(p, {}, RUN_SEED, start, size))
        start += size
    return total


@pytest.mark.parametrize("raw", [PARAM_SETS[0], PARAM_SETS[4], PARAM_SETS[5]], ids=ids_of)
def test_play_games_compiled_equals_the_python_batch_path_whatever_the_chunking(
    raw: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, raw)
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    python = chunked(p, 3, [1_500]).to_json()
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    for sizes in ([1_500], [1, 999, 500], [700, 0, 800], [250] * 6):
        assert chunked(p, 3, sizes).to_json() == python, sizes
    # the Python batch path (its chunk deal) plays the games ``play`` plays on game_rng
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    assert Engine.play_games(ENGINE, p, {}, RUN_SEED, 3, 300).to_json() == (
        python_batch(p, RUN_SEED, 3, 300).to_json()
    )


def test_an_empty_batch_has_no_measures() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert ENGINE.play_games(p, {}, RUN_SEED, 0, 0).to_json() == Metrics().to_json()


def test_the_fallback_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    monkeypatch.setattr(compiled, "_noticed", set())
    p = ENGINE.prepare(GOLDEN_DECK, {})
    with caplog.at_level(logging.INFO, logger="simulator.engine.compiled"):
        ENGINE.play_games(p, {}, RUN_SEED, 0, 5)
        ENGINE.play_games(p, {}, RUN_SEED, 5, 5)
    notices = [r for r in caplog.records if "compiled kernels unavailable" in r.getMessage()]
    assert len(notices) == 1 and ENGINE.slug in notices[0].getMessage()


def test_warm_compiles_or_loads_the_kernel() -> None:
    ENGINE.warm()  # from numba's cache: no game of a run waits for the compiler
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert ENGINE.play_games(p, {}, RUN_SEED, 0, 10).games == 10


def test_the_tables_are_built_once_per_prepare() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    assert p.tables.pile.tolist() == list(p.pile)
    assert p.tables.cards.shape == (kernel.CARD_ROWS, len(p.kind))
    assert p.tables.setting[kernel.S_MAX_TURNS] == p.max_turns == 30
