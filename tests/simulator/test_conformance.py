"""What every registered engine must pass (OpenSpiel-style): random play-outs end, legal
choices are never empty before the end, copies are independent, games are determined by
their seed (whatever noise is in the global RNG), and the fast loop plays the same games as
the state API. Engines and their fixed decks come from the registry and simulator.golden."""

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

from simulator import golden
from simulator.engine.engine import Engine, transcript_of
from simulator.engine.metrics import Metrics
from simulator.engine.registry import engines
from simulator.engine.rng import game_rng

SLUGS = sorted(engines())
RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"


def setup(slug: str) -> tuple[Engine[Any, Any], Any, dict[str, Any]]:
    engine = engines()[slug]
    params = engine.params.clean({})
    return engine, golden.GOLDEN_DECKS[slug], params


def test_the_two_engines_are_registered() -> None:
    assert {"unmatched", "recharge"} <= set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_outs_end_and_never_run_out_of_choices(slug: str) -> None:
    engine, deck, params = setup(slug)
    prepared = engine.prepare(deck, params)
    for seed in range(200):
        state = engine.new_game(prepared, params, random.Random(seed))
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
        state = engine.new_game(prepared, params, random.Random(seed))
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
    for game in golden.golden_games(slug)
]


@pytest.mark.parametrize(("slug", "golden_game"), GOLDEN_CASES)
def test_the_golden_transcripts_are_unchanged(slug: str, golden_game: golden.GoldenGame) -> None:
    """Every engine's seeded games, move by move, as stored in tests/simulator/golden/."""
    path = golden.golden_path(slug, golden_game)
    expected = golden.golden_text(engines()[slug], golden.GOLDEN_DECKS[slug], golden_game)
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
    assert all(golden.golden_games(slug) for slug in SLUGS)


def test_a_changed_transcript_is_reported_as_a_readable_diff() -> None:
    (path, expected), *_ = golden.golden_files(SLUGS[0], engines()[SLUGS[0]]).items()
    first = expected.splitlines()[0]
    changed = expected.replace(first, first + " (old)", 1)
    diff = golden_diff(path, changed, expected)
    assert f"-{first} (old)" in diff and f"+{first}" in diff


def test_engines_import_nothing_from_django() -> None:
    code = (
        "import sys; from simulator.engine.registry import engines; engines(); "
        "import simulator.engine.odds; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
