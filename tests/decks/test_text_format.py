"""The DeckLab text format: every syntax, every bad line reported, exact round trips."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command

from catalog.models import Card, CardSet, Game, Printing, Product
from decks import errors as deck_errors
from decks.game_rules import deck_rules
from decks.imports import errors
from decks.imports.errors import DeckImportError
from decks.imports.service import deck_export, deck_import, deck_import_into
from decks.imports.text import ParsedDeck, Zones, export_deck_text, parse_deck_text
from decks.models import Deck, DeckEntry, DeckRevision
from decks.services import deck_from_product, deck_update

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def catalog(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The project's committed catalogs, loaded once for this module (1-2 s each time)."""
    with django_db_blocker.unblock():
        games_before = set(Game.objects.values_list("pk", flat=True))
        call_command("load_catalogs", stdout=io.StringIO())
    yield
    with django_db_blocker.unblock():
        # committed outside the tests' transactions, so removed by hand for the next module
        for model in (Product, Card, CardSet):
            model.objects.all().delete()
        Game.objects.exclude(pk__in=games_before).delete()


@pytest.fixture(autouse=True)
def _catalog(catalog: None, db: None) -> None:
    """Every test here reads the catalog."""


def parse(text: str, game: str = "recharge", user: Any = None) -> ParsedDeck:
    return parse_deck_text(text, game=Game.objects.get(slug=game), user=user)


def listed(parsed: ParsedDeck) -> list[tuple[str, str, str, int]]:
    """(zone, card code, printing as "set/number/variant" or "", quantity), sorted."""
    return sorted(
        (
            e.zone,
            e.card.code,
            f"{e.printing.card_set.code}/{e.printing.collector_number}/{e.printing.variant}"
            if e.printing
            else "",
            e.quantity,
        )
        for e in parsed.entries
    )


def entries_of(deck: Deck) -> list[tuple[str, str, int | None, int]]:
    return sorted(
        (e.zone, e.card.code, e.printing_id, e.quantity)
        for e in DeckEntry.objects.filter(deck=deck).select_related("card")
    )


def problems_by_line(parsed: ParsedDeck) -> dict[int, str]:
    return {p.line: p.code for p in parsed.problems}


def row_counts() -> tuple[int, ...]:
    return tuple(
        m.objects.count() for m in (Deck, DeckEntry, DeckRevision, Card, CardSet, Printing)
    )


def product(code: str) -> Product:
    return Product.objects.get(code=code)


# --- reading ---------------------------------------------------------------------------------


def test_it_reads_quantities_and_names_into_the_deck_zone() -> None:
    parsed = parse("3 Reedskipper\n2x Wandering Hunter Ren", game="monster-hunter")
    assert parsed.ok, parsed.problems
    zones = {e.card.name_en: (e.zone, e.quantity) for e in parsed.entries}
    assert zones["Wandering Hunter Ren"] == ("hunter", 2)
    assert all(zone == "main" for name, (zone, _n) in zones.items() if "Hunter" not in name)


def test_it_reads_english_names_case_and_width_insensitively() -> None:
    parsed = parse("1 captain MERIDIAN\n１ Ｓｉｌｖｅｒ Ｋｅｓｔｒｅｌ")
    assert parsed.ok, parsed.problems
    assert listed(parsed) == [("main", "RCD-001", "", 1), ("main", "RCD-002", "", 1)]


def test_it_reads_japanese_names_in_full_and_half_width_kana() -> None:
    parsed = parse("1 キャプテン・メリディアン\n1 ｼﾙﾊﾞｰ・ｹｽﾄﾚﾙ\n1 どくたー・あんぶらる")
    assert parsed.ok, parsed.problems
    assert [c for _z, c, _p, _q in listed(parsed)] == ["RCD-001", "RCD-002", "RCD-003"]


def test_it_reads_a_card_by_its_code_after_the_quantity() -> None:
    parsed = parse("1 #RCD-002\n1 #rcd-003 (rc-demo) 003PP")
    assert parsed.ok, parsed.problems
    assert listed(parsed) == [
        ("main", "RCD-002", "", 1),
        ("main", "RCD-003", "rc-demo/003PP/power-plus", 1),
    ]


def test_it_pins_a_power_plus_printing_by_set_and_number() -> None:
    parsed = parse("1 Captain Meridian (rc-demo) 001PP\n1 Doctor Umbral (RC-DEMO) 003")
    assert parsed.ok, parsed.problems
    assert listed(parsed) == [
        ("main", "RCD-001", "rc-demo/001PP/power-plus", 1),
        ("main", "RCD-003", "rc-demo/003/", 1),
    ]


def test_it_pins_a_power_plus_printing_by_its_variant_code_or_label() -> None:
    parsed = parse("1 Captain Meridian [power-plus]\n1 Doctor Umbral [Power Plus]")
    assert parsed.ok, parsed.problems
    assert listed(parsed) == [
        ("main", "RCD-001", "rc-demo/001PP/power-plus", 1),
        ("main", "RCD-003", "rc-demo/003PP/power-plus", 1),
    ]


def test_a_set_without_number_or_variant_means_the_plain_printing() -> None:
    parsed = parse("1 Captain Meridian (rc-demo)")
    assert listed(parsed) == [("main", "RCD-001", "rc-demo/001/", 1)]


def test_zone_headers_are_read_in_english_japanese_and_as_markdown() -> None:
    for header in ("Hunter:", "hunter", "HUNTER", "ハンター", "ハンター：", "## hunter"):
        parsed = parse(
            f"Main deck (40):\n3 Reedskipper\n{header}\n1 Wandering Hunter Ren", "monster-hunter"
        )
        assert parsed.ok, (header, parsed.problems)
        zones = {e.card.name_en: e.zone for e in parsed.entries}
        assert zones == {"Reedskipper": "main", "Wandering Hunter Ren": "hunter"}, header


def test_deck_and_main_name_the_deck_zone_of_every_game() -> None:
    parsed = parse("Deck\n3 Feint\nデッキ\n1 Skirmish", game="unmatched")
    assert parsed.ok, parsed.problems
    assert {e.zone for e in parsed.entries} == {"deck"}
    parsed = parse("main:\n1 Captain Meridian\nメイン\n1 Silver Kestrel")
    assert {e.zone for e in parsed.entries} == {"main"}


def test_ouka_fushin_zones_are_read_by_code_and_by_japanese_name() -> None:
    text = "主人公\n1 #OFD-001\n## substitute\n1 #OFD-004\n使命:\n1 #OFD-006\n1 #OFD-008"
    parsed = parse(text, game="ouka-fushin")
    assert parsed.ok, parsed.problems
    assert [(z, c) for z, c, _p, _q in listed(parsed)] == [
        ("missions", "OFD-006"),
        ("missions", "OFD-008"),
        ("protagonist", "OFD-001"),
        ("substitute", "OFD-004"),
    ]


def test_a_zone_alias_is_read_from_the_zone_the_game_declares() -> None:
    rules = deck_rules("monster-hunter")
    hunter = next(zone for zone in rules.zones if zone.code == "hunter")
    assert "ハンターカード" in hunter.aliases
    assert Zones(rules).find("ハンターカード") == "hunter"
    # the same code declared without aliases reads by its code and label only: the words
    # belong to the game's zone, not to the code
    bare = replace(rules, zones=(rules.zones[0], replace(hunter, aliases=())))
    assert Zones(bare).find("hunter") == "hunter"
    assert Zones(bare).find("ハンターカード") is None


def test_another_games_zone_alias_is_not_a_zone_of_this_game() -> None:
    assert Zones(deck_rules("ouka-fushin")).find("主人公") == "protagonist"
    assert Zones(deck_rules("monster-hunter")).find("主人公") is None
    parsed = parse("## 主人公\n1 Wandering Hunter Ren", "monster-hunter")
    assert [p.code for p in parsed.problems] == ["zone"]


def test_comments_and_blank_lines_are_ignored_but_a_code_after_a_number_is_a_card() -> None:
    parsed = parse("# my deck\n// a note\n\n   \n1 #RCD-002\n#RCD-003\n")
    assert parsed.ok, parsed.problems
    assert listed(parsed) == [("main", "RCD-002", "", 1)]


def test_identical_lines_are_merged_into_one_entry() -> None:
    parsed = parse("2 Feint\n1 feint\nDeck:\n1 Feint", game="unmatched")
    assert parsed.ok, parsed.problems
    assert [(e.card.name_en, e.quantity) for e in parsed.entries] == [("Feint", 4)]


def test_metadata_lines_give_the_name_game_and_rules_variant() -> None:
    text = "name: Heroes: Reloaded\ngame: Marvel Recharge\nrules: tournament\n\n1 Captain Meridian"
    parsed = parse(text)
    assert parsed.ok, parsed.problems
    assert (parsed.name, parsed.variant) == ("Heroes: Reloaded", "tournament")
    assert parse("rules: Basic rules\ngame: recharge").variant == "basic"


def test_recharge_chips_are_read_as_values() -> None:
    assert parse("chips: 5 5 5 4 4").extras == {"chips": [5, 5, 5, 4, 4]}
    assert parse("chips: 5, 5, 4").extras == {"chips": [5, 5, 4]}


def test_recharge_chips_are_read_as_value_times_count() -> None:
    parsed = parse("chips: 5x5, 4x6, 3×5")
    assert parsed.extras == {"chips": [5] * 5 + [4] * 6 + [3] * 5}
    assert sum(parsed.extras["chips"]) == 64
    assert parse("チップ: 5 x 2, 1").extras == {"chips": [5, 5, 1]}


# --- bad lines ---------------------------------------------------------------------------------

BAD_LIST = """name: Broken
chips: 5x5, five
1 Captain Meridan
0 Silver Kestrel
100 Doctor Umbral
x Static Queen

Sideboard
1 Halcyon
"""


def test_every_bad_line_is_reported_with_its_number() -> None:
    parsed = parse(BAD_LIST)
    assert problems_by_line(parsed) == {
        2: "chips",
        3: "unknown-card",
        4: "quantity",
        5: "quantity",
        6: "quantity",
        8: "zone",
    }
    texts = {p.line: p.text for p in parsed.problems}
    assert texts[3] == "1 Captain Meridan"


def test_an_unknown_card_gets_a_did_you_mean() -> None:
    (problem,) = parse("1 Captain Meridan").problems
    assert problem.line == 1
    assert "Did you mean “Captain Meridian”?" in problem.message


def test_an_unknown_japanese_name_gets_a_did_you_mean_in_japanese() -> None:
    (problem,) = parse("1 キャプテン・メリディン").problems
    assert "キャプテン・メリディアン" in problem.message


def test_quantities_0_100_and_x_are_refused() -> None:
    for text in ("0 Feint", "100 Feint", "x Feint", "-1 Feint", "1.5 Feint"):
        (problem,) = parse(text, game="unmatched").problems
        assert (problem.line, problem.code) == (1, "quantity"), text
        assert problem.message == str(errors.BAD_QUANTITY % {"quantity": text.split()[0]}), text


def test_a_quantity_without_a_card_says_the_name_is_missing() -> None:
    (problem,) = parse("3").problems
    assert (problem.line, problem.code, problem.message) == (1, "card", str(errors.EMPTY_NAME))


def test_sideboard_is_not_a_zone_and_the_games_zones_are_named() -> None:
    (problem,) = parse("4 Reedskipper\nSIDEBOARD:\n1 Reedskipper", "monster-hunter").problems
    assert (problem.line, problem.code) == (2, "zone")
    assert "its zones are main deck, hunter." in problem.message


def test_a_zone_problem_names_the_game_and_zones_in_japanese_for_a_japanese_reader() -> None:
    from django.utils import translation

    with translation.override("ja"):
        problems = parse("## huntr\n1 Feint", "unmatched").problems
    (problem,) = [p for p in problems if p.code == "zone"]
    assert "Unmatched" not in problem.message and "アンマッチ" in problem.message
    assert "hero" not in problem.message and "deck," not in problem.message


def test_a_misspelt_zone_gets_a_did_you_mean() -> None:
    (problem,) = parse("## huntr\n1 Wandering Hunter Ren", "monster-hunter").problems
    assert "Did you mean “hunter”?" in problem.message


def test_a_card_line_without_a_quantity_says_how_to_write_it() -> None:
    (problem,) = parse("Captain Meridian").problems
    assert problem.message == str(errors.MISSING_QUANTITY % {"name": "Captain Meridian"})


def test_malformed_chips_are_reported() -> None:
    for value in ("5 five", "5x", "0", "5x0", "x5"):
        (problem,) = parse(f"chips: {value}").problems
        assert (problem.line, problem.code) == (1, "chips"), value


def test_chips_for_a_game_without_chips_are_reported() -> None:
    (problem,) = parse("chips: 5 5", game="mattsan").problems
    assert problem.code == "chips"


def test_a_list_for_another_game_is_reported() -> None:
    (problem,) = parse("game: unmatched\n1 Captain Meridian").problems
    assert (problem.line, problem.code) == (1, "game")


def test_an_unknown_rules_variant_is_reported() -> None:
    (problem,) = parse("rules: casual").problems
    assert "basic, tournament" in problem.message


def test_an_unknown_printing_variant_gets_a_did_you_mean() -> None:
    (problem,) = parse("1 Captain Meridian [power-pluss]").problems
    assert "Did you mean “power-plus”?" in problem.message


def test_a_printing_that_does_not_exist_lists_the_cards_printings() -> None:
    (problem,) = parse("1 Silver Kestrel (rc-demo) 002PP").problems
    assert problem.code == "printing"
    assert "(rc-demo) 002" in problem.message


def test_an_unknown_code_gets_a_did_you_mean() -> None:
    (problem,) = parse("1 #RCD-0011").problems
    assert (problem.code, "#RCD-011" in problem.message) == ("unknown-card", True)


def test_a_card_whose_two_names_fold_alike_is_not_ambiguous() -> None:
    recharge = Game.objects.get(slug="recharge")
    Card.objects.create(
        game=recharge, code="ZED", card_type="hero", name_en="Zed", name_ja="ＺＥＤ"
    )
    parsed = parse("1 zed")
    assert [e.card.code for e in parsed.entries] == ["ZED"], parsed.problems


def test_a_shared_name_must_be_written_as_a_code_or_pinned() -> None:
    (problem,) = parse("1 Eat Me", game="unmatched").problems
    assert problem.code == "ambiguous-card"
    assert "#eat-me-alice" in problem.message and "#eat-me-deadpool" in problem.message
    parsed = parse("1 #eat-me-alice\n1 Eat Me (deadpool) deadpool", game="unmatched")
    assert parsed.ok, parsed.problems
    assert {e.card.code for e in parsed.entries} == {"eat-me-alice", "eat-me-deadpool"}


def test_more_than_99_copies_after_merging_are_refused() -> None:
    (problem,) = parse("60 Feint\n40 Feint", game="unmatched").problems
    assert (problem.line, problem.code) == (2, "quantity")


def test_a_list_over_100_kb_is_refused_whole() -> None:
    (problem,) = parse("// " + "x" * 100 * 1024).problems
    assert (problem.line, problem.code) == (0, "size")


def test_at_most_500_card_lines_are_read() -> None:
    names = Card.objects.filter(game__slug="unmatched", owner=None).values_list("code", flat=True)
    text = "\n".join(f"1 #{code}" for code in list(names)[:501])
    (problem,) = parse(text, game="unmatched").problems
    assert (problem.line, problem.code) == (501, "lines")


def test_the_cards_are_found_in_a_fixed_number_of_queries(
    django_assert_max_num_queries: Any,
) -> None:
    codes = list(Card.objects.filter(game__slug="unmatched").values_list("code", flat=True)[:300])
    text = "## deck\n" + "\n".join(f"1 #{code} (nowhere) 1" for code in codes)
    game = Game.objects.get(slug="unmatched")
    with django_assert_max_num_queries(3):
        parsed = parse_deck_text(text, game=game)
    assert len(parsed.problems) == 300


def test_nothing_is_saved_when_any_line_is_bad(owner: Any) -> None:
    before = row_counts()
    game = Game.objects.get(slug="recharge")
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=game, text=BAD_LIST)
    assert [p.line for p in refused.value.problems] == [2, 3, 4, 5, 6, 8]
    assert row_counts() == before


# --- importing ---------------------------------------------------------------------------------


def test_an_import_saves_the_deck_with_its_name_rules_and_chips(owner: Any) -> None:
    text = (
        "name: Mine\nrules: tournament\nchips: 5x10, 4x3\n"
        "1 Captain Meridian\n1 Captain Meridian [power-plus]"
    )
    deck = deck_import(owner=owner, game=Game.objects.get(slug="recharge"), text=text)
    assert (deck.name, deck.variant, deck.extras) == (
        "Mine",
        "tournament",
        {"chips": [5] * 10 + [4] * 3},
    )
    assert deck.card_count == 2
    assert DeckRevision.objects.filter(deck=deck).count() == 1


def test_an_import_without_a_name_gets_one(owner: Any) -> None:
    deck = deck_import(owner=owner, game=Game.objects.get(slug="recharge"), text="1 Halcyon")
    assert deck.name == "Imported deck"
    named = deck_import(owner=owner, game=deck.game, text="1 Halcyon", name="Given")
    assert named.name == "Given"


def test_an_empty_list_is_refused(owner: Any) -> None:
    with pytest.raises(DeckImportError):
        deck_import(owner=owner, game=Game.objects.get(slug="recharge"), text="  \n")


def test_importing_into_a_deck_replaces_its_list_as_a_new_revision(owner: Any) -> None:
    deck = deck_from_product(product=product("MTD-ST1"), user=owner)
    deck = deck_import_into(
        deck=deck, user=owner, expected_version=deck.version, text="name: Tiny\n3 #MTD-001"
    )
    assert deck.name == "Tiny"
    assert [(c, q) for _z, c, _p, q in entries_of(deck)] == [("MTD-001", 3)]
    assert DeckRevision.objects.filter(deck=deck).count() == 2


def test_importing_into_a_deck_with_a_stale_version_changes_nothing(owner: Any) -> None:
    deck = deck_from_product(product=product("MTD-ST1"), user=owner)
    before = entries_of(deck)
    with pytest.raises(deck_errors.StaleDeckError):
        deck_import_into(
            deck=deck, user=owner, expected_version=deck.version - 1, text="3 #MTD-001"
        )
    assert entries_of(deck) == before


def test_only_the_owner_can_import_into_a_deck(owner: Any, stranger: Any) -> None:
    deck = deck_from_product(product=product("MTD-ST1"), user=owner)
    with pytest.raises(deck_errors.DeckError):
        deck_import_into(deck=deck, user=stranger, expected_version=deck.version, text="3 #MTD-001")


# --- exporting and the round trip ------------------------------------------------------------

DEMO_DECKS = [
    ("mattsan", "MTD-ST1"),
    ("monster-hunter", "mh-demo-ember-hunt"),
    ("ouka-fushin", "OFD-PB1"),
    ("recharge", "rc-demo-heroes-united"),
    ("unmatched", "alice"),
]


@pytest.mark.parametrize(("game", "code"), DEMO_DECKS)
def test_export_then_import_gives_back_the_same_deck(owner: Any, game: str, code: str) -> None:
    deck = deck_from_product(product=Product.objects.get(game__slug=game, code=code), user=owner)
    text = deck_export(deck=deck, fmt="text")
    assert isinstance(text, str)
    again = deck_import(owner=owner, game=deck.game, text=text)
    assert entries_of(again) == entries_of(deck)
    assert (again.name, again.variant, again.extras) == (deck.name, deck.variant, deck.extras)


def test_a_recharge_deck_keeps_its_rules_chips_and_power_plus_printings(owner: Any) -> None:
    deck = deck_from_product(product=product("rc-demo-heroes-united"), user=owner)
    chips = [5, 5, 4, 5, 3, 3, 3, 2, 5, 5, 5, 4, 4, 4, 1]
    deck = deck_update(
        deck=deck,
        user=owner,
        expected_version=deck.version,
        variant="tournament",
        extras={"chips": chips},
    )
    text = export_deck_text(deck)
    assert "rules: tournament" in text
    assert "chips: 5x2, 4, 5, 3x3, 2, 5x3, 4x3, 1" in text
    assert "1 Captain Meridian (rc-demo) 001PP [power-plus]" in text
    again = deck_import(owner=owner, game=deck.game, text=text)
    assert (again.variant, again.extras) == ("tournament", {"chips": chips})
    assert entries_of(again) == entries_of(deck)


def test_a_shared_name_is_exported_as_the_cards_code(owner: Any) -> None:
    deck = deck_from_product(product=product("alice"), user=owner)
    text = export_deck_text(deck)
    assert "#eat-me-alice (battle-of-legends-volume-one) alice" in text
    assert "\n## hero\n1 Alice (battle-of-legends-volume-one) alice\n" in text


def test_export_then_import_into_the_same_deck_changes_nothing_but_the_version(owner: Any) -> None:
    deck = deck_from_product(product=product("OFD-PB1"), user=owner)
    before = entries_of(deck)
    deck = deck_import_into(
        deck=deck, user=owner, expected_version=deck.version, text=export_deck_text(deck)
    )
    assert entries_of(deck) == before
    latest = DeckRevision.objects.filter(deck=deck).order_by("-number").first()
    assert latest is not None and latest.number == 2
