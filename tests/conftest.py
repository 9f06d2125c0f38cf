"""Shared fixtures: a small cast of named users used by every permission test.

- ``owner`` owns the decks under test;
- ``friend`` is someone the owner shared an unlisted link with (no special rights);
- ``stranger`` has never seen the deck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from games import registry
from tests.celery_logs import CeleryLogs
from tests.celery_process import CeleryProcess, kernels_on_disk

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def celery_logs() -> Iterator[CeleryLogs]:
    """Every worker and beat a test starts logs no error (tests/celery_logs.py): request it
    before the fixture that starts them, so it is checked after they stop."""
    logs = CeleryLogs()
    yield logs
    logs.check()


@pytest.fixture
def celery_processes(
    tmp_path: Path, celery_logs: CeleryLogs
) -> Iterator[Callable[..., CeleryProcess]]:
    """``start(name, *arguments, env={…})``: a real ``celery -A decklab`` process
    (tests/celery_process.py) whose log ``celery_logs`` checks; all are killed at teardown."""
    started: list[CeleryProcess] = []

    def start(name: str, *arguments: str, env: dict[str, str] | None = None) -> CeleryProcess:
        log = celery_logs.watch(tmp_path / f"{name}.log")
        process = CeleryProcess(list(arguments), log, env or {})
        started.append(process)
        return process

    yield start
    for process in started:
        process.kill()


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Every test starts in the site's default language: a request answered in Japanese leaves
    Japanese active in the test's thread, which would leak into the next test's messages."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The Japanese catalogue compiled before any test is even collected: the .mo files are
    build output (not committed), without them every Japanese page would silently be English,
    and some tests are parametrised by Japanese labels when their module is imported.

    The engines' kernels are warmed here too, as a worker warms them when it starts: a test
    that plays a run's chunks in its own transaction must not spend its first chunk compiling
    (1-12 s a kernel on a fresh clone), or the chunk's lease heartbeat, on a connection that
    cannot see the test's uncommitted run, gives the chunk up after a second."""
    call_command(
        "compilemessages",
        locale=["ja"],
        ignore_patterns=[".venv", "var", "staticfiles", "node_modules"],
        verbosity=0,
    )
    kernels_on_disk()


def _user(username: str) -> Any:
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.test", password=PASSWORD
    )


@pytest.fixture
def owner(db: None) -> Any:
    return _user("owner")


@pytest.fixture
def friend(db: None) -> Any:
    return _user("friend")


@pytest.fixture
def stranger(db: None) -> Any:
    return _user("stranger")


def _client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: Any) -> Client:
    return _client_for(owner)


@pytest.fixture
def friend_client(friend: Any) -> Client:
    return _client_for(friend)


@pytest.fixture
def stranger_client(stranger: Any) -> Client:
    return _client_for(stranger)


#: a demo (or, for Unmatched, real) prebuilt product of each game that is a legal deck
DEMO_PRODUCTS = {
    "monster-hunter": "mh-demo-ember-hunt",
    "ouka-fushin": "OFD-PB1",
    "recharge": "rc-demo-heroes-united",
    "unmatched": "alice",
    "mattsan": "MTD-ST1",
}


@pytest.fixture(scope="module")
def committed_catalogs(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Every registered game's committed catalog, imported once for a test module (an import
    of all of them takes seconds; per test it would dominate the suite)."""
    from catalog.models import Card, CardSet, Game, Product

    with django_db_blocker.unblock():
        games_before = set(Game.objects.values_list("pk", flat=True))
        for game in registry.all_games():
            if game.catalog_file is not None:
                call_command("import_catalog", str(game.catalog_file), verbosity=0)
    yield
    with django_db_blocker.unblock():
        # committed outside the tests' transactions, so removed by hand for the next module
        for model in (Product, Card, CardSet):
            model.objects.all().delete()
        Game.objects.exclude(pk__in=games_before).delete()


def demo_deck(slug: str, owner: Any, visibility: str = "public") -> Any:
    """A deck of ``owner`` holding the game's product from DEMO_PRODUCTS."""
    from catalog.models import Product
    from decks.models import Deck
    from decks.services import deck_from_product

    deck = deck_from_product(product=Product.objects.get(code=DEMO_PRODUCTS[slug]), user=owner)
    Deck.objects.filter(pk=deck.pk).update(visibility=visibility)
    deck.refresh_from_db()
    return deck
