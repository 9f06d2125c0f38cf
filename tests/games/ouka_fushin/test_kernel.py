"""The 央華封神 compiled batch kernel (games/ouka_fushin/kernel.py) against the reference.

Game by game: each game's row of measures from the kernel equals the one read off the final
state of the same game (same run seed, same index) played by
  * the state API (``Engine.play``: ``new_game`` / ``choose`` / ``apply``, the reference), on
    10,000 seeds of the demo product deck with the default parameters, on 500 seeds of the
    golden deck and 500 of the demo deck for every parameter set below, on edge decks and on
    300 small random decks with random parameters;
  * the engine's fast ``play`` on 10,000 seeds of the golden deck for every parameter set;
    that loop is itself checked against the state API transcript by transcript by
    ``tests/games/ouka_fushin/test_engine.py::test_the_fast_loop_plays_the_same_games_as_the_
    state_api``.
Then the totals (``play_games`` compiled == ``DECKLAB_COMPILED=0``, whatever the chunking), the
generator (CPython's Mersenne Twister draw for draw), the fallback notice and the decks the
kernel leaves to the Python path. About 60 s on a quiet core (most of it the Python side)."""

from __future__ import annotations

import itertools
import logging
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.ouka_fushin import kernel
from games.ouka_fushin.constants import SUB_CANNOT, SUB_DONE, SUBSTITUTE_BONUS
from games.ouka_fushin.engine import OukaEngine
from games.ouka_fushin.golden import GOLDEN_DECK, GOLDEN_GAMES
from games.ouka_fushin.metrics import record_game
from games.ouka_fushin.prepared import OukaPrepared
from games.ouka_fushin.state import OukaState
from simulator.engine import compiled
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, run_games
from simulator.engine.metrics import Metrics
from simulator.engine.rng import MAX_SEED, game_rng, game_seed


class Capture(OukaEngine):
    """The engine, keeping each finished game's state (``record`` is called with it)."""

    last: OukaState | None = None

    def record(self, state: OukaState, metrics: Metrics) -> None:
        self.last = state
        super().record(state, metrics)


ENGINE = Capture()


def row_of(state: OukaState) -> np.ndarray[Any, np.dtype[np.int64]]:
    """A finished reference game as the kernel's row (the columns ``record_game`` reads)."""
    row = np.zeros(kernel.N_COLS, dtype=np.int64)
    total = state.total()
    row[: kernel.C_SUMS] = (
        *state.round_points,
        total,
        state.mission_points,
        SUBSTITUTE_BONUS if state.substitution == SUB_DONE else 0,
        state.opponent_points,
        total - state.opponent_points,
        state.climaxes,
        state.attempted,
        state.succeeded,
        state.checks,
        state.checks_passed,
        state.hidden_uses,
        state.deck_out_penalty,
        state.pos,
        state.end_draws,
        state.reset_draws,
    )
    row[kernel.C_CLIMAX_TURN : kernel.C_CLIMAX_TURN + 3] = state.climax_turns
    row[kernel.C_ROUNDS] = state.rounds_scored
    row[kernel.C_DECK_OUT_TURN] = state.deck_out_turn
    row[kernel.C_SUBSTITUTION] = state.substitution
    row[kernel.C_TURN_LIMIT] = state.turn_limit
    row[kernel.C_TURNS] = state.turn
    row[kernel.C_LEVEL] = 0 if state.substitution == SUB_CANNOT else state.level
    row[kernel.C_MISSIONS] = sum(1 << q for q, done in enumerate(state.mission_done) if done)
    row[kernel.C_USED : kernel.C_USED + kernel.USED_SIZE] = state.used_counts
    return row


def reference_state(
    p: OukaPrepared, params: dict[str, Any], seed: int, index: int, api: bool
) -> OukaState:
    """Game ``index`` played by the state API (``api``) or by the fast ``play``."""
    play = Engine.play if api else OukaEngine.play
    play(ENGINE, p, params, game_rng(seed, index), Metrics())
    assert ENGINE.last is not None
    return ENGINE.last


def assert_game_by_game(
    deck: SimDeck, params: dict[str, Any], count: int, *, api: bool, seed: int = 11
) -> None:
    p = ENGINE.prepare(deck, params)
    t = kernel.tables(p)
    assert t is not None
    rows = kernel.play_rows(t, seed, 0, count)
    for index in range(count):
        expected = row_of(reference_state(p, params, seed, index, api))
        if not np.array_equal(rows[index], expected):
            differ = np.nonzero(rows[index] != expected)[0].tolist()
            pytest.fail(
                f"game {index}: columns {differ}: kernel {rows[index][differ]}, "
                f"reference {expected[differ]}"
            )


# --- the decks -------------------------------------------------------------------------------

CATALOG = Path(__file__).resolve().parents[3] / "games" / "ouka_fushin" / "catalog.json"


def demo_deck() -> SimDeck:
    """The demo product deck OFD-PB1, as ``bench/ouka_fushin_engine.py`` builds it."""
    import json

    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    rows = {row["code"]: row for row in data["cards"]}
    (product,) = (x for x in data["products"] if x["code"] == "OFD-PB1")
    cards: list[SimCard] = []
    index: dict[str, int] = {}
    zones: dict[str, list[tuple[int, int]]] = {}
    for item in product["items"]:
        row = rows[item["card"]]
        if row["code"] not in index:
            index[row["code"]] = len(cards)
            cards.append(
                SimCard(len(cards), row["code"], row["name_en"], row["type"], row["attributes"])
            )
        zones.setdefault(item["zone"], []).append((index[row["code"]], item["quantity"]))
    return SimDeck(
        "ouka-fushin", tuple(cards), {z: tuple(v) for z, v in zones.items()}, draw_zone="main"
    )


#: every parameter the engine offers, each choice away from its default, then the golden mixes
PARAM_SETS: list[dict[str, Any]] = [
    {},
    {"hidden_success": "never"},
    {"hidden_success": "net_gain"},
    {"climax_min_points": 150},
    {"climax_min_points": 400},
    {"climaxes_at_once": 2},
    {"climaxes_at_once": 5},
    {"stacking": "when_full"},
    {"reclaim": "none"},
    {"mirror_match": "dice_off"},
    {"mirror_match": "lose"},
    {"prerequisites": "all"},
    {"missions_need": "any"},
    {"extra_bonus": True},
    {"completed_stories_score": True},
    {"max_turns": 6},
    # the golden mixes not above already
    *(params for _label, _index, params in GOLDEN_GAMES if len(params) > 1),
]
SET_IDS = [",".join(f"{k}={v}" for k, v in s.items()) or "defaults" for s in PARAM_SETS]


def test_the_demo_deck_with_default_parameters_game_by_game_against_the_state_api() -> None:
    assert_game_by_game(demo_deck(), {}, 10_000, api=True)


@pytest.mark.parametrize("params", PARAM_SETS, ids=SET_IDS)
def test_every_parameter_set_game_by_game(params: dict[str, Any]) -> None:
    # the golden deck reaches every rule the engine plays (games/ouka_fushin/golden.py)
    assert_game_by_game(GOLDEN_DECK, params, 10_000, api=False, seed=12)
    assert_game_by_game(GOLDEN_DECK, params, 500, api=True, seed=13)
    assert_game_by_game(demo_deck(), params, 500, api=True, seed=14)


# --- edge decks ------------------------------------------------------------------------------


Card = tuple[str, dict[str, Any]]


def _story(words: str, points: int, target: int = 0, ability: str = "", pre: str = "") -> Card:
    attributes: dict[str, Any] = {"story_kind": "normal", "keywords": words.split()}
    attributes["points"] = points
    if target:
        attributes.update(target=target, ability=ability)
    if pre:
        attributes["prerequisites"] = pre.split()
    return ("story", attributes)


def _person(character: str, destiny: int) -> Card:
    return ("character", {"character": character, "destiny": destiny, "school": "goton"})


def _hero(character: str, *rows: int) -> Card:
    keys = ("combat", "exploration", "negotiation")
    levels = {f"{k}_{d + 1}": rows[d * 3 + i] for d in range(3) for i, k in enumerate(keys)}
    return ("protagonist", {"character": character, "school": "goton", **levels})


POOL: dict[str, tuple[str, dict[str, Any]]] = {
    "Hero": _hero("Hero", 3, 2, 0, 4, 3, 1, 5, 4, 2),
    "Sub": _hero("Sub", 1, 3, 2, 1, 4, 3, 2, 5, 4),
    "M-slay": ("mission", {"climax_types": ["slay"], "bonus": 50}),
    "M-two": ("mission", {"climax_types": ["slay", "save"], "bonus": 80}),
    "M-none": ("mission", {"bonus": 30}),
    "Hero2": _person("Hero", 2),
    "Hero3": _person("Hero", 3),
    "Hero1": _person("Hero", 1),
    "Imm1": _person("Imm", 1),
    "Imm2": _person("Imm", 2),
    "Imm3": _person("Imm", 3),
    "A1": _person("A", 1),
    "B1": _person("B", 1),
    "C1": _person("C", 1),
    "D1": _person("D", 1),
    "Sub1": _person("Sub", 1),
    "Sub2": _person("Sub", 2),
    "Trip": _story("journey", 10, 4, "any"),
    "Tea": _story("journey feast", 5),
    "Blank": _story("", 3),  # no keyword, no check
    "Fiend": _story("fiend", 15, 6, "exploration"),
    "Hunt": _story("fiend foe", 35, 9, "combat", "fiend"),
    "Shadow": _story("foe", 15, 6, "combat"),
    "Valley": _story("vault", 20, 7, "exploration", "journey"),
    "Plea": _story("village pact", 20, 6, "negotiation", "journey"),
    "Reunion": _story("pact", 25, 5, "negotiation", "journey fiend"),
    "Gate": _story("vault", 5, 0, "", "journey"),  # a prerequisite, no check
    "Never": _story("foe", 40, 14, "combat"),  # no destiny passes it
    "Rock": ("story", {"story_kind": "accident", "keywords": ["foe"], "points": 10}),
    "Exorcism": ("climax", {"conditions": ["fiend"], "bonus": 30, "climax_type": "slay"}),
    "King": (
        "climax",
        {"conditions": ["fiend", "foe"], "bonus": 60, "climax_type": "slay", "extra_bonus": 20},
    ),
    "Ends": ("climax", {"conditions": ["journey", "vault"], "bonus": 40, "climax_type": "quest"}),
    "Rebuild": ("climax", {"conditions": ["village", "pact"], "bonus": 50, "climax_type": "save"}),
    "Finale": ("climax", {"bonus": 20, "climax_type": "save"}),  # no conditions: a free slot
    "Event": ("event", {}),  # another card type: dead
}
MAIN = [n for n, (kind, _a) in POOL.items() if kind not in ("protagonist", "mission")]


def pool_deck(
    main: Sequence[str],
    *,
    missions: Sequence[str] = ("M-slay", "M-two"),
    substitute: bool = True,
    spares: Sequence[str] = ("Sub1", "Sub2"),
) -> SimDeck:
    names = sorted(POOL)
    cards = tuple(
        SimCard(i, f"e-{n.lower()}", n, POOL[n][0], dict(POOL[n][1])) for i, n in enumerate(names)
    )
    at = {n: i for i, n in enumerate(names)}
    zones: dict[str, tuple[tuple[int, int], ...]] = {
        "main": tuple((at[n], 1) for n in main),
        "protagonist": ((at["Hero"], 1),),
        "missions": tuple((at[n], 1) for n in missions),
        "spares": tuple((at[n], 1) for n in spares),
    }
    if substitute:
        zones["substitute"] = ((at["Sub"], 1),)
    return SimDeck("ouka-fushin", cards, zones, "main")


@pytest.mark.parametrize(
    "main",
    [
        ["Trip"],  # 1 card: deck-out on turn 1
        ["Exorcism"],
        ["Finale"],  # a climax without conditions, at once
        ["Hero2"],
        ["Tea", "Exorcism", "Fiend"],  # 3 cards
        ["Blank", "Finale", "Finale"],
        ["Never", "Never", "Rock"],
        ["Trip", "Valley", "Ends", "Trip", "Gate", "Tea", "Ends", "Plea", "Rebuild", "Finale"],
        ["A1", "B1", "C1", "D1", "Imm1", "Imm2", "Imm3", "Hero2", "Hero3", "Hero1"] * 2,
        ["Tea", "Blank", "Trip", "Gate", "Fiend", "Shadow"] * 3,  # five slots fill up
    ],
    ids=lambda main: f"{len(main)}:{main[0]}",
)
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"mirror_match": "lose"},
        {"stacking": "when_full", "climax_min_points": 60},
        {"max_turns": 1},
        {"max_turns": 3, "climaxes_at_once": 3},
    ],
    ids=["defaults", "lose", "when_full+hold", "turn1", "turn3+3climaxes"],
)
def test_edge_decks_game_by_game_against_the_state_api(
    main: list[str], params: dict[str, Any]
) -> None:
    assert_game_by_game(pool_deck(main), params, 200, api=True)


def test_losing_the_dice_off_without_a_substitute_and_other_deck_shapes() -> None:
    deck = pool_deck(["Trip", "Tea", "Exorcism"] * 4, substitute=False, missions=("M-none",))
    for params in ({"mirror_match": "lose"}, {"mirror_match": "dice_off"}):
        assert_game_by_game(deck, params, 300, api=True)
    assert_game_by_game(pool_deck(["Finale"] * 3, missions=()), {}, 50, api=True)


def test_random_decks_and_parameters_game_by_game_against_the_state_api() -> None:
    """300 random decks of 1 to 40 cards from the pool, random parameters: 30 games each."""
    choose = random.Random(2026)
    spec = OukaEngine.params
    for _ in range(300):
        main = [choose.choice(MAIN) for _ in range(choose.randint(1, 40))]
        params = {
            "hidden_success": choose.choice(["never", "always", "net_gain"]),
            "climax_min_points": choose.choice([0, 0, 40, 90, 200]),
            "climaxes_at_once": choose.randint(1, 5),
            "stacking": choose.choice(["on_prerequisite", "when_full"]),
            "reclaim": choose.choice(["useful", "none"]),
            "mirror_match": choose.choice(["no", "dice_off", "lose"]),
            "prerequisites": choose.choice(["any", "all"]),
            "missions_need": choose.choice(["all", "any"]),
            "extra_bonus": choose.random() < 0.5,
            "completed_stories_score": choose.random() < 0.5,
            "max_turns": choose.choice([1, 2, 5, 20, 60, 100]),
        }
        spec.clean(params)
        deck = pool_deck(
            main,
            substitute=choose.random() < 0.8,
            missions=choose.sample(["M-slay", "M-two", "M-none"], choose.randint(0, 2)),
            spares=choose.sample(["Sub1", "Sub2", "Hero1"], choose.randint(0, 3)),
        )
        assert_game_by_game(deck, params, 30, api=True, seed=choose.randrange(MAX_SEED))


# --- the totals, the generator, the fallback ---------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "params"),
    [
        (demo_deck(), {}),
        (demo_deck(), {"mirror_match": "dice_off"}),
        (GOLDEN_DECK, dict(GOLDEN_GAMES[4][2])),
    ],
    ids=["demo", "demo-dice-off", "golden-climaxes-together"],
)
def test_play_games_compiled_equals_the_python_path_whatever_the_chunking(
    deck: SimDeck, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = OukaEngine()
    p = engine.prepare(deck, params)
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    python = engine.play_games(p, params, 77, 5, 3000).to_json()
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    assert engine.play_games(p, params, 77, 5, 3000).to_json() == python
    for cuts in ([5, 3005], [5, 6, 1000, 1001, 2999, 3005], [5, 1005, 2005, 3005]):
        parts = [engine.play_games(p, params, 77, a, b - a) for a, b in itertools.pairwise(cuts)]
        assert Metrics.merged(parts).to_json() == python
    whole = run_games(engine, deck, params, run_seed=77, start=5, count=3000)
    assert whole.to_json() == python


def test_the_rows_add_up_as_record_game_adds_the_games() -> None:
    for deck, params in ((demo_deck(), {"mirror_match": "dice_off"}), (GOLDEN_DECK, {})):
        p = ENGINE.prepare(deck, params)
        t = kernel.tables(p)
        assert t is not None
        rows = kernel.play_rows(t, 3, 0, 400)
        for index in (0, 1, 17, 399):
            state = reference_state(p, params, 3, index, api=True)
            one = Metrics(games=1)
            record_game(state, one)
            assert kernel.metrics_of_rows(p, rows[index : index + 1]).to_json() == one.to_json()


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 12345678901234, MAX_SEED])
def test_the_kernels_generator_is_cpythons_draw_for_draw(seed: int) -> None:
    mt = np.empty(625, dtype=np.int64)
    kernel._mt_seed(mt, seed)
    reference = random.Random(seed)
    for _ in range(700):  # past a second twist
        assert kernel._random(mt) == reference.random()


def test_the_seeds_are_the_games_seeds() -> None:
    for run_seed in (0, 9, MAX_SEED):
        seeds = kernel.seeds_of(run_seed, 998, 5)
        assert seeds.tolist() == [game_seed(run_seed, i) for i in range(998, 1003)]


def test_the_python_path_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    monkeypatch.setattr(compiled, "_noticed", set())
    engine = OukaEngine()
    p = engine.prepare(GOLDEN_DECK, {})
    with caplog.at_level(logging.INFO, logger="simulator.engine.compiled"):
        first = engine.play_games(p, {}, 1, 0, 20)
        engine.play_games(p, {}, 1, 20, 20)
    notices = [r for r in caplog.records if "ouka-fushin" in r.getMessage()]
    assert len(notices) == 1 and "Python batch path" in notices[0].getMessage()
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    assert engine.play_games(p, {}, 1, 0, 20).to_json() == first.to_json()


def test_a_deck_beyond_the_kernels_masks_plays_the_python_path_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = [f"S{i}" for i in range(70)]
    extra = {n: _story(f"word{i}", 5 + i % 7, 3 + i % 5, "any") for i, n in enumerate(names)}
    cards = [*POOL.items(), *extra.items()]
    sim = tuple(SimCard(i, f"x-{n}", n, kind, dict(a)) for i, (n, (kind, a)) in enumerate(cards))
    at = {n: i for i, (n, _x) in enumerate(cards)}
    deck = SimDeck(
        "ouka-fushin",
        sim,
        {"main": tuple((at[n], 1) for n in names), "protagonist": ((at["Hero"], 1),)},
        "main",
    )
    engine = OukaEngine()
    p = engine.prepare(deck, {})
    assert kernel.tables(p) is None  # 70 keywords do not fit an int64 mask
    monkeypatch.setenv("DECKLAB_COMPILED", "1")
    compiled_path = engine.play_games(p, {}, 4, 0, 50).to_json()
    monkeypatch.setenv("DECKLAB_COMPILED", "0")
    assert engine.play_games(p, {}, 4, 0, 50).to_json() == compiled_path


def test_the_tables_are_built_once_per_prepared_deck() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {})
    first = kernel.tables(p)
    assert first is not None and kernel.tables(p) is first
    ENGINE.play_games(p, {}, 1, 0, 10)
    assert kernel.tables(p) is first


def test_warm_compiles_or_loads_the_kernel() -> None:
    OukaEngine().warm()  # no error; a later batch then runs without compiling
