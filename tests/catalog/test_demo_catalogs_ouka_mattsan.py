"""The committed 央華封神 and Mattsan catalog files: real releases as facts, demo cards as demo.

Rules: shared/rules/ouka-fushin.md (releases, card types, deck construction lines 34-40) and
shared/rules/mattsan.md (deck of exactly 30, at most 3 copies unless the card says otherwise,
lines 8-11).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

from catalog.importers.service import catalog_import_path
from catalog.importers.write import ImportReport
from catalog.models import Card, CardSet, Printing, Product
from games.ouka_fushin.catalog import SCHOOLS, STORY_KINDS

GAMES = Path(__file__).resolve().parents[2] / "games"
OUKA = GAMES / "ouka_fushin" / "catalog.json"
MATTSAN = GAMES / "mattsan" / "catalog.json"

ABILITY_KEYS = [
    f"{ability}_{level}"
    for level in (1, 2, 3)
    for ability in ("combat", "exploration", "negotiation")
]


@pytest.fixture
def loaded(db: None) -> list[ImportReport]:
    return [catalog_import_path(OUKA), catalog_import_path(MATTSAN)]


def demo_cards(game: str, card_type: str | None = None) -> list[Card]:
    cards = Card.objects.filter(game__slug=game, printings__card_set__is_demo=True).distinct()
    if card_type:
        cards = cards.filter(card_type=card_type)
    return list(cards.order_by("code"))


def zones(product: Product) -> dict[str, Counter[Card]]:
    """Copies of each card per zone, counted from the product's items."""
    found: dict[str, Counter[Card]] = defaultdict(Counter)
    for item in product.items.select_related("printing__card"):
        found[item.zone][item.printing.card] += item.quantity
    return found


def demo_decks(game: str) -> list[Product]:
    return list(
        Product.objects.filter(
            game__slug=game, is_demo=True, kind__in=["prebuilt", "starter"]
        ).order_by("code")
    )


# --- real releases -------------------------------------------------------------------------


def test_the_real_ouka_fushin_sets_carry_their_published_dates_and_sizes(loaded) -> None:
    sets = {s.code: s for s in CardSet.objects.filter(game__slug="ouka-fushin", is_demo=False)}
    facts = {
        (s.name_ja, s.kind, s.released, s.official_size, s.release_precision) for s in sets.values()
    }
    assert facts == {
        ("基本セット", "base", "1998-09", 281, "month"),
        ("覇王の進撃", "expansion", "1999-03", 175, "month"),
        ("五王列記", "prebuilt", "1999-12", None, "month"),
    }
    assert all(s.source and "001_c69c72f9df20aae7" in s.source for s in sets.values())
    assert not Printing.objects.filter(card_set__in=sets.values()).exists()


def test_the_real_ouka_fushin_products_have_counts_and_prices_but_no_contents(loaded) -> None:
    products = Product.objects.filter(game__slug="ouka-fushin", is_demo=False)
    facts = {(p.card_set.name_ja, p.kind, p.card_count, p.price_yen) for p in products}
    assert facts == {
        ("基本セット", "starter", 61, 1300),
        ("基本セット", "booster", 14, 400),
        ("覇王の進撃", "booster", 14, 400),
        ("五王列記", "prebuilt", 59, 2000),
    }
    assert all(p.release_date == p.card_set.release_date for p in products)
    assert not any(p.items.exists() for p in products)


def test_the_mattsan_first_release_and_its_booster_are_real_and_empty(loaded) -> None:
    first = CardSet.objects.get(game__slug="mattsan", is_demo=False)
    assert (first.name_en, first.name_ja, first.kind) == ("First release", "第1弾", "base")
    assert (first.released, first.official_size) == ("2019", 108)
    assert "004_d6075dcb598397a4" in first.source
    booster = Product.objects.get(game__slug="mattsan", is_demo=False)
    assert (booster.kind, booster.card_set, booster.card_count) == ("booster", first, 10)
    assert not booster.items.exists()
    assert not first.printings.exists()


# --- demo flags ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["ouka-fushin", "mattsan"])
def test_every_invented_row_is_flagged_demo_and_every_real_row_is_not(loaded, game) -> None:
    demo_sets = CardSet.objects.filter(game__slug=game, is_demo=True)
    assert demo_sets.count() == 1
    assert CardSet.objects.filter(game__slug=game, is_demo=False).exists()
    cards = Card.objects.filter(game__slug=game)
    assert cards.exists()
    assert not cards.filter(is_demo=False).exists()
    assert (
        not Printing.objects.filter(card__game__slug=game).exclude(card_set__in=demo_sets).exists()
    )
    for product in Product.objects.filter(game__slug=game):
        assert product.is_demo == product.items.exists() == product.card_set.is_demo
    assert demo_decks(game)


def test_importing_the_files_again_changes_nothing(loaded) -> None:
    again = [catalog_import_path(OUKA), catalog_import_path(MATTSAN)]
    for report in again:
        assert not report.created
        assert not report.updated
        assert sum(report.unchanged.values()) > 0


# --- 央華封神 demo set ---------------------------------------------------------------------


def test_the_ouka_fushin_demo_set_has_at_least_eighty_cards_of_every_type(loaded) -> None:
    cards = demo_cards("ouka-fushin")
    assert len(cards) >= 80
    assert {c.card_type for c in cards} == {
        "protagonist",
        "mission",
        "character",
        "story",
        "climax",
    }


def test_at_least_four_protagonists_have_all_nine_abilities_and_can_grow(loaded) -> None:
    protagonists = demo_cards("ouka-fushin", "protagonist")
    assert len(protagonists) >= 4
    characters = demo_cards("ouka-fushin", "character")
    for protagonist in protagonists:
        attrs = protagonist.attributes
        assert all(0 <= attrs[key] <= 9 for key in ABILITY_KEYS), protagonist.code
        growth = {
            c.attributes["destiny"]
            for c in characters
            if c.attributes["character"] == attrs["character"]
            and c.attributes["school"] == attrs["school"]
        }
        assert {2, 3} <= growth, protagonist.code
    assert len({p.attributes["character"] for p in protagonists}) == len(protagonists)


def test_all_eight_schools_have_one_character_at_destiny_one_two_and_three(loaded) -> None:
    levels: dict[tuple[str, str], set[int]] = defaultdict(set)
    for card in demo_cards("ouka-fushin", "character"):
        attrs = card.attributes
        levels[(attrs["school"], attrs["character"])].add(attrs["destiny"])
    full = {school for (school, _name), found in levels.items() if found == {1, 2, 3}}
    assert full == {code for code, _label in SCHOOLS}


def test_stories_come_in_all_four_kinds_with_keywords_checks_and_prerequisites(loaded) -> None:
    stories = [c.attributes for c in demo_cards("ouka-fushin", "story")]
    assert {s["story_kind"] for s in stories} == {code for code, _label in STORY_KINDS}
    assert all(s["keywords"] for s in stories)
    assert any(s.get("prerequisites") for s in stories)
    checked = [s for s in stories if "target" in s]
    assert checked
    assert all(s["ability"] and s["points"] >= 0 for s in checked)
    assert {s["ability"] for s in checked} >= {"combat", "exploration", "negotiation"}
    keywords = {k for s in stories for k in s["keywords"]}
    assert all(p in keywords for s in stories for p in s.get("prerequisites", []))


def test_at_least_eight_climaxes_need_keywords_that_stories_provide(loaded) -> None:
    keywords = {k for c in demo_cards("ouka-fushin", "story") for k in c.attributes["keywords"]}
    climaxes = [c.attributes for c in demo_cards("ouka-fushin", "climax")]
    assert len(climaxes) >= 8
    for climax in climaxes:
        assert climax["conditions"]
        assert set(climax["conditions"]) <= keywords
        assert climax["bonus"] > 0
        assert climax["climax_type"]
    assert any("extra_bonus" in c for c in climaxes)


def test_at_least_six_missions_ask_for_climax_types_that_exist(loaded) -> None:
    types = {c.attributes["climax_type"] for c in demo_cards("ouka-fushin", "climax")}
    missions = [m.attributes for m in demo_cards("ouka-fushin", "mission")]
    assert len(missions) >= 6
    for mission in missions:
        assert mission["climax_types"]
        assert set(mission["climax_types"]) <= types
        assert mission["bonus"] > 0


def test_the_ouka_fushin_demo_prebuilt_decks_follow_the_construction_rules(loaded) -> None:
    for product in demo_decks("ouka-fushin"):
        found = zones(product)
        assert set(found) == {"main", "protagonist", "missions", "substitute", "spares"}
        main = found["main"]
        assert sum(main.values()) >= 40
        # an invented product has no publisher to state a count ("57 / 47" confused players)
        assert product.card_count is None
        assert max(main.values()) <= 3
        assert {c.card_type for c in main} <= {"character", "story", "climax"}

        (protagonist,) = found["protagonist"].elements()
        (substitute,) = found["substitute"].elements()
        assert protagonist.card_type == substitute.card_type == "protagonist"
        assert protagonist.attributes["character"] != substitute.attributes["character"]

        missions = list(found["missions"].elements())
        assert len(missions) == 2 == len(set(missions))
        assert all(m.card_type == "mission" for m in missions)

        spares = found["spares"]
        assert spares
        assert all(c.card_type == "character" for c in spares)
        assert {c.attributes["character"] for c in spares} == {substitute.attributes["character"]}


# --- Mattsan demo set ----------------------------------------------------------------------


def test_the_mattsan_demo_set_has_at_least_45_cards_of_all_four_types(loaded) -> None:
    cards = demo_cards("mattsan")
    assert len(cards) >= 45
    by_type: dict[str, list[dict]] = defaultdict(list)
    for card in cards:
        by_type[card.card_type].append(card.attributes)
    assert set(by_type) == {"unit", "trump", "trap", "terrain"}
    assert all(u["hp"] >= 1 and "soul" in u for u in by_type["unit"])
    assert any(u.get("family") for u in by_type["unit"])
    assert any(not u.get("family") for u in by_type["unit"])
    assert all("cost" in t for t in by_type["trump"])
    assert {t.get("sideways", False) for t in by_type["terrain"]} == {True, False}


def test_every_mattsan_demo_printing_has_a_rarity_from_one_to_five(loaded) -> None:
    printings = Printing.objects.filter(card__game__slug="mattsan", card_set__is_demo=True)
    rarities = [p.attributes["rarity"] for p in printings]
    assert len(rarities) == len(demo_cards("mattsan"))
    assert set(rarities) == {1, 2, 3, 4, 5}


def test_a_mattsan_card_may_be_played_more_than_three_times_by_its_own_rule(loaded) -> None:
    overrides = Card.objects.filter(game__slug="mattsan", copy_limit__gt=3)
    assert overrides.exists()
    assert not Card.objects.filter(game__slug="ouka-fushin", copy_limit__isnull=False).exists()


def test_the_mattsan_demo_decks_hold_exactly_30_cards_within_their_copy_limits(loaded) -> None:
    for product in demo_decks("mattsan"):
        found = zones(product)
        assert set(found) == {"main"}
        main = found["main"]
        assert sum(main.values()) == 30 == product.card_count
        for card, copies in main.items():
            assert copies <= (card.copy_limit or 3), card.code
        assert any(copies > 3 for copies in main.values())
