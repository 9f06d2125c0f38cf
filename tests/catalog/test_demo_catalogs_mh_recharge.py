"""The committed Monster Hunter and Recharge catalog files: real sets from the rule digests,
one demo set of invented cards each, and demo prebuilt decks that are legal under the
digests' construction rules (shared/rules/monster-hunter.md "Deck construction",
shared/rules/recharge.md "Deck and chips")."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest

from catalog.importers.service import catalog_import_path
from catalog.models import Card, CardSet, Printing, Product, ProductItem
from games.monster_hunter.catalog import ITEM_ICONS, WEAPON_ICONS
from games.recharge.catalog import COLOURS, POWER_PLUS

GAMES = Path(__file__).resolve().parents[2] / "games"
MH_FILE = GAMES / "monster_hunter" / "catalog.json"
RC_FILE = GAMES / "recharge" / "catalog.json"
MH = "monster-hunter"
RC = "recharge"

# monster-hunter.md "Releases": code -> (date, precision, official size)
MH_REAL_SETS = {
    "mh-base": (dt.date(2007, 4, 1), "month", 170),
    "mh-02": (dt.date(2007, 8, 1), "month", 66),
    "mh-03": (dt.date(2008, 1, 1), "month", 124),
}
# code -> (set, cards per product, price in yen)
MH_REAL_PRODUCTS = {
    "mh-base-starter": ("mh-base", 41, 1890),
    "mh-base-booster": ("mh-base", 8, 252),
    "mh-02-booster": ("mh-02", 8, 252),
    "mh-03-starter": ("mh-03", 41, 1890),
    "mh-03-booster": ("mh-03", 8, 252),
}
RC_REAL_SETS = {"rc-inaugural", "rc-series-2"}
PREBUILT_KINDS = {Product.Kind.STARTER, Product.Kind.PREBUILT}

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def catalogs() -> None:
    catalog_import_path(MH_FILE)
    catalog_import_path(RC_FILE)


def demo_cards(game: str) -> list[Card]:
    return list(Card.objects.filter(game__slug=game, is_demo=True))


def demo_prebuilts(game: str) -> list[Product]:
    return list(
        Product.objects.filter(game__slug=game, is_demo=True, kind__in=PREBUILT_KINDS)
        .prefetch_related("items__printing__card")
        .order_by("code")
    )


def test_both_files_import_cleanly_and_a_second_import_changes_nothing() -> None:
    for path in (MH_FILE, RC_FILE):
        report = catalog_import_path(path)
        assert sum(report.created.values()) == 0
        assert sum(report.updated.values()) == 0
        assert report.unchanged["cards"] > 0


def test_the_real_monster_hunter_sets_carry_the_digest_dates_sizes_and_no_cards() -> None:
    for code, (date, precision, size) in MH_REAL_SETS.items():
        card_set = CardSet.objects.get(game__slug=MH, code=code)
        assert (card_set.release_date, card_set.release_precision) == (date, precision)
        assert card_set.official_size == size
        assert card_set.name_en and card_set.name_ja
        assert not card_set.is_demo
        assert "monster-hunter.md" in card_set.source
        assert not card_set.printings.exists()
    assert CardSet.objects.get(game__slug=MH, code="mh-base").name_ja == "基本セット"


def test_the_real_monster_hunter_products_have_counts_and_prices_but_no_contents() -> None:
    for code, (set_code, card_count, price) in MH_REAL_PRODUCTS.items():
        product = Product.objects.select_related("card_set").get(game__slug=MH, code=code)
        assert product.card_set is not None and product.card_set.code == set_code
        assert (product.card_count, product.price_yen) == (card_count, price)
        assert product.release_date == MH_REAL_SETS[set_code][0]
        assert not product.is_demo
        assert not product.items.exists()


def test_the_monster_hunter_demo_set_has_sixty_cards_of_all_five_types() -> None:
    cards = demo_cards(MH)
    assert len(cards) >= 60
    assert {c.card_type for c in cards} == {"hunter", "monster", "weapon", "armor", "item"}
    assert all(c.name_en and c.name_ja for c in cards)
    for card in cards:
        printings = list(card.printings.select_related("card_set"))
        assert len(printings) == 1
        assert printings[0].card_set.code == "mh-demo"
        assert printings[0].collector_number


def test_the_monster_hunter_demo_weapons_cover_all_nine_icons_several_times() -> None:
    icons = Counter(c.attributes["weapon_icon"] for c in demo_cards(MH) if c.card_type == "weapon")
    assert set(icons) == {code for code, _label in WEAPON_ICONS}
    assert min(icons.values()) >= 2


def test_the_monster_hunter_demo_items_cover_all_seven_item_icons() -> None:
    icons = {i for c in demo_cards(MH) if c.card_type == "item" for i in c.attributes["item_icons"]}
    assert icons == {code for code, _label in ITEM_ICONS}


def test_the_monster_hunter_demo_monsters_vary_in_hp_rank_and_reach() -> None:
    monsters = [c.attributes for c in demo_cards(MH) if c.card_type == "monster"]
    for key in ("hp", "rank", "reach"):
        assert len({m[key] for m in monsters}) >= 4, key
    for flag in ("main_target", "weak_point", "one_per_field"):
        assert any(m.get(flag) for m in monsters), flag
        assert not all(m.get(flag) for m in monsters), flag


def test_several_monster_hunter_demo_hunters_use_different_item_icons() -> None:
    hunters = [c for c in demo_cards(MH) if c.card_type == "hunter"]
    assert len(hunters) >= 3
    assert len({tuple(sorted(h.attributes["item_icons"])) for h in hunters}) == len(hunters)


def test_every_monster_hunter_demo_prebuilt_is_a_legal_deck_plus_one_hunter() -> None:
    products = demo_prebuilts(MH)
    assert products
    for product in products:
        zones: dict[str, Counter[Printing]] = {}
        for item in product.items.all():
            zones.setdefault(item.zone, Counter())[item.printing] += item.quantity
        assert set(zones) == {"main", "hunter"}, product.code
        main, hunter = zones["main"], zones["hunter"]
        # exactly 40 cards, at most 4 of one card number, no hunter in the deck
        assert sum(main.values()) == 40, product.code
        per_number = Counter()
        for printing, quantity in main.items():
            per_number[(printing.card_set_id, printing.collector_number)] += quantity
        assert max(per_number.values()) <= 4, product.code
        assert all(p.card.card_type != "hunter" for p in main), product.code
        # beside the deck: exactly one hunter card
        assert sum(hunter.values()) == 1, product.code
        assert all(p.card.card_type == "hunter" for p in hunter), product.code
        assert product.card_count == 41
        assert all(p.card.is_demo for zone in zones.values() for p in zone)


def test_the_real_recharge_sets_are_from_2001_at_year_precision_without_cards() -> None:
    sets = {s.code: s for s in CardSet.objects.filter(game__slug=RC, is_demo=False)}
    assert set(sets) == RC_REAL_SETS
    for card_set in sets.values():
        assert card_set.release_date == dt.date(2001, 1, 1)
        assert card_set.release_precision == "year"
        assert card_set.official_size is None
        assert "recharge.md" in card_set.source
        assert not card_set.printings.exists()
    assert sets["rc-inaugural"].name_en == "Inaugural edition"
    assert sets["rc-series-2"].name_en == "Series 2"


def test_the_recharge_demo_set_has_eighty_cards_over_all_colours_and_special_cards() -> None:
    cards = demo_cards(RC)
    assert len(cards) >= 80
    assert {c.card_type for c in cards} == {"hero", "teamwork", "power"}
    assert all(c.name_en and c.name_ja for c in cards)
    edges = [c.attributes[side] for c in cards for side in ("left", "right")]
    assert {colour for e in edges for colour in e} == {code for code, _label in COLOURS}
    assert sum(len(e) == 2 for e in edges) >= 10
    assert sum(bool(c.attributes.get("special")) for c in cards) >= 3


def test_recharge_demo_powers_stay_in_plausible_ranges() -> None:
    for card in demo_cards(RC):
        a = card.attributes
        if card.card_type == "hero":
            assert 10 <= a["power"] <= 60, card.code
        elif card.card_type == "teamwork":
            assert 5 <= a["power"] <= 30, card.code
        else:
            assert 5 <= a["left_power"] <= 40 and 5 <= a["right_power"] <= 40, card.code


def test_ten_recharge_demo_cards_also_have_a_power_plus_printing_with_its_own_number() -> None:
    plus = Printing.objects.filter(card__game__slug=RC, card__is_demo=True, variant=POWER_PLUS)
    assert plus.count() >= 10
    for printing in plus.select_related("card"):
        normal = printing.card.printings.exclude(pk=printing.pk)
        assert normal.count() == 1
        assert normal.get().variant == ""
        assert normal.get().collector_number != printing.collector_number


def test_every_recharge_demo_prebuilt_has_fifty_different_cards_under_basic_rules() -> None:
    products = demo_prebuilts(RC)
    assert products
    for product in products:
        items = list(product.items.all())
        assert {item.zone for item in items} == {"main"}, product.code
        assert sum(item.quantity for item in items) == 50, product.code
        # all different; a card and its Power Plus version count as the same card
        per_card = Counter(item.printing.card_id for item in items)
        assert len(per_card) == 50 and max(per_card.values()) == 1, product.code
        assert sum(item.printing.card.card_type == "hero" for item in items) >= 10
        assert product.card_count == 50


def test_every_demo_row_is_marked_demo_and_every_real_set_is_not() -> None:
    for game, real_sets in ((MH, set(MH_REAL_SETS)), (RC, RC_REAL_SETS)):
        sets = CardSet.objects.filter(game__slug=game)
        assert {s.code for s in sets if not s.is_demo} == real_sets
        demo_sets = [s for s in sets if s.is_demo]
        assert len(demo_sets) == 1
        # every card of the file is a demo card, printed only in the demo set
        assert not Card.objects.filter(game__slug=game, is_demo=False).exists()
        assert (
            not Printing.objects.filter(card__game__slug=game)
            .exclude(card_set=demo_sets[0])
            .exists()
        )
        # products: the demo ones are the demo set's, and hold demo cards only
        for product in Product.objects.filter(game__slug=game):
            assert product.is_demo == (product.card_set_id == demo_sets[0].pk), product.code
        assert not ProductItem.objects.filter(
            product__game__slug=game, printing__card__is_demo=False
        ).exists()
