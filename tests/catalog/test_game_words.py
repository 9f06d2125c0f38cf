"""The catalog pages show a game's own words from what the game declares, with no game's words
in the shared templates: an attribute value the game words its way (Unmatched's fighter
"any", ``GameSpec.value_labels``), and a product's zones named by the game's deck rules."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst

from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, Printing, Product, ProductItem
from decks.game_rules import deck_rules
from games.unmatched.catalog import HERO_DECK


def _page(client: Client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def unmatched_product(db: None) -> Product:
    game = game_sync("unmatched")
    box = CardSet.objects.create(game=game, code="t-box", name_en="Test Box", kind="box")
    jab = Card.objects.create(
        game=game, code="t-jab", card_type="attack", name_en="Test Jab", attributes={"value": 3}
    )
    hero = Card.objects.create(
        game=game,
        code="t-hero",
        card_type="character",
        name_en="Test Hero",
        attributes={"hp": 15, "move": 2, "ranged": False, "hero_count": 1},
    )
    any_fighter = Printing.objects.create(
        card=jab, card_set=box, collector_number="1", attributes={"fighter": "any", "boost": 2}
    )
    Printing.objects.create(
        card=jab, card_set=box, collector_number="2", attributes={"fighter": "Alice", "boost": 1}
    )
    hero_card = Printing.objects.create(card=hero, card_set=box, collector_number="0")
    product = Product.objects.create(game=game, code="t-deck", name_en="Test", kind=HERO_DECK)
    ProductItem.objects.create(product=product, printing=hero_card, zone="hero", quantity=1)
    ProductItem.objects.create(product=product, printing=any_fighter, zone="deck", quantity=3)
    ProductItem.objects.create(product=product, printing=any_fighter, zone="side", quantity=1)
    return product


@pytest.mark.parametrize(("language", "words"), [("en", "Any fighter"), ("ja", "どの戦士でも可")])
def test_an_unmatched_card_for_any_fighter_shows_the_games_words(
    client: Client, unmatched_product: Product, language: str, words: str
) -> None:
    page = _page(client, reverse("catalog:card", args=["unmatched", "t-jab"]), language)
    with translation.override(language):
        fighter = str(translation.gettext("Fighter"))
    assert f'<span class="text-nowrap" data-attr="fighter">{fighter}: {words}</span>' in page
    # a named fighter is shown as it is
    assert f'data-attr="fighter">{fighter}: Alice</span>' in page


@pytest.mark.django_db
def test_another_games_value_any_is_shown_as_it_is(client: Client) -> None:
    game = game_sync("ouka-fushin")
    Card.objects.create(
        game=game,
        code="t-climax",
        card_type="climax",
        name_en="Test Climax",
        attributes={"climax_type": "any", "conditions": ["x"], "bonus": 5},
    )
    page = _page(client, reverse("catalog:card", args=["ouka-fushin", "t-climax"]), "en")
    assert '<dd class="col-7 col-lg-8">any</dd>' in page
    assert "Any fighter" not in page


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_products_zones_are_named_by_the_games_deck_rules(
    client: Client, unmatched_product: Product, language: str
) -> None:
    page = _page(client, reverse("catalog:product", args=["unmatched", "t-deck"]), language)
    rules = deck_rules("unmatched")
    with translation.override(language):
        expected = [capfirst(rules.zone_label(code)) for code in ("hero", "deck")]
        side = str(translation.gettext("Sideboard"))
    for label in [*expected, side]:
        assert f'<h2 class="h5 d-flex align-items-baseline gap-2">{label} <span' in page
    if language == "en":
        assert expected == ["Hero (character card)", "Action deck"]


def test_the_card_page_names_a_products_zones_the_same_way(
    client: Client, unmatched_product: Product
) -> None:
    page = _page(client, reverse("catalog:card", args=["unmatched", "t-jab"]), "en")
    assert "Hero deck · Action deck · Sideboard" in page


@pytest.mark.django_db
def test_kind_labels_on_the_game_page_cost_no_query_per_set_or_product(client: Client) -> None:
    game = game_sync("unmatched")
    url = reverse("catalog:game", args=["unmatched"])

    def queries_with(count: int) -> int:
        for n in range(count):
            CardSet.objects.get_or_create(game=game, code=f"q-box-{n}", kind="box", name_en="B")
            Product.objects.get_or_create(game=game, code=f"q-deck-{n}", kind=HERO_DECK)
        client.get(url)  # the set counts are cached after the first page
        with CaptureQueriesContext(connection) as captured:
            page = client.get(url).content.decode()
        assert page.count("Hero deck") == count and page.count("Boxed set") == count
        return len(captured)

    assert queries_with(1) == queries_with(3)
