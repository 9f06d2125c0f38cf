"""The game page's set sizes are counted once per catalog version, not on every visit."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.cache import catalog_version_bump
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory

pytestmark = pytest.mark.django_db


def printing_counts(client: Client, url: str) -> tuple[int, dict[int, int]]:
    """How many statements of the visit read the printing table, and the sizes shown."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    reading = [q["sql"] for q in queries if '"catalog_printing"' in q["sql"]]
    sizes = {s.pk: s.card_count for s in response.context["sets"]}
    return len(reading), sizes


def test_the_second_visit_takes_the_set_sizes_from_the_cache_until_the_catalog_moves_on(
    client: Client,
) -> None:
    game = GameFactory(slug="unmatched")
    card_set = CardSetFactory(game=game)
    for card in CardFactory.create_batch(3, game=game, card_type="character"):
        PrintingFactory(card=card, card_set=card_set)
    url = reverse("catalog:game", args=[game.slug])

    first, sizes = printing_counts(client, url)
    assert (first, sizes) == (1, {card_set.pk: 3})
    second, again = printing_counts(client, url)
    assert (second, again) == (0, {card_set.pk: 3})

    # a new card behind the importer's back is not counted until an import moves the version
    PrintingFactory(card=CardFactory(game=game, card_type="character"), card_set=card_set)
    catalog_version_bump()
    third, moved_on = printing_counts(client, url)
    assert (third, moved_on) == (1, {card_set.pk: 4})
