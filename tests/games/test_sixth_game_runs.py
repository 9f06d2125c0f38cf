"""The sixth game's simulation runs, played by a real Celery worker that knows the game only
through ``DECKLAB_EXTRA_GAMES`` and its PYTHONPATH: on PostgreSQL and Redis (the worker shares
the test database), and on the embedded default (SQLite and the filesystem broker, in processes
of their own: tests/games/sixth_game_embedded.py drives the site side). Each run's results are
exactly the engine's for the same seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from catalog.models import Game
from decks.imports.service import deck_import
from games import registry
from simulator.decks import sim_deck_for
from simulator.engine.engine import run_games
from simulator.models import RunStatus, SimulationRun
from simulator.services import run_create, run_results
from tests.celery_process import StartCelery, wait_for, worker_arguments
from tests.games import sixth_game_fixtures as fixtures
from tests.games.sixth_game import PACKAGE, SLUG

pytestmark = pytest.mark.worker
ROOT = Path(settings.BASE_DIR)
pebbles = fixtures.pebbles


def _game_env(package: Path) -> dict[str, str]:
    """What a machine running an outside game sets: the package's name and where it is."""
    return {
        "DECKLAB_EXTRA_GAMES": PACKAGE,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(package.parent)]),
    }


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres")
    or not settings.CELERY_BROKER_URL.startswith("redis://"),
    reason="this run shares the session's PostgreSQL database and Redis broker (scripts/test "
    "uses them whenever they answer); the embedded default is the next test's",
)
@pytest.mark.django_db(transaction=True)
def test_a_worker_on_postgresql_and_redis_finds_it_through_the_setting_and_plays_a_run(
    pebbles: Path, owner: Any, tmp_path: Path, celery_processes: StartCelery
) -> None:
    call_command("import_catalog", str(pebbles / "catalog.json"), verbosity=0)
    game = Game.objects.get(slug=SLUG)
    listed = fixtures.LIST.replace("tokens: 7", "tokens: 2")
    deck = deck_import(owner=owner, game=game, text=listed)
    assert deck.is_legal
    worker = celery_processes("pebbles", *worker_arguments("pebbles"), env=_game_env(pebbles))
    run = run_create(owner=owner, deck=deck, engine_slug=SLUG, params={}, games=3_000, seed=11)

    def finished() -> SimulationRun | None:
        found = SimulationRun.objects.get(pk=run.pk)
        return found if found.is_finished else None

    run = wait_for("the pebbles run", finished, 90, [worker.log])
    assert run.status == RunStatus.SUCCEEDED, worker.log.read_text()
    engine = registry.get(SLUG).engine
    assert engine is not None
    expected = run_games(
        engine, sim_deck_for(deck), engine.params.clean({}), run_seed=11, start=0, count=3_000
    )
    assert run.results == run_results(expected)
    assert run.results["metrics"]["games"] == 3_000 and run.results["metrics"]["counts"]["fell"]
    # the pouch (the sideboard) goes with the deck, but games draw from the bag
    assert run.deck_data["draw_zone"] == "bag"


def _drive(step: str, package: Path, out: Path, env: dict[str, str]) -> dict[str, Any]:
    driver = [sys.executable, "-m", "tests.games.sixth_game_embedded", step, str(package), str(out)]
    done = subprocess.run(driver, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    answer: dict[str, Any] = json.loads(out.read_text("utf-8"))
    return answer


def test_a_worker_on_the_embedded_default_plays_a_run(
    pebbles: Path, tmp_path: Path, celery_processes: StartCelery
) -> None:
    """DeckLab's own settings with no DATABASE_URL, CELERY_BROKER_URL or REDIS_URL: SQLite and
    the filesystem broker under DECKLAB_VAR_DIR, as ``scripts/run`` starts them."""
    var = tmp_path / "var"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "decklab.settings",
        "SECRET_KEY": "embedded-sixth-game-test-key-not-secret",
        "DATABASE_URL": "",
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
        "DECKLAB_VAR_DIR": str(var),
        **_game_env(pebbles),
    }
    prepared = _drive("prepare", pebbles, tmp_path / "prepared.json", env)
    assert prepared["legal"] is True
    assert (var / "decklab.sqlite3").exists()
    worker = celery_processes("pebbles-embedded", *worker_arguments("pebbles-embedded"), env=env)
    result = _drive("run", pebbles, tmp_path / "run.json", env)
    assert result["status"] == RunStatus.SUCCEEDED, worker.log.read_text()
    assert result["results"] == result["expected"]
    assert result["results"]["metrics"]["games"] == 2_000
    # the messages went through the filesystem broker's folders, not through a server
    assert (var / "broker" / "queue").is_dir()
    print(f"\nembedded run of 2,000 games: {result['seconds']} s from start to finish")
