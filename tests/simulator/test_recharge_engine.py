"""The Recharge goldfish engine (games/recharge/engine.py) against the rules digest
shared/rules/recharge.md: draws and the hand limit at their boundaries, the measures, the
parameters, determinism, copies, random play-outs and the golden transcripts.

Decks are built by hand as SimDecks; ``InOrder`` is a generator whose shuffle leaves the deck
as built, so a test decides exactly which cards are drawn when."""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import registry
from games.recharge import engine as recharge
from games.recharge import golden as recharge_golden
from games.recharge import schedule as recharge_schedule
from games.recharge.engine import (
    DRAW,
    ENGINE,
    PASS,
    RechargePrepared,
    RechargeState,
    open_key,
    power_key,
)
from games.recharge.solver import best_formation, card_from_attributes
from simulator.engine import golden
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, run_games, transcript_of
from simulator.engine.metrics import Metrics, summarise
from simulator.engine.params import ParamErrors
from simulator.engine.rng import GameRng, game_rng
from simulator.engine.schedule import DrawSchedule

GAME = registry.get("recharge")
GOLDEN_DECK = recharge_golden.GOLDEN_DECK
STORED_GOLDEN = GAME.directory / "golden"


class InOrder(GameRng):
    """A rigged chance step: the deck stays in the order the test built it."""

    def __init__(self) -> None:
        super().__init__(0, 0)

    def order(self, size: int) -> list[int]:
        return list(range(size))


# --- building decks --------------------------------------------------------------------------

#: name -> (type, attributes, variant)
CARDS: dict[str, tuple[str, dict[str, Any], str]] = {
    "Red Hero": ("hero", {"power": 40, "left": ["red"], "right": ["red"]}, ""),
    "Red Hero PP": ("hero", {"power": 40, "left": ["red"], "right": ["red"]}, "power-plus"),
    "Blue Hero": ("hero", {"power": 30, "left": ["blue"], "right": ["red", "blue"]}, ""),
    "Zero Hero": ("hero", {"power": 0, "left": ["green"], "right": ["green"]}, ""),
    "Link": ("teamwork", {"power": 10, "left": ["red"], "right": ["blue"]}, ""),
    "Green Link": ("teamwork", {"power": 25, "left": ["green"], "right": ["green"]}, ""),
    "Surge": (
        "power",
        {"left": ["red"], "left_power": 20, "right": ["blue"], "right_power": 5},
        "",
    ),
    "Relay": (
        "power",
        {"left": ["blue"], "left_power": 15, "right": ["yellow"], "right_power": 35},
        "",
    ),
    "Spare": (
        "power",
        {"left": ["yellow"], "left_power": 5, "right": ["yellow"], "right_power": 5},
        "",
    ),
}


def deck_of(*order: str) -> SimDeck:
    """The draw pile in exactly this order (top first), one card per name."""
    cards = []
    for index, name in enumerate(order):
        card_type, attributes, variant = CARDS[name]
        code = name.lower().replace(" ", "-")
        # a Power Plus copy is the same card in another printing: same name
        shown = name.removesuffix(" PP")
        cards.append(SimCard(index, code, shown, card_type, attributes, variant))
    return SimDeck(
        game="recharge",
        cards=tuple(cards),
        zones={"main": tuple((i, 1) for i in range(len(order)))},
        draw_zone="main",
    )


def prepared(deck: SimDeck, **params: Any) -> RechargePrepared:
    return ENGINE.prepare(deck, params)


def game(deck: SimDeck, **params: Any) -> RechargeState:
    return ENGINE.new_game(prepared(deck, **params), {}, InOrder())


def play(deck: SimDeck, **params: Any) -> tuple[list[str], Metrics, RechargeState]:
    """The policy's game with the deck as built: transcript, metrics and final state."""
    state = game(deck, **params)
    lines = []
    while not state.is_over():
        lines.append(state.apply(ENGINE.choose(state)))
    metrics = Metrics()
    ENGINE.record(state, metrics)
    metrics.games += 1
    return lines, metrics, state


LONG_DECK = deck_of(
    "Spare", "Surge", "Red Hero", "Link", "Blue Hero", "Relay", "Red Hero PP", "Green Link"
)


# --- the module ------------------------------------------------------------------------------


def test_the_game_package_registers_the_engine_and_its_draw_schedule() -> None:
    assert ENGINE.slug == "recharge"
    assert GAME.engine is ENGINE
    assert registry.engines()["recharge"] is ENGINE
    assert golden.golden_deck(GAME) is GOLDEN_DECK
    # recharge.md:33 (each draws 1) and :37 (a turn starts by drawing 1), seed:43
    expected = DrawSchedule(opening=1, per_turn=1, draws_on_first_turn=True)
    assert GAME.setup.schedule == expected
    assert expected == recharge_schedule.SCHEDULE
    assert GAME.setup.params.params == ()  # nothing for a player to change


def test_what_is_not_modelled_is_listed() -> None:
    text = " ".join(ENGINE.not_modelled).lower()
    for topic in ("chip", "opponent", "fold", "special", "swap"):
        assert topic in text, topic


def test_the_parameters_default_to_10_turns_no_chaining_and_a_threshold_of_1() -> None:
    assert ENGINE.params.clean({}) == {
        "turns": 10,
        "chain_power_cards": False,
        "open_threshold": 1,
    }


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("turns", 1, True),
        ("turns", 30, True),
        ("turns", 0, False),
        ("turns", 31, False),
        ("turns", 2.5, False),
        ("open_threshold", 0, True),
        ("open_threshold", 500, True),
        ("open_threshold", -1, False),
        ("open_threshold", 501, False),
        ("chain_power_cards", True, True),
        ("chain_power_cards", "on", True),
        ("chain_power_cards", 3, False),
    ],
)
def test_parameters_are_checked_at_their_bounds(name: str, value: Any, ok: bool) -> None:
    if ok:
        ENGINE.params.clean({name: value})
    else:
        with pytest.raises(ParamErrors) as caught:
            ENGINE.params.clean({name: value})
        assert name in caught.value.errors


def test_an_empty_deck_cannot_be_simulated() -> None:
    empty = SimDeck(game="recharge", cards=(), zones={}, draw_zone="main")
    assert ENGINE.deck_problems(empty)
    with pytest.raises(ValueError):
        ENGINE.prepare(empty, {})


# --- draws and the hand limit ----------------------------------------------------------------


def test_the_opening_hand_is_one_card_and_the_first_turn_draws() -> None:  # recharge.md:33, 37
    state = game(LONG_DECK)
    assert [state.prepared.names[c] for c in state.hand] == ["Spare"]
    assert state.legal_actions() == [DRAW]
    line = state.apply(DRAW)
    assert line.startswith("T1 draw Surge → best 0 (no hero)")
    assert len(state.hand) == 2


def test_the_hand_stops_at_six_cards_and_the_turn_passes() -> None:  # recharge.md:33, seed:41
    lines, metrics, state = play(LONG_DECK, turns=8)
    assert [len(line.split("| hand: ")[1].split(", ")) for line in lines] == [
        2,
        3,
        4,
        5,
        6,
        6,
        6,
        6,
    ]
    assert all(line.split(" ")[1] == "pass" for line in lines[5:])
    assert "pass (hand full: 6 cards)" in lines[5]
    assert state.pos == 6  # Red Hero PP and Green Link were never drawn
    assert metrics.histograms["hand_full_turn"] == {5: 1}
    assert metrics.sums["cards_seen"] == 6


def test_a_full_hand_has_only_the_pass() -> None:
    state = game(LONG_DECK)
    for _ in range(5):
        state.apply(ENGINE.choose(state))
    assert len(state.hand) == 6
    assert state.legal_actions() == [PASS]
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply(DRAW)


def test_an_empty_deck_passes_too() -> None:
    lines, metrics, state = play(deck_of("Red Hero", "Surge", "Link"), turns=4)
    assert [line.split(" →")[0] for line in lines] == [
        "T1 draw Surge",
        "T2 draw Link",
        "T3 pass (deck empty)",
        "T4 pass (deck empty)",
    ]
    assert metrics.counts["hand_full"] == 0 and "hand_full_turn" not in metrics.histograms
    assert state.legal_actions() == []


# --- the measures ----------------------------------------------------------------------------


def test_each_turn_measures_the_exact_best_formation_of_the_hand() -> None:
    state = game(LONG_DECK)
    cards = state.prepared.cards
    powers = []
    while not state.is_over():
        state.apply(ENGINE.choose(state))
        powers.append(best_formation([cards[i] for i in state.hand]).power)
    assert state.powers == powers
    assert powers == sorted(powers), "a hand that only grows never builds less"
    # Spare, Surge, Red Hero: 40 + Surge red 20 (+ nothing yellow on red edges)
    assert powers[1] == 60
    # + Link, Blue Hero, Relay: Red Hero ←Link→ Blue Hero (joins on blue), Surge red 20 on
    # Red Hero, Relay blue 15 on Blue Hero's free red+blue edge
    assert powers[4] == 40 + 10 + 30 + 20 + 15


def test_the_transcript_names_the_formation() -> None:
    lines, _metrics, _state = play(LONG_DECK, turns=5)
    assert lines[3].startswith("T4 draw Blue Hero → best ")
    assert "(Red Hero ←Link→ Blue Hero + 1 power)" in lines[3] or (
        "(Blue Hero ←Link→ Red Hero + 1 power)" in lines[3]
    )
    assert lines[3].endswith("[can open] | hand: Spare, Surge, Red Hero, Link, Blue Hero")


def test_power_plus_copies_count_ten_more_and_say_so() -> None:
    lines, metrics, _state = play(deck_of("Red Hero PP", "Spare"), turns=1)
    assert lines == [
        "T1 draw Spare → best 50 (Red Hero (Power Plus)) [can open]"
        " | hand: Red Hero (Power Plus), Spare"
    ]
    assert metrics.sums[power_key(1)] == 50


def test_the_chaining_parameter_lets_power_cards_chain() -> None:
    deck = deck_of("Red Hero", "Surge", "Relay")  # Relay's blue side touches Surge's blue
    assert play(deck, turns=2)[2].powers == [60, 60]
    assert play(deck, turns=2, chain_power_cards=True)[2].powers == [60, 75]


def test_can_open_needs_a_hero_and_the_threshold() -> None:
    _lines, metrics, state = play(deck_of("Surge", "Relay", "Red Hero"), turns=3)
    assert state.opened == [False, True, True]
    assert metrics.histograms["first_open_turn"] == {2: 1}
    assert [metrics.counts[open_key(t)] for t in (1, 2, 3)] == [0, 1, 1]
    _lines, metrics, state = play(deck_of("Surge", "Relay", "Red Hero"), turns=3, open_threshold=61)
    assert state.opened == [False, False, False]
    assert metrics.counts["never_opened"] == 1


def test_a_hero_of_power_0_opens_at_threshold_0_and_no_hero_never_does() -> None:
    assert play(deck_of("Zero Hero", "Spare"), turns=1, open_threshold=0)[2].opened == [True]
    assert play(deck_of("Surge", "Spare"), turns=1, open_threshold=0)[2].opened == [False]


def test_the_power_when_the_hand_is_full_is_recorded() -> None:
    _lines, metrics, _state = play(LONG_DECK)
    assert metrics.histograms["power_when_full"] == {40 + 10 + 30 + 20 + 15: 1}
    assert metrics.counts["hand_full"] == 1


def test_every_measure_is_present_even_when_zero() -> None:
    _lines, metrics, _state = play(deck_of("Surge", "Spare"), turns=3)
    for turn in (1, 2, 3):
        assert metrics.sums[power_key(turn)] == 0 and power_key(turn) in metrics.sums
        assert open_key(turn) in metrics.counts
    assert {"never_opened", "hand_full"} <= set(metrics.counts)
    assert "cards_seen" in metrics.sums
    summary = summarise(metrics)
    assert summary["means"][power_key(3)]["value"] == 0


def test_the_formation_cache_changes_no_result() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    warm = Metrics()
    for index in range(200):
        ENGINE.play(p, {}, game_rng(8, index), warm)
    cold = Metrics()
    for index in range(200):
        p.cache.clear()
        ENGINE.play(p, {}, game_rng(8, index), cold)
    assert warm.to_json() == cold.to_json()


# --- determinism, copies, play-outs ----------------------------------------------------------


def test_the_same_seed_gives_the_same_game_whatever_the_global_rng() -> None:
    random.seed(3)
    first = [transcript_of(ENGINE, GOLDEN_DECK, {}, run_seed=11, index=i) for i in range(30)]
    random.seed(4)
    random.random()
    random.shuffle(list(range(10)))
    again = [transcript_of(ENGINE, GOLDEN_DECK, {}, run_seed=11, index=i) for i in range(30)]
    assert first == again
    assert len({tuple(t) for t in first}) > 20


@pytest.mark.parametrize(
    ("deck", "params"),
    [
        pytest.param(GOLDEN_DECK, {}, id="golden-deck"),
        pytest.param(GOLDEN_DECK, {"chain_power_cards": True, "turns": 30}, id="chaining"),
        pytest.param(GOLDEN_DECK, {"open_threshold": 120, "turns": 4}, id="never-full"),
        pytest.param(GOLDEN_DECK, {"open_threshold": 0, "turns": 1}, id="one-turn"),
        pytest.param(deck_of("Red Hero", "Surge", "Spare"), {"turns": 5}, id="three-cards"),
        pytest.param(deck_of("Surge"), {"turns": 2}, id="one-card-no-hero"),
    ],
)
@pytest.mark.parametrize("compiled", ["1", "0"], ids=["kernel", "python"])
def test_the_batch_path_measures_the_same_games_as_the_state_api_for_500_seeds(
    deck: SimDeck, params: dict[str, Any], compiled: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play_games`` -- the compiled kernel, or with ``DECKLAB_COMPILED=0`` the Python batch
    path (powers alone, from power.py) -- against the state API (the solver's formations,
    game by game)."""
    monkeypatch.setenv("DECKLAB_COMPILED", compiled)
    p = ENGINE.prepare(deck, params)
    slow = Metrics(games=500)
    for seed in range(500):
        Engine.play(ENGINE, p, params, game_rng(7, seed), slow)
    fast = ENGINE.play_games(ENGINE.prepare(deck, params), params, 7, 0, 500)
    assert fast.to_json() == slow.to_json()


def test_a_run_gives_the_same_metrics_however_it_is_split() -> None:
    whole = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=5, start=0, count=300)
    parts = [
        run_games(ENGINE, GOLDEN_DECK, {}, run_seed=5, start=s, count=n)
        for s, n in ((200, 100), (0, 120), (120, 80))
    ]
    assert Metrics.merged(parts).to_json() == whole.to_json()


def test_a_copy_is_independent_and_plays_on_the_same() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {"chain_power_cards": True})
    for seed in range(30):
        state = ENGINE.new_game(p, {}, game_rng(3, seed))
        for _ in range(seed % 8):
            state.apply(ENGINE.choose(state))
        snapshot = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(state).items()}
        twin = state.copy()
        twin_lines = []
        while not twin.is_over():
            twin_lines.append(twin.apply(ENGINE.choose(twin)))
        after = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(state).items()}
        assert after == snapshot
        own_lines = []
        while not state.is_over():
            own_lines.append(state.apply(ENGINE.choose(state)))
        assert own_lines == twin_lines


@pytest.mark.parametrize("params", [{}, {"turns": 30, "chain_power_cards": True}])
def test_random_play_outs_end_within_the_turns_and_the_hand_limit(params: dict[str, Any]) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(200):
        state = ENGINE.new_game(p, params, game_rng(0, seed))
        chooser = random.Random(10_000 + seed)
        for _step in range(100):
            if state.is_over():
                break
            actions = state.legal_actions()
            assert actions, f"no legal action before the end (seed {seed})"
            state.apply(chooser.choice(actions))
            assert len(state.hand) <= recharge.HAND_LIMIT
        else:
            pytest.fail(f"a random play-out did not end (seed {seed})")
        assert state.turn == p.turns and len(state.powers) == p.turns
        assert state.legal_actions() == []


def test_the_engine_reads_the_catalog_cards_as_the_solver_does() -> None:
    for card in GOLDEN_DECK.cards:
        expected = card_from_attributes(
            card.card_type, card.attributes, variant=card.variant, name=card.name
        )
        assert ENGINE.prepare(GOLDEN_DECK, {}).cards[card.index] == expected


# --- golden seeded transcripts ---------------------------------------------------------------


def test_the_golden_files_are_exactly_the_golden_games() -> None:
    stored = set(STORED_GOLDEN.glob("*.txt"))
    assert stored == set(golden.golden_files(GAME))
    texts = [p.read_text(encoding="utf-8") for p in stored]
    assert any("hand full" in t for t in texts)
    assert any("←" in t for t in texts) and any("power)" in t for t in texts)
    assert any("(Power Plus)" in t for t in texts)


def test_regenerate_golden_writes_and_checks_the_recharge_files(tmp_path: Path) -> None:
    before = {p: p.read_bytes() for p in STORED_GOLDEN.glob("*.txt")}
    where = ["--directory", str(tmp_path)]
    call_command("regenerate_golden", "recharge", *where, stdout=StringIO(), stderr=StringIO())
    assert {p.name for p in tmp_path.iterdir()} == {"recharge"}  # DIR/<slug>/
    written = {p.name for p in (tmp_path / "recharge").glob("*.txt")}
    assert written == {f"{g.label}.txt" for g in golden.golden_games(GAME)}
    for name in written:  # the same text as the stored files
        stored = (STORED_GOLDEN / name).read_text(encoding="utf-8")
        assert (tmp_path / "recharge" / name).read_text(encoding="utf-8") == stored
    call_command("regenerate_golden", "recharge", "--check", *where, stdout=StringIO())
    (tmp_path / "recharge" / "game0.txt").write_text("tampered\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"recharge/game0\.txt"):
        call_command("regenerate_golden", "recharge", "--check", *where, stdout=StringIO())
    # the stored files were neither written nor removed
    assert {p: p.read_bytes() for p in STORED_GOLDEN.glob("*.txt")} == before
