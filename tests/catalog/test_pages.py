"""The catalog pages: home, game, set, card and product, with faces, filters and query budgets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import Card, CardSet, Game, Printing, Product
from catalog.spec import all_games, get_game
from catalog.templatetags import card_faces
from tests.catalog.factories import (
    CardFactory,
    CardSetFactory,
    GameFactory,
    PrintingFactory,
    ProductFactory,
    ProductItemFactory,
)

pytestmark = pytest.mark.django_db

QUERY_BUDGET = 10
SLUGS = [spec.slug for spec in all_games()]


@dataclass
class World:
    """One game's small catalog: a set with a card of every type, and a product of them all."""

    game: Game
    card_set: CardSet
    cards: list[Card]
    product: Product


def build_world(slug: str) -> World:
    game = GameFactory(slug=slug)
    card_set = CardSetFactory(game=game, official_size=40)
    cards = []
    product = ProductFactory(game=game, card_set=card_set, price_yen=1500, card_count=20)
    for card_type in get_game(slug).card_types:
        card = CardFactory(game=game, card_type=card_type.code)
        printing = PrintingFactory(card=card, card_set=card_set)
        ProductItemFactory(product=product, printing=printing, quantity=2)
        cards.append(card)
    return World(game=game, card_set=card_set, cards=cards, product=product)


def set_url(card_set: CardSet) -> str:
    return reverse("catalog:set", args=[card_set.game.slug, card_set.code])


def count_queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries), response.content.decode()


def card_codes(html: str) -> list[str]:
    """The cards drawn on a page, in order (each face carries data-card)."""
    marker = 'data-card="'
    return [part.split('"', 1)[0] for part in html.split(marker)[1:]]


# --- every page, every game -----------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_renders_for_each_game(client: Client, slug: str) -> None:
    world = build_world(slug)
    card = world.cards[0]
    pages = [
        reverse("catalog:home"),
        reverse("catalog:game", args=[slug]),
        set_url(world.card_set),
        reverse("catalog:card", args=[slug, card.code]),
        reverse("catalog:product", args=[slug, world.product.code]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
    set_page = client.get(set_url(world.card_set)).content.decode()
    assert sorted(card_codes(set_page)) == sorted(c.code for c in world.cards)
    assert f"face-game-{slug}" in set_page


def test_the_home_page_lists_the_games_with_real_and_demo_counts(client: Client) -> None:
    world = build_world("mattsan")
    CardFactory(game=world.game, is_demo=True)
    GameFactory(slug="unmatched")
    html = client.get(reverse("catalog:home")).content.decode()
    assert reverse("catalog:game", args=["mattsan"]) in html
    assert reverse("catalog:game", args=["unmatched"]) in html
    assert "+ 1 demo" in html


def test_the_home_page_leaves_out_games_without_a_catalog_module(client: Client) -> None:
    Game.objects.create(slug="chess", name_en="Chess")
    html = client.get(reverse("catalog:home")).content.decode()
    assert "Chess" not in html


@pytest.mark.parametrize(
    "name, args",
    [
        ("catalog:game", ["no-such-game"]),
        ("catalog:game", ["chess"]),
        ("catalog:set", ["unmatched", "no-such-set"]),
        ("catalog:set", ["no-such-game", "set-1"]),
        ("catalog:card", ["unmatched", "no-such-card"]),
        ("catalog:product", ["unmatched", "no-such-product"]),
    ],
)
def test_it_answers_404_for_what_is_not_in_the_catalog(
    client: Client, name: str, args: list[str]
) -> None:
    GameFactory(slug="unmatched")
    Game.objects.create(slug="chess", name_en="Chess")
    assert client.get(reverse(name, args=args)).status_code == 404


def test_a_set_of_another_game_is_not_found_under_this_game(client: Client) -> None:
    world = build_world("unmatched")
    GameFactory(slug="mattsan")
    url = reverse("catalog:set", args=["mattsan", world.card_set.code])
    assert client.get(url).status_code == 404


# --- demo and source ------------------------------------------------------------------------


def test_demo_rows_carry_the_demo_badge_everywhere_they_show(client: Client) -> None:
    game = GameFactory(slug="monster-hunter")
    card_set = CardSetFactory(game=game, is_demo=True, source="")
    card = CardFactory(game=game, is_demo=True, source="")
    printing = PrintingFactory(card=card, card_set=card_set)
    product = ProductFactory(game=game, is_demo=True, source="")
    ProductItemFactory(product=product, printing=printing)
    pages = [
        reverse("catalog:game", args=[game.slug]),
        reverse("catalog:game", args=[game.slug]) + "?q=card",
        set_url(card_set),
        reverse("catalog:card", args=[game.slug, card.code]),
        reverse("catalog:product", args=[game.slug, product.code]),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert 'class="badge badge-demo' in html, url
        assert ">demo</span>" in html, url


def test_real_rows_show_no_demo_badge_and_name_their_source(client: Client) -> None:
    game = GameFactory(slug="unmatched")
    card_set = CardSetFactory(game=game, source="https://www.example.org/sets/base")
    card = CardFactory(game=game, source="Rulebook, page 4")
    PrintingFactory(card=card, card_set=card_set)
    set_html = client.get(set_url(card_set)).content.decode()
    card_html = client.get(reverse("catalog:card", args=[game.slug, card.code])).content.decode()
    assert "badge-demo" not in set_html + card_html
    assert 'href="https://www.example.org/sets/base"' in set_html
    assert "example.org" in set_html
    assert "Rulebook, page 4" in card_html


def test_card_data_is_escaped_on_every_page(client: Client) -> None:
    game = GameFactory(slug="mattsan")
    card_set = CardSetFactory(game=game, name_en="<b>Set</b>")
    card = CardFactory(game=game, name_en="<script>alert(1)</script>", source="<i>x</i>")
    PrintingFactory(card=card, card_set=card_set)
    for url in [
        set_url(card_set),
        reverse("catalog:card", args=[game.slug, card.code]),
        reverse("catalog:game", args=[game.slug]) + "?q=alert",
    ]:
        html = client.get(url).content.decode()
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- the game page: sets, products, name search ---------------------------------------------


def test_the_game_page_lists_sets_with_release_precision_kind_and_size(client: Client) -> None:
    world = build_world("ouka-fushin")
    CardSet.objects.filter(pk=world.card_set.pk).update(
        release_date="1998-04-01", release_precision=CardSet.Precision.MONTH
    )
    html = client.get(reverse("catalog:game", args=["ouka-fushin"])).content.decode()
    assert "1998-04" in html and "1998-04-01" not in html
    assert "Expansion" in html
    assert f"{len(world.cards)} / 40" in html
    assert world.product.name_en in html
    assert "¥1,500" in html


def test_search_finds_a_katakana_name_with_a_hiragana_query(client: Client) -> None:
    game = GameFactory(slug="monster-hunter")
    wanted = CardFactory(game=game, name_ja="リオレウス", name_en="Rathalos")
    CardFactory(game=game, name_ja="リオレイア", name_en="Rathian")
    html = client.get(reverse("catalog:game", args=[game.slug]), {"q": "りおれうす"}).content
    assert card_codes(html.decode()) == [wanted.code]


def test_search_finds_a_card_by_its_english_name_in_any_case(client: Client) -> None:
    game = GameFactory(slug="recharge")
    wanted = CardFactory(game=game, name_ja="スパイダーマン", name_en="Spider-Man")
    CardFactory(game=game, name_ja="ウルヴァリン", name_en="Wolverine")
    html = client.get(reverse("catalog:game", args=[game.slug]), {"q": "spider"}).content
    assert card_codes(html.decode()) == [wanted.code]


def test_search_says_so_when_nothing_matches(client: Client) -> None:
    GameFactory(slug="recharge")
    response = client.get(reverse("catalog:game", args=["recharge"]), {"q": "nothing"})
    assert "No card of this game matches" in response.content.decode()


def test_search_only_searches_this_game(client: Client) -> None:
    CardFactory(game=GameFactory(slug="mattsan"), name_en="Shared Name")
    html = client.get(reverse("catalog:game", args=["unmatched"]) + "?q=shared")
    assert html.status_code == 404  # no Game row for unmatched yet
    GameFactory(slug="unmatched")
    html = client.get(reverse("catalog:game", args=["unmatched"]), {"q": "shared"})
    assert card_codes(html.content.decode()) == []


def test_an_htmx_search_returns_only_the_results(client: Client) -> None:
    game = GameFactory(slug="recharge")
    CardFactory(game=game, name_en="Storm")
    response = client.get(
        reverse("catalog:game", args=[game.slug]), {"q": "storm"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert "<html" not in html and len(card_codes(html)) == 1
    assert "HX-Request" in response["Vary"]


# --- the set page: filters, sort, pagination ------------------------------------------------


def test_the_set_page_filters_on_type(client: Client) -> None:
    world = build_world("unmatched")
    html = client.get(set_url(world.card_set), {"type": "defense"}).content.decode()
    assert card_codes(html) == [c.code for c in world.cards if c.card_type == "defense"]


def test_the_set_page_filters_on_a_facet_range(client: Client) -> None:
    game = GameFactory(slug="monster-hunter")
    card_set = CardSetFactory(game=game)
    for hp in (4, 8, 12):
        attributes = {"attack": 3, "movement": 1, "reach": 1, "hp": hp, "rank": 2,
                      "material_points": 2}  # fmt: skip
        card = CardFactory(game=game, card_type="monster", attributes=attributes, code=f"m{hp}")
        PrintingFactory(card=card, card_set=card_set)
    html = client.get(set_url(card_set), {"hp_min": 6, "hp_max": 10}).content.decode()
    assert card_codes(html) == ["m8"]


def test_the_set_page_filters_on_a_list_facet(client: Client) -> None:
    game = GameFactory(slug="monster-hunter")
    card_set = CardSetFactory(game=game)
    for code, icons in (("potion", ["medicine", "bottle"]), ("steak", ["meat"])):
        card = CardFactory(game=game, card_type="item", code=code, attributes={"item_icons": icons})
        PrintingFactory(card=card, card_set=card_set)
    html = client.get(set_url(card_set), {"item_icons": "bottle"}).content.decode()
    assert card_codes(html) == ["potion"]


def test_the_set_page_filters_unmatched_cards_on_the_boost_of_their_printing(
    client: Client,
) -> None:
    game = GameFactory(slug="unmatched")
    card_set, other_set = CardSetFactory(game=game), CardSetFactory(game=game)
    feint = CardFactory(game=game, card_type="versatile", code="feint")
    PrintingFactory(card=feint, card_set=card_set, attributes={"fighter": "any", "boost": 1})
    PrintingFactory(card=feint, card_set=other_set, attributes={"fighter": "any", "boost": 3})
    skirmish = CardFactory(game=game, card_type="versatile", code="skirmish")
    for number, boost in (("1", 1), ("2", 3), ("3", 4)):
        PrintingFactory(
            card=skirmish,
            card_set=card_set,
            collector_number=number,
            attributes={"fighter": "Alice", "boost": boost},
        )
    html = client.get(set_url(card_set), {"boost_min": 2}).content.decode()
    # feint boosts 3 only in the other set; skirmish shows once, as a printing that matches
    assert card_codes(html) == ["skirmish"]
    assert '<span class="um-boost-v">3</span>' in html
    assert '<span class="um-boost-v">1</span>' not in html
    assert "Also:" in html


def test_invalid_filter_values_show_no_cards_rather_than_an_error(client: Client) -> None:
    world = build_world("mattsan")
    response = client.get(set_url(world.card_set), {"hp_min": "lots"})
    assert response.status_code == 200
    assert card_codes(response.content.decode()) == []


def test_the_set_page_sorts_by_number_name_and_type(client: Client) -> None:
    game = GameFactory(slug="unmatched")
    card_set = CardSetFactory(game=game)
    rows = [
        ("b", "Beta", "attack", "10"),
        ("a", "Alpha", "scheme", "9"),
        ("c", "Gamma", "defense", "2"),
    ]
    for code, name, card_type, number in rows:
        card = CardFactory(game=game, code=code, name_en=name, card_type=card_type)
        PrintingFactory(card=card, card_set=card_set, collector_number=number)
    url = set_url(card_set)
    assert card_codes(client.get(url).content.decode()) == ["c", "a", "b"]
    assert card_codes(client.get(url, {"sort": "number"}).content.decode()) == ["c", "a", "b"]
    assert card_codes(client.get(url, {"sort": "name"}).content.decode()) == ["a", "b", "c"]
    assert card_codes(client.get(url, {"sort": "type"}).content.decode()) == ["b", "c", "a"]


def test_the_set_page_paginates_and_keeps_the_filters_in_page_links(client: Client) -> None:
    game = GameFactory(slug="mattsan")
    card_set = CardSetFactory(game=game)
    for card in CardFactory.create_batch(61, game=game, card_type="unit"):
        PrintingFactory(card=card, card_set=card_set)
    first = client.get(set_url(card_set), {"type": "unit"}).content.decode()
    second = client.get(set_url(card_set), {"type": "unit", "page": 2}).content.decode()
    assert len(card_codes(first)) == 60
    assert len(card_codes(second)) == 1
    assert "?type=unit&amp;page=2" in first


def test_the_set_page_renders_the_game_facets_as_form_fields(client: Client) -> None:
    world = build_world("monster-hunter")
    html = client.get(set_url(world.card_set)).content.decode()
    assert '<select name="weapon_icon"' in html
    assert '<select name="item_icons"' in html
    assert 'type="number" name="rank_min"' in html
    assert 'type="number" name="hp_max"' in html
    assert 'hx-get="' in html and 'hx-push-url="true"' in html


def test_an_htmx_filter_change_returns_only_the_results(client: Client) -> None:
    world = build_world("ouka-fushin")
    response = client.get(
        set_url(world.card_set), {"type": "story"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert "<form" not in html
    assert card_codes(html) == [c.code for c in world.cards if c.card_type == "story"]


def test_a_two_printing_card_shows_once_with_its_other_printing_noted(client: Client) -> None:
    game = GameFactory(slug="recharge")
    card_set = CardSetFactory(game=game)
    card = CardFactory(game=game, card_type="hero", name_en="Storm")
    PrintingFactory(card=card, card_set=card_set, collector_number="012")
    PrintingFactory(card=card, card_set=card_set, collector_number="012", variant="power-plus")
    html = client.get(set_url(card_set)).content.decode()
    assert card_codes(html) == [card.code]
    assert "Power Plus 012" in html


# --- the card page --------------------------------------------------------------------------


def test_the_card_page_shows_translated_labels_and_choice_labels(client: Client) -> None:
    game = GameFactory(slug="monster-hunter")
    card = CardFactory(game=game, card_type="weapon", copy_limit=1)
    PrintingFactory(card=card)
    html = client.get(reverse("catalog:card", args=[game.slug, card.code])).content.decode()
    assert "Weapon icon" in html and "Great sword" in html and "great-sword" not in html
    assert "At most 1 copy per deck" in html
    assert "Weapon" in html


def test_the_card_page_lists_printings_with_variant_and_printing_attributes(
    client: Client,
) -> None:
    game = GameFactory(slug="unmatched")
    card = CardFactory(game=game, card_type="attack", name_en="Sword Strike")
    PrintingFactory(card=card, collector_number="7", attributes={"fighter": "Alice", "boost": 2})
    html = client.get(reverse("catalog:card", args=[game.slug, card.code])).content.decode()
    assert "Fighter: Alice" in html and "Boost: 2" in html

    recharge = GameFactory(slug="recharge")
    hero = CardFactory(game=recharge, card_type="hero")
    PrintingFactory(card=hero, variant="power-plus")
    html = client.get(reverse("catalog:card", args=["recharge", hero.code])).content.decode()
    assert "Power Plus" in html and "face-variant-power-plus" in html


def test_the_card_page_lists_the_products_containing_it_with_quantities(client: Client) -> None:
    world = build_world("recharge")
    card = world.cards[0]
    printing = Printing.objects.get(card=card)
    ProductItemFactory(product=world.product, printing=printing, zone="side", quantity=1)
    html = client.get(reverse("catalog:card", args=["recharge", card.code])).content.decode()
    assert world.product.name_en in html
    assert "×3" in html
    assert "Sideboard" in html


# --- the product page -----------------------------------------------------------------------


def test_the_product_page_groups_contents_by_zone_with_totals(client: Client) -> None:
    world = build_world("unmatched")
    extra = PrintingFactory(card=world.cards[1], card_set=world.card_set, collector_number="99")
    ProductItemFactory(product=world.product, printing=extra, zone="sidekick", quantity=3)
    html = client.get(
        reverse("catalog:product", args=["unmatched", world.product.code])
    ).content.decode()
    main_total = 2 * len(world.cards)
    assert 'data-zone="main"' in html and 'data-zone="sidekick"' in html
    assert html.index('data-zone="main"') < html.index('data-zone="sidekick"')
    assert f"{main_total + 3} cards in the catalog" in html
    assert "×3" in html and "¥1,500" in html


def test_a_product_without_items_says_its_contents_are_not_in_the_catalog(
    client: Client,
) -> None:
    product = ProductFactory(game=GameFactory(slug="mattsan"), card_count=40)
    html = client.get(reverse("catalog:product", args=["mattsan", product.code])).content
    assert "Contents not in catalog" in html.decode()
    game_html = client.get(reverse("catalog:game", args=["mattsan"])).content.decode()
    assert "contents not in catalog" in game_html


# --- card faces -----------------------------------------------------------------------------


def test_recharge_faces_draw_two_stripes_for_a_two_colour_edge(client: Client) -> None:
    game = GameFactory(slug="recharge")
    card = CardFactory(game=game, card_type="teamwork")  # left: red + yellow, right: green
    PrintingFactory(card=card)
    html = client.get(reverse("catalog:card", args=["recharge", card.code])).content.decode()
    left = html.split("rc-edge-left", 1)[1].split("</div>", 1)[0]
    assert "rc-red" in left and "rc-yellow" in left


def test_a_game_without_its_own_face_template_gets_the_generic_face(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = CardFactory(game=GameFactory(slug="mattsan"), card_type="unit")
    sixth = dataclasses.replace(get_game("mattsan"), slug="sixth-game")
    monkeypatch.setattr(card_faces, "get_game", lambda slug: sixth)
    html = str(card_faces.card_face(card))
    assert "face-game-sixth-game" in html
    assert "face-rows" in html and "HP" in html


# --- query budgets --------------------------------------------------------------------------


def grow_set(card_set: CardSet, n: int) -> None:
    game = card_set.game
    for card in CardFactory.create_batch(n, game=game, card_type="character"):
        PrintingFactory(card=card, card_set=card_set)


def test_the_set_page_costs_the_same_queries_for_5_cards_as_for_200(client: Client) -> None:
    game = GameFactory(slug="unmatched")
    small, large = CardSetFactory(game=game), CardSetFactory(game=game)
    grow_set(small, 5)
    grow_set(large, 200)
    ProductFactory(game=game, card_set=large)
    for params in ("", "?boost_min=0&sort=name", "?q=card&type=character"):
        few, _ = count_queries(client, set_url(small) + params)
        many, _ = count_queries(client, set_url(large) + params)
        assert few == many <= QUERY_BUDGET, params


def test_the_game_page_costs_the_same_queries_however_large_the_game(client: Client) -> None:
    small_game, large_game = GameFactory(slug="mattsan"), GameFactory(slug="unmatched")
    grow_set(CardSetFactory(game=small_game), 3)
    for _ in range(8):
        card_set = CardSetFactory(game=large_game)
        grow_set(card_set, 25)
        ProductItemFactory.create_batch(3, product=ProductFactory(game=large_game))
    few, _ = count_queries(client, reverse("catalog:game", args=["mattsan"]) + "?q=card")
    many, html = count_queries(client, reverse("catalog:game", args=["unmatched"]) + "?q=card")
    assert len(card_codes(html)) == 60
    assert few == many <= QUERY_BUDGET


def test_the_home_page_costs_the_same_queries_however_large_the_catalog(client: Client) -> None:
    build_world("mattsan")
    few, _ = count_queries(client, reverse("catalog:home"))
    for slug in SLUGS:
        build_world(slug)
    many, _ = count_queries(client, reverse("catalog:home"))
    assert few == many <= QUERY_BUDGET


def test_the_card_page_costs_the_same_queries_however_often_the_card_is_printed(
    client: Client,
) -> None:
    game = GameFactory(slug="unmatched")
    once, often = CardFactory(game=game), CardFactory(game=game)
    PrintingFactory(card=once)
    for _ in range(15):
        printing = PrintingFactory(card=often)
        ProductItemFactory(product=ProductFactory(game=game), printing=printing)
    few, _ = count_queries(client, reverse("catalog:card", args=[game.slug, once.code]))
    many, _ = count_queries(client, reverse("catalog:card", args=[game.slug, often.code]))
    assert few == many <= QUERY_BUDGET


def test_the_product_page_costs_the_same_queries_however_large_the_product(
    client: Client,
) -> None:
    game = GameFactory(slug="monster-hunter")
    small, large = ProductFactory(game=game), ProductFactory(game=game)
    ProductItemFactory.create_batch(2, product=small)
    ProductItemFactory.create_batch(40, product=large)
    ProductItemFactory.create_batch(5, product=large, zone="side")
    few, _ = count_queries(client, reverse("catalog:product", args=[game.slug, small.code]))
    many, _ = count_queries(client, reverse("catalog:product", args=[game.slug, large.code]))
    assert few == many <= QUERY_BUDGET
