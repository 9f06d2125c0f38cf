"""The sixth game on the embedded default, driven from outside the test session: a process of
its own with DeckLab's plain settings, SQLite and the filesystem broker in a throw-away
``DECKLAB_VAR_DIR`` (tests/games/test_sixth_game_runs.py starts it and a worker beside it).

    python -m tests.games.sixth_game_embedded prepare <package> <out.json>
        migrates, loads the game's catalog, makes a player and a deck; writes the deck's id
    python -m tests.games.sixth_game_embedded run <package> <out.json>
        starts a run of that deck, waits for the worker to finish it, and writes its status,
        its results and the results the engine gives for the same seed in this process
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

GAMES = 2_000
SEED = 23
#: the worker's run must end within this many seconds (it takes about one)
TIMEOUT = 120
#: a legal deck: one keeper, ten pebbles, a pouch of one, 2 tokens
LIST = "\n".join(
    (
        "game: pebbles",
        "tokens: 2",
        "## keeper",
        "1 Old Keeper",
        "## bag",
        "4 Grey Pebble",
        "3 Red Pebble",
        "3 Blue Pebble",
        "## pouch",
        "1 Green Pebble",
    )
)


# The functions import DeckLab's modules inside: they load only after django.setup() in main.


def prepare(package: Path) -> dict[str, object]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from catalog.models import Game
    from decks.imports.service import deck_import

    call_command("migrate", verbosity=0)
    call_command("import_catalog", str(package / "catalog.json"), verbosity=0)
    owner = get_user_model().objects.create_user("pebbler", password="x-unused-x-1")
    deck = deck_import(owner=owner, game=Game.objects.get(slug="pebbles"), text=LIST)
    return {"deck": deck.public_id, "legal": deck.is_legal}


def run(public_id: str) -> dict[str, object]:
    from decks.models import Deck
    from games import registry
    from simulator.decks import sim_deck_for
    from simulator.engine.engine import run_games
    from simulator.models import SimulationRun
    from simulator.services import run_create, run_results

    deck = Deck.objects.select_related("owner", "game").get(public_id=public_id)
    started = time.monotonic()
    made = run_create(
        owner=deck.owner, deck=deck, engine_slug="pebbles", params={}, games=GAMES, seed=SEED
    )
    found = made
    while time.monotonic() - started < TIMEOUT:
        found = SimulationRun.objects.get(pk=made.pk)
        if found.is_finished:
            break
        time.sleep(0.1)
    engine = registry.get("pebbles").engine
    assert engine is not None
    expected = run_games(
        engine, sim_deck_for(deck), engine.params.clean({}), run_seed=SEED, start=0, count=GAMES
    )
    return {
        "status": found.status,
        "results": found.results,
        "expected": run_results(expected),
        "seconds": round(time.monotonic() - started, 2),
    }


def main(step: str, package: Path, out: Path) -> None:
    import django

    django.setup()
    if step == "prepare":
        answer = prepare(package)
    else:
        answer = run(json.loads(out.with_name("prepared.json").read_text())["deck"])
    out.write_text(json.dumps(answer, default=str), "utf-8")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]))
