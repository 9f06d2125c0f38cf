"""What every registered engine must pass (OpenSpiel-style): random play-outs end, legal
choices are never empty before the end, copies are independent, games are determined by
their seed (whatever noise is in the global RNG), and the fast loop plays the same games as
the state API. Engines come from ``games.registry`` and their fixed decks from each game package's
``golden.py`` (through ``simulator.engine.golden``)."""

from __future__ import annotations

import copy
import difflib
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import registry
from simulator.engine import golden
from simulator.engine.engine import Engine, transcript_of
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng

SLUGS = sorted(registry.engines())
RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"


def setup(slug: str) -> tuple[Engine[Any, Any], Any, dict[str, Any]]:
    engine = registry.engines()[slug]
    params = engine.params.clean({})
    deck = golden.golden_deck(registry.get(slug))
    assert deck is not None, f"{slug} has an engine but no GOLDEN_DECK in its golden.py"
    return engine, deck, params


def test_the_two_engines_are_registered() -> None:
    """Unmatched and Recharge have engines (others may too); each engine is its game's."""
    assert {"unmatched", "recharge"} <= set(SLUGS)
    for slug, engine in registry.engines().items():
        assert engine.slug == slug
        assert registry.get(slug).engine is engine


@pytest.mark.parametrize("slug", SLUGS)
def test_every_engine_has_a_fixed_deck_it_can_play(slug: str) -> None:
    engine, deck, params = setup(slug)
    assert deck.game == slug
    assert engine.deck_problems(deck) == []
    engine.prepare(deck, params)


@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_outs_end_and_never_run_out_of_choices(slug: str) -> None:
    engine, deck, params = setup(slug)
    prepared = engine.prepare(deck, params)
    for seed in range(200):
        state = engine.new_game(prepared, params, game_rng(0, seed))
        chooser = random.Random(seed + 1_000_000)
        for _step in range(10_000):
            if state.is_over():
                break
            actions = state.legal_actions()
            assert actions, f"{slug}: no legal action before the end (seed {seed})"
            state.apply(chooser.choice(actions))
        else:
            pytest.fail(f"{slug}: a random play-out did not end (seed {seed})")


@pytest.mark.parametrize("slug", SLUGS)
def test_a_copy_is_independent_of_its_original(slug: str) -> None:
    engine, deck, params = setup(slug)
    prepared = engine.prepare(deck, params)
    for seed in range(50):
        state = engine.new_game(prepared, params, game_rng(0, seed))
        for _ in range(3):
            if not state.is_over():
                state.apply(engine.choose(state))
        before = copy.deepcopy(vars(state))
        twin = state.copy()
        while not twin.is_over():
            twin.apply(engine.choose(twin))
        assert vars(state) == before, f"{slug}: playing a copy changed the original"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_is_determined_by_its_seed_whatever_the_global_rng(slug: str) -> None:
    engine, deck, params = setup(slug)
    random.seed(1)
    first = [transcript_of(engine, deck, params, run_seed=99, index=i) for i in range(20)]
    random.seed(12345)
    random.random()
    again = [transcript_of(engine, deck, params, run_seed=99, index=i) for i in range(20)]
    assert first == again
    assert len({tuple(t) for t in first}) > 1, "different games should differ"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_fast_loop_plays_the_same_games_as_the_state_api(slug: str) -> None:
    engine, deck, params = setup(slug)
    prepared = engine.prepare(deck, params)
    fast, slow = Metrics(), Metrics()
    for index in range(300):
        engine.play(prepared, params, game_rng(5, index), fast)
        Engine.play(engine, prepared, params, game_rng(5, index), slow)
    assert fast.to_json() == slow.to_json()


@pytest.mark.parametrize("slug", SLUGS)
def test_the_batch_path_plays_the_same_games_as_the_state_api(slug: str) -> None:
    """``play_games`` (a worker's path: deals and measures for a batch at once) adds up to
    exactly the state API's games, game index by game index, however the batch is cut."""
    engine, deck, params = setup(slug)
    prepared = engine.prepare(deck, params)
    slow = Metrics(games=300)
    for index in range(300):
        Engine.play(engine, prepared, params, game_rng(5, index), slow)
    whole = engine.play_games(prepared, params, 5, 0, 300)
    cut = engine.play_games(prepared, params, 5, 0, 1)
    cut.merge(engine.play_games(prepared, params, 5, 1, 173))
    cut.merge(engine.play_games(prepared, params, 5, 174, 126))
    assert whole.to_json() == slow.to_json()
    assert cut.to_json() == slow.to_json()


@pytest.mark.parametrize("slug", SLUGS)
def test_an_engine_declares_what_it_does_not_model_and_cites_real_lines(slug: str) -> None:
    engine, _deck, _params = setup(slug)
    assert engine.not_modelled, f"{slug} must list what it does not model"
    assert engine.cites
    for cite in engine.cites:
        match = re.fullmatch(r"([a-z-]+\.md):(\d+)", cite)
        assert match, cite
        lines = (RULES / match[1]).read_text(encoding="utf-8").splitlines()
        assert 1 <= int(match[2]) <= len(lines) and lines[int(match[2]) - 1].strip(), cite
    for param in engine.params.params:
        assert param.label and (param.minimum is not None or param.kind in ("bool", "choice"))


def golden_diff(path: Path, stored: str, expected: str) -> str:
    return "".join(
        difflib.unified_diff(
            stored.splitlines(keepends=True),
            expected.splitlines(keepends=True),
            fromfile=f"{path.name} (stored)",
            tofile=f"{path.name} (as the engine plays now)",
        )
    )


GOLDEN_CASES = [
    pytest.param(slug, game, id=f"{slug}-{game.label}")
    for slug in SLUGS
    for game in golden.golden_games(registry.get(slug))
]


@pytest.mark.parametrize(("slug", "golden_game"), GOLDEN_CASES)
def test_the_golden_transcripts_are_unchanged(slug: str, golden_game: golden.GoldenGame) -> None:
    """Every engine's seeded games, move by move, as stored in games/<pkg>/golden/."""
    game = registry.get(slug)
    path = golden.golden_path(game, golden_game)
    assert path.parent == game.directory / "golden"
    engine, deck, _params = setup(slug)
    expected = golden.golden_text(engine, deck, golden_game)
    assert path.exists(), f"{path} is missing: run manage.py regenerate_golden {slug}"
    stored = path.read_text(encoding="utf-8")
    if stored != expected:
        pytest.fail(
            f"The {slug} engine no longer plays the golden game {golden_game.label!r}:\n"
            f"{golden_diff(path, stored, expected)}\n"
            f"If the change is meant, run: manage.py regenerate_golden {slug}",
            pytrace=False,
        )


def test_every_engine_has_golden_games() -> None:
    assert all(golden.golden_games(registry.get(slug)) for slug in SLUGS)
    assert all(golden.golden_files(registry.get(slug)) for slug in SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_golden_files_are_exactly_the_golden_games(slug: str) -> None:
    """No stray transcript is left in a game's golden/ folder, and none is missing."""
    game = registry.get(slug)
    assert set(game.golden_dir.glob("*.txt")) == set(golden.golden_files(game))


def test_a_changed_transcript_is_reported_as_a_readable_diff() -> None:
    (path, expected), *_ = golden.golden_files(registry.get(SLUGS[0])).items()
    first = expected.splitlines()[0]
    changed = expected.replace(first, first + " (old)", 1)
    diff = golden_diff(path, changed, expected)
    assert f"-{first} (old)" in diff and f"+{first}" in diff


def test_engines_import_nothing_from_django() -> None:
    code = (
        "import sys; from games.registry import engines, all_games; engines(); "
        "from simulator.engine.golden import golden_deck; "
        "[(g.setup, golden_deck(g)) for g in all_games()]; "
        "import simulator.engine.odds, simulator.testhands.dealing; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
