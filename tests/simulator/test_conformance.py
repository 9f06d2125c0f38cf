"""What every registered game must pass (OpenSpiel-style), run on every game the registry holds
when the tests are collected: the built-in games and any named in ``DECKLAB_EXTRA_GAMES``
(registered when Django starts, before collection). The checks themselves live in
``simulator.conformance``, which ``manage.py check_game`` runs for a game kept elsewhere:
random play-outs end, legal choices are never empty before the end, copies are independent,
games are determined by their seed (whatever noise is in the global RNG), ``play`` and
``play_games`` measure exactly what the state API measures, and the golden transcripts are
unchanged."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games import registry
from simulator import conformance
from simulator.engine import golden
from simulator.engine.engine import Engine, GameState
from simulator.engine.metrics import Metrics
from tests.simulator.fake_games._builders import COUNTDOWN, PACKAGES, FakeGames

ROOT = Path(settings.BASE_DIR)
#: the games DeckLab ships with an engine
BUILTIN_ENGINES = {"unmatched", "recharge", "monster-hunter", "ouka-fushin", "mattsan"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One case per registered game and check that applies to it, read from the registry
    now (collection), not when the module was imported."""
    if {"slug", "check"} <= set(metafunc.fixturenames):
        cases = [
            pytest.param(game.slug, check, id=f"{game.slug}-{check.key}")
            for game in registry.all_games()
            for check in conformance.checks_for(game)
        ]
        metafunc.parametrize(("slug", "check"), cases)


def test_every_registered_game_passes_the_check(slug: str, check: conformance.Check) -> None:
    problem = ""
    try:
        check.run(registry.get(slug), conformance.RULES_DIR)
    except conformance.NonConformance as exc:
        problem = str(exc)
    if problem:  # failed outside the except block, so the message is shown once
        pytest.fail(f"{slug} fails {check.title!r}:\n{problem}", pytrace=False)


def test_the_five_builtin_games_have_their_engines() -> None:
    engines = registry.engines()
    assert set(engines) >= BUILTIN_ENGINES
    for slug, engine in engines.items():
        assert engine.slug == slug
        assert registry.get(slug).engine is engine


def test_every_engine_is_checked_in_full() -> None:
    """The engine checks apply to every game with an engine; a game without one gets only
    the contract's."""
    for game in registry.all_games():
        keys = {check.key for check in conformance.checks_for(game)}
        if game.engine is not None:
            assert keys == {check.key for check in conformance.CHECKS}, game.slug
        else:
            assert keys == {"parts"}, game.slug


def test_every_engine_has_golden_games() -> None:
    for slug in registry.engines():
        game = registry.get(slug)
        assert golden.golden_games(game) and golden.golden_files(game), slug


def test_a_changed_transcript_is_reported_as_a_readable_diff() -> None:
    (path, expected), *_ = golden.golden_files(registry.get("unmatched")).items()
    first = expected.splitlines()[0]
    changed = expected.replace(first, first + " (old)", 1)
    diff = conformance.golden_diff(path, changed, expected)
    assert f"-{first} (old)" in diff and f"+{first}" in diff


# --- the checks catch what they are for --------------------------------------------------------


class _Skipping(Engine[Any, Any]):
    """Countdown's engine whose ``play`` skips the game's last draw: not the state API's game."""

    def __init__(self, inner: Engine[Any, Any]) -> None:
        self.inner = inner
        self.slug = inner.slug  # type: ignore[misc]
        self.params = inner.params  # type: ignore[misc]

    def prepare(self, deck: Any, params: dict[str, Any]) -> Any:
        return self.inner.prepare(deck, params)

    def new_game(self, prepared: Any, params: dict[str, Any], rng: random.Random) -> GameState:
        return self.inner.new_game(prepared, params, rng)

    def choose(self, state: Any) -> Any:
        return self.inner.choose(state)

    def record(self, state: Any, metrics: Metrics) -> None:
        self.inner.record(state, metrics)

    def play(
        self,
        prepared: Any,
        params: dict[str, Any],
        rng: random.Random,
        metrics: Metrics,
        transcript: list[str] | None = None,
    ) -> None:
        state = self.new_game(prepared, params, rng)
        while not state.is_over() and state.turn < 3:
            line = state.apply(self.choose(state))
            if transcript is not None:
                transcript.append(line)
        self.record(state, metrics)


def test_a_fast_loop_that_plays_other_games_fails_the_play_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeGames(PACKAGES[:1]):
        game = registry.get(COUNTDOWN)
        assert game.engine is not None
        monkeypatch.setattr(game.module("engine"), "ENGINE", _Skipping(game.engine))
        with pytest.raises(conformance.NonConformance, match="game 0 of `play`"):
            conformance.check_play_equals_state_api(game, conformance.RULES_DIR)
        with pytest.raises(conformance.NonConformance, match="play_games"):
            conformance.check_play_games_equals_state_api(game, conformance.RULES_DIR)


def test_an_engine_reading_the_global_rng_fails_the_seed_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeGames(PACKAGES[:1]):
        game = registry.get(COUNTDOWN)
        engine = game.engine
        assert engine is not None
        original = type(engine).new_game

        def noisy(self: Any, prepared: Any, params: dict[str, Any], rng: random.Random) -> Any:
            return original(self, prepared, params, random.Random(random.random()))

        monkeypatch.setattr(type(engine), "new_game", noisy)
        with pytest.raises(conformance.NonConformance, match="played twice differs"):
            conformance.check_determined_by_seed(game, conformance.RULES_DIR)


def test_a_cite_of_a_blank_or_missing_line_is_refused() -> None:
    game = registry.get("unmatched")
    assert conformance._cite_problems("unmatched.md:1", game, conformance.RULES_DIR) == []
    assert conformance._cite_problems("unmatched.md:99999", game, conformance.RULES_DIR)
    assert conformance._cite_problems("nowhere.md:1", game, conformance.RULES_DIR)
    assert conformance._cite_problems("unmatched.md", game, conformance.RULES_DIR)


def test_a_game_named_in_decklab_extra_games_is_collected_for_every_check() -> None:
    """An outside game (here the run tests' Countdown) is checked too: its cases appear."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            __file__,
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DECKLAB_EXTRA_GAMES": PACKAGES[0]},
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    collected = set(result.stdout.split())
    for check in conformance.CHECKS:
        name = f"test_every_registered_game_passes_the_check[{COUNTDOWN}-{check.key}]"
        assert f"{Path(__file__).relative_to(ROOT)}::{name}" in collected, name


def test_engines_import_nothing_from_django() -> None:
    code = (
        "import sys; from games.registry import engines, all_games; engines(); "
        "from simulator.engine.golden import golden_deck; "
        "[(g.setup, golden_deck(g)) for g in all_games()]; "
        "import simulator.engine.odds, simulator.testhands.dealing, simulator.conformance; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
