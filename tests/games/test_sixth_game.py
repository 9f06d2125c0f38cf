"""The seam's proof: a sixth game, written as one package outside the repository
(tests/games/sixth_game.py writes it), gets everything a game gets with no edit to shared code:
catalog pages and API, the editor with its extra, the legality panel, text import and export,
test hands and odds with its panel, a simulation run on a real worker process, and its golden
check."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from catalog.models import Game
from decks.imports.service import deck_export, deck_import
from decks.models import Deck
from games import registry
from simulator.decks import sim_deck_for
from simulator.engine.engine import run_games
from simulator.models import RunStatus, SimulationRun
from simulator.services import run_create, run_results
from tests.celery_logs import CeleryLogs
from tests.celery_process import test_database_url
from tests.games.sixth_game import PACKAGE, SLUG, write_pebbles

ROOT = Path(settings.BASE_DIR)
HTMX = {"HTTP_HX_REQUEST": "true"}
KEEPER = "1 Old Keeper"
#: a legal bag of 10 pebbles, then a tokens line over the game's limit of 5
BAG = ("4 Grey Pebble", "3 Red Pebble", "3 Blue Pebble")
LIST = "\n".join(("game: pebbles", "tokens: 7", "## keeper", KEEPER, "## bag", *BAG))


@pytest.fixture(scope="module")
def pebbles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("sixth-game")
    package = write_pebbles(folder)
    sys.path.insert(0, str(folder))
    registry.register(PACKAGE)
    yield package
    registry.unregister(SLUG)
    sys.path.remove(str(folder))
    for name in [n for n in sys.modules if n.startswith(PACKAGE)]:
        del sys.modules[name]


@pytest.fixture
def catalog(pebbles: Path, db: None) -> Game:
    call_command("import_catalog", str(pebbles / "catalog.json"), verbosity=0)
    return Game.objects.get(slug=SLUG)


@pytest.fixture
def deck(catalog: Game, owner: Any) -> Deck:
    return deck_import(owner=owner, game=catalog, text=LIST, name="Bag of stones")


def test_its_catalog_pages_use_its_own_card_face(catalog: Game, client: Client) -> None:
    game_page = client.get(reverse("catalog:game", args=[SLUG])).content.decode()
    assert "Pebbles Base" in game_page
    set_page = client.get(reverse("catalog:set", args=[SLUG, "PB"])).content.decode()
    assert "Grey Pebble" in set_page and "data-pebble-face" in set_page
    card = client.get(reverse("catalog:card", args=[SLUG, "PB-002"]))
    assert card.status_code == 200 and "Red Pebble · 3" in card.content.decode()


def test_its_catalog_is_in_the_api(catalog: Game, client: Client) -> None:
    assert SLUG in [g["slug"] for g in client.get("/api/v1/games/").json()]
    response = client.get(f"/api/v1/games/{SLUG}/cards/", {"weight_min": 2})
    assert response.status_code == 200, response.content
    cards = response.json()["results"]
    assert sorted(c["code"] for c in cards) == ["PB-002", "PB-003"]


def test_its_extra_reads_from_text_and_its_rules_judge_the_deck(deck: Deck) -> None:
    assert deck.extras == {"tokens": 7}
    assert not deck.is_legal  # its own rule: at most 5 tokens (pebbles.md:4)
    exported = deck_export(deck=deck)
    assert isinstance(exported, str)
    assert "tokens: 7" in exported and "4 Grey Pebble" in exported


def test_its_legality_panel_and_editor_show_its_rules_and_extra(
    deck: Deck, owner_client: Client
) -> None:
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert 'data-problem="too-many-tokens"' in page and "pebbles.md:4" in page
    assert "Tokens: 7" in page  # its display partial
    editor = owner_client.get(reverse("decks:edit", args=[deck.public_id])).content.decode()
    assert 'id="tokens-editor"' in editor
    url = reverse("decks:edit-extra", args=[deck.public_id, "tokens"])
    refused = owner_client.post(url, {"version": deck.version, "tokens": "lots"}, **HTMX)
    assert refused.status_code == 400
    assert "Write the tokens as a whole number." in refused.content.decode()
    saved = owner_client.post(url, {"version": deck.version, "tokens": "3"}, **HTMX)
    assert saved.status_code == 200
    deck.refresh_from_db()
    assert deck.extras == {"tokens": 3} and deck.is_legal


def test_its_extra_schema_holds_in_the_api(deck: Deck, owner_client: Client) -> None:
    url = f"/api/v1/decks/{deck.public_id}/"
    response = owner_client.patch(
        url, {"version": deck.version, "extras": {"tokens": 1000}}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "extras" in response.json()
    deck.refresh_from_db()
    assert deck.extras == {"tokens": 7}


def test_its_test_hand_shows_its_panel_and_its_odds_follow_its_schedule(
    deck: Deck, owner_client: Client
) -> None:
    url = reverse("testhands:test-hand", args=[deck.public_id])
    page = owner_client.get(url, {"seed": 5, "turn": 1})
    assert page.status_code == 200
    html = page.content.decode()
    assert "data-heaviest" in html and "Pebbles draws 1 a turn." in html
    api = owner_client.get(f"/api/v1/decks/{deck.public_id}/test-hand/", {"seed": 5, "turns": 1})
    body = api.json()
    assert [len(d["cards"]) for d in body["draws"]] == [3, 1]  # opening 3, then 1 (pebbles.md:5)
    weights = {"Grey Pebble": 1, "Red Pebble": 3, "Blue Pebble": 2}
    drawn = [c["name"] for d in body["draws"] for c in d["cards"]]
    assert body["panels"]["heaviest"]["weight"] == max(weights[n] for n in drawn)
    odds = owner_client.get(
        f"/api/v1/decks/{deck.public_id}/odds/", {"group": "type:pebble", "k": 1, "turns": 2}
    ).json()
    assert [row["seen"] for row in odds["rows"]] == [3, 4, 5]
    assert [row["probability"] for row in odds["rows"]] == [1.0, 1.0, 1.0]


def test_its_golden_transcripts_are_written_and_checked(pebbles: Path) -> None:
    call_command("regenerate_golden", SLUG, verbosity=0)
    game0 = (pebbles / "golden" / "game0.txt").read_text("utf-8")
    assert "# pebbles golden game 'game0'" in game0
    call_command("regenerate_golden", SLUG, "--check", verbosity=0)
    (pebbles / "golden" / "game0.txt").write_text(game0.replace("turn 1:", "turn 9:"), "utf-8")
    with pytest.raises(CommandError, match="1 golden file"):
        call_command("regenerate_golden", SLUG, "--check", verbosity=0)
    call_command("regenerate_golden", SLUG, verbosity=0)


@pytest.mark.worker
@pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
    reason="a worker process needs a Redis or RabbitMQ broker",
)
@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="a worker process shares the test database: PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
def test_a_worker_process_finds_it_through_the_setting_and_plays_a_run(
    pebbles: Path, owner: Any, tmp_path: Path, celery_logs: CeleryLogs
) -> None:
    call_command("import_catalog", str(pebbles / "catalog.json"), verbosity=0)
    game = Game.objects.get(slug=SLUG)
    deck = deck_import(owner=owner, game=game, text=LIST.replace("tokens: 7", "tokens: 2"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": test_database_url(),
        "DECKLAB_EXTRA_GAMES": PACKAGE,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(pebbles.parent)]),
    }
    log = celery_logs.watch(tmp_path / "worker.log").open("wb")
    celery = Path(sys.executable).parent / "celery"
    worker = subprocess.Popen(
        [str(celery), "-A", "decklab", "worker", "-c", "1", "-n", "pebbles@%h", "--without-gossip"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        run = run_create(owner=owner, deck=deck, engine_slug=SLUG, params={}, games=3_000, seed=11)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            run = SimulationRun.objects.get(pk=run.pk)
            if run.is_finished:
                break
            time.sleep(0.1)
        assert run.status == RunStatus.SUCCEEDED, (tmp_path / "worker.log").read_text()
    finally:
        os.killpg(worker.pid, 9)
        worker.wait(timeout=10)
        log.close()
    engine = registry.get(SLUG).engine
    assert engine is not None
    expected = run_games(
        engine, sim_deck_for(deck), engine.params.clean({}), run_seed=11, start=0, count=3_000
    )
    assert run.results == run_results(expected)
