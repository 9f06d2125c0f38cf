"""The Unmatched importer: unmatched.cards deck JSON and the shared/data/unmatched folder.

Facts only (names, numbers, types, quantities); all or nothing; every problem with its file
and JSON path. The real-folder tests read ../shared/data/unmatched and skip without it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from catalog.importers.bundle import CatalogImportError
from catalog.importers.service import catalog_import_path, catalog_import_text
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
from games.unmatched.catalog_format import (
    SHARED_SOURCE,
    SqlSyntaxError,
    bundle_from_unmatched_deck,
    code_for,
    sql_insert_rows,
)

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "unmatched"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data/unmatched")

# decks whose published lists do not total 30 action cards (the source's data, kept as is)
ODD_DECKS = {"black-widow": 31, "buffy": 35, "daredevil": 22, "elektra": 20, "geralt-of-rivia": 36}
PROSE = ("PROSE-ABILITY", "PROSE-QUOTE", "PROSE-TEXT", "https://", "example.invalid")


def deck(deck_id: str = "tester", **changes: Any) -> dict[str, Any]:
    """A small, valid deck in the unmatched.cards shape, with prose where the real ones have it."""
    data: dict[str, Any] = {
        "id": deck_id,
        "version": 1,
        "set": "Test Box",
        "released": "2021-03-01",
        "hero": {
            "name": "Tester",
            "hp": 15,
            "move": 2,
            "isRanged": False,
            "specialAbility": "PROSE-ABILITY: deal 1 damage.",
            "quantity": 1,
        },
        "sidekick": {
            "name": "Helpers",
            "hp": None,
            "move": 2,
            "quantity": 2,
            "isRanged": True,
            "quote": "PROSE-QUOTE",
        },
        "cards": [
            card("Test Strike", "attack", "Tester", 4, boost=2, quantity=3),
            card("Test Block", "defense", "Any", 3, boost=1, quantity=2),
            card("Test Plan", "scheme", "Helper", None, boost=3, quantity=1),
        ],
    }
    data.update(changes)
    return data


def card(
    title: str, kind: str, fighter: str, value: Any, *, boost: Any = 1, quantity: Any = 1
) -> dict[str, Any]:
    return {
        "title": title,
        "type": kind,
        "characterName": fighter,
        "value": value,
        "boost": boost,
        "quantity": quantity,
        "imageUrl": "https://example.invalid/card.png",
        "basicText": "PROSE-TEXT basic",
        "immediateText": "",
        "duringText": "PROSE-TEXT during",
        "afterText": "",
    }


def folder(tmp_path: Path, decks: dict[str, Any], sets_sql: str | None = None) -> Path:
    """A folder shaped like shared/data/unmatched; a deck given as text is written as is."""
    (tmp_path / "decks").mkdir()
    for name, data in decks.items():
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        (tmp_path / "decks" / name).write_text(text, encoding="utf-8")
    if sets_sql is not None:
        (tmp_path / "V2__insert.sql").write_text(sets_sql, encoding="utf-8")
    return tmp_path


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Game, CardSet, Card, Printing, Product, ProductItem))


def product_lines(code: str) -> dict[tuple[str, str], tuple[int, dict[str, Any]]]:
    """(zone, card code) -> (quantity, printing attributes) of one Unmatched product."""
    return {
        (item.zone, item.printing.card.code): (item.quantity, item.printing.attributes)
        for item in ProductItem.objects.filter(
            product__game__slug="unmatched", product__code=code
        ).select_related("printing__card")
    }


def problems_of(exc: pytest.ExceptionInfo[CatalogImportError]) -> list[str]:
    return [str(p) for p in exc.value.problems]


# --- the real folder ---------------------------------------------------------------------


@needs_shared
@pytest.mark.django_db
class TestTheSharedFolder:
    @pytest.fixture(autouse=True)
    def imported(self) -> None:
        catalog_import_path(SHARED)

    def test_it_imports_every_hero_deck_as_a_product(self) -> None:
        deck_ids = {p.stem for p in (SHARED / "decks").glob("*.json")}
        products = Product.objects.filter(game__slug="unmatched")
        assert len(deck_ids) == 59
        assert set(products.values_list("code", flat=True)) == deck_ids
        assert set(products.values_list("kind", flat=True)) == {"hero-deck"}
        for product in products:
            heroes = product.items.filter(zone="hero")
            assert [(i.printing.card.code, i.quantity) for i in heroes] == [
                (f"character-{product.code}", 1)
            ]

    def test_it_imports_every_set_of_the_sql_seed_with_its_release_day(self) -> None:
        sets = {s.code: s for s in CardSet.objects.filter(game__slug="unmatched")}
        assert len(sets) == 26
        assert {s.kind for s in sets.values()} == {"box"}
        assert sets["hells-kitchen"].name_en == "Hell's Kitchen"
        assert sets["battle-of-legends-volume-one"].released == "2019-09-01"
        # sets that have no card lists in the source exist too
        assert sets["hellboy"].released == "2026-11-01"
        assert not sets["hellboy"].printings.exists()
        assert {s.source for s in sets.values()} == {SHARED_SOURCE}

    def test_it_keeps_every_action_card_and_every_copy_of_each_deck(self) -> None:
        cards = Card.objects.filter(game__slug="unmatched")
        assert cards.filter(card_type="character").count() == 59
        # 644 titles in the deck JSON, and 'Eat Me' names two different cards
        assert cards.exclude(card_type="character").count() == 645
        for path in (SHARED / "decks").glob("*.json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            published = sum(c["quantity"] for c in data["cards"])
            imported = sum(q for (zone, _c), (q, _a) in product_lines(data["id"]).items())
            assert imported == published + 1, path.name  # + the character card
            assert published == ODD_DECKS.get(data["id"], 30), path.name

    def test_it_reads_heroes_hp_move_and_range_from_the_character_card(self) -> None:
        achilles = Card.objects.get(game__slug="unmatched", code="character-achilles")
        assert achilles.name_en == "Achilles"
        assert achilles.attributes == {
            "hp": 18,
            "move": 2,
            "ranged": False,
            "hero_count": 1,
            "sidekick": "Patroclus",
            "sidekick_hp": 6,
            "sidekick_move": 2,
            "sidekick_ranged": False,
            "sidekick_count": 1,
        }
        medusa = Card.objects.get(game__slug="unmatched", code="character-medusa").attributes
        assert (medusa["hp"], medusa["move"], medusa["ranged"]) == (16, 3, True)
        assert (medusa["sidekick"], medusa["sidekick_hp"], medusa["sidekick_count"]) == (
            "Harpy",
            1,
            3,
        )
        raptors = Card.objects.get(game__slug="unmatched", code="character-raptors").attributes
        assert raptors == {"hp": 7, "move": 3, "ranged": False, "hero_count": 3}

    def test_it_puts_each_cards_quantity_in_the_product_and_its_boost_on_the_printing(
        self,
    ) -> None:
        lines = product_lines("achilles")
        assert lines[("deck", "feint")] == (3, {"fighter": "any", "boost": 1})
        assert lines[("deck", "battle-frenzy")] == (2, {"fighter": "Patroclus", "boost": 2})
        frenzy = Card.objects.get(game__slug="unmatched", code="battle-frenzy")
        assert (frenzy.card_type, frenzy.attributes) == ("attack", {"value": 3})
        plan = Card.objects.get(game__slug="unmatched", code="a-momentary-glance")
        assert (plan.card_type, plan.attributes) == ("scheme", {})

    def test_a_card_in_several_decks_is_one_card_with_a_printing_per_deck(self) -> None:
        feint = Card.objects.get(game__slug="unmatched", code="feint")
        printings = {p.collector_number: p for p in feint.printings.select_related("card_set")}
        assert len(printings) == 33
        assert feint.attributes == {"value": 2}
        assert printings["achilles"].card_set.code == "battle-of-legends-volume-two"
        assert printings["medusa"].card_set.code == "battle-of-legends-volume-one"
        # the boost is printed per deck: Medusa's Feint boosts 2, Achilles' 1
        assert printings["medusa"].attributes == {"fighter": "any", "boost": 2}
        assert printings["achilles"].attributes["boost"] == 1

    def test_it_keeps_apart_cards_that_share_a_title_or_differ_by_an_icon(self) -> None:
        cards = Card.objects.filter(game__slug="unmatched")
        eat_me = {
            c.code: (c.name_en, c.card_type, c.attributes) for c in cards if "eat-me" in c.code
        }
        assert eat_me == {
            "eat-me-alice": ("Eat Me", "scheme", {}),
            "eat-me-deadpool": ("Eat Me", "defense", {"value": 2}),
        }
        assert cards.get(code="prophecy").name_en == "Prophecy"
        assert cards.get(code="prophecy-lizard").name_en == "Prophecy 🦎"

    def test_it_stores_no_effect_text_ability_quote_or_image_address(self) -> None:
        prose = set()
        for path in (SHARED / "decks").glob("*.json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            prose.add(data["hero"].get("specialAbility") or "")
            prose.add((data.get("sidekick") or {}).get("quote") or "")
            for entry in data["cards"]:
                for key in ("basicText", "immediateText", "duringText", "afterText", "imageUrl"):
                    prose.add(entry.get(key) or "")
        prose -= {""}
        stored = json.dumps(
            [
                list(Card.objects.values_list("name_en", "attributes", "source")),
                list(Printing.objects.values_list("attributes", flat=True)),
                list(Product.objects.values_list("name_en", "source")),
                list(CardSet.objects.values_list("name_en", "source")),
            ],
            ensure_ascii=False,
        )
        assert "://" not in stored
        assert [text for text in prose if text in stored] == []

    def test_importing_it_again_changes_nothing(self) -> None:
        before = (
            list(Printing.objects.order_by("pk").values_list("pk", "card_id", "attributes")),
            counts(),
        )
        report = catalog_import_path(SHARED)
        assert sum(report.created.values()) == 0
        assert sum(report.updated.values()) == 0
        assert report.unchanged == {"sets": 26, "cards": 704, "printings": 803, "products": 59}
        after = (
            list(Printing.objects.order_by("pk").values_list("pk", "card_id", "attributes")),
            counts(),
        )
        assert after == before


# --- bad input: reported with its path, nothing written ---------------------------------


def broken(mutate: Any) -> dict[str, Any]:
    data = deck("bad")
    mutate(data)
    return data


BAD_DECKS = [
    pytest.param(
        broken(lambda d: d["cards"][1].update(type="trap")),
        "bad.json: cards[1].type",
        "unknown card type 'trap'",
        id="unknown type",
    ),
    pytest.param(
        broken(lambda d: d["cards"][0].update(value="4")),
        "bad.json: cards[0].value",
        "expected a whole number",
        id="value as text",
    ),
    pytest.param(
        broken(lambda d: d["cards"][0].update(value=2.5)),
        "bad.json: cards[0].value",
        "expected a whole number",
        id="fractional value",
    ),
    pytest.param(
        broken(lambda d: d["cards"][1].update(value=None)),
        "bad.json: cards[1].value",
        "missing",
        id="defense without a value",
    ),
    pytest.param(
        broken(lambda d: d["cards"][2].update(value=2)),
        "bad.json: cards[2].value",
        "a scheme card has no value",
        id="scheme with a value",
    ),
    pytest.param(broken(lambda d: d.pop("hero")), "bad.json: hero", "missing", id="missing hero"),
    pytest.param(
        broken(lambda d: d["hero"].update(hp=True)),
        "bad.json: hero.hp",
        "expected a whole number",
        id="hero hp as a boolean",
    ),
    pytest.param(
        broken(lambda d: d["hero"].update(isRanged="no")),
        "bad.json: hero.isRanged",
        "expected true or false",
        id="ranged as text",
    ),
    pytest.param(
        broken(lambda d: d["cards"][0].update(quantity=-2)),
        "bad.json: cards[0].quantity",
        "cannot be negative",
        id="negative quantity",
    ),
    pytest.param(
        broken(lambda d: d["cards"][0].update(quantity=0)),
        "bad.json: cards[0].quantity",
        "at least 1",
        id="no copies",
    ),
    pytest.param(
        broken(lambda d: d["cards"][0].pop("title")),
        "bad.json: cards[0].title",
        "missing",
        id="card without a title",
    ),
    pytest.param(
        broken(lambda d: d["cards"][1].pop("boost")),
        "bad.json: cards[1].boost",
        "missing",
        id="card without a boost",
    ),
    pytest.param(
        broken(lambda d: d["cards"].append(copy.deepcopy(d["cards"][0]))),
        "bad.json: cards[3].title",
        "listed twice in this deck",
        id="a card listed twice",
    ),
    pytest.param(
        broken(lambda d: d.update(cards="none")),
        "bad.json: cards",
        "expected a list",
        id="cards not a list",
    ),
    pytest.param(
        '{"id": "bad", "hero": {"name": "Broken",\n  "hp": 12,,}',
        "bad.json:2",
        "broken JSON",
        id="broken JSON file",
    ),
    pytest.param(["not", "a", "deck"], "bad.json", "expected a JSON object", id="a list"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("bad", "where", "message"), BAD_DECKS)
def test_a_bad_deck_is_reported_with_its_path_and_nothing_is_written(
    tmp_path: Path, bad: Any, where: str, message: str
) -> None:
    path = folder(tmp_path, {"good.json": deck("good"), "bad.json": bad})
    with pytest.raises(CatalogImportError) as exc:
        catalog_import_path(path)
    assert any(p.where == where and message in p.message for p in exc.value.problems), problems_of(
        exc
    )
    assert counts() == (0, 0, 0, 0, 0, 0)


@pytest.mark.django_db
def test_two_decks_that_disagree_on_a_card_are_reported_naming_both_places(
    tmp_path: Path,
) -> None:
    other = deck("other")
    other["cards"][1]["value"] = 4  # 'Test Block' is a defense 3 in the first deck
    other["cards"][2]["type"] = "attack"  # 'Test Plan' is a scheme there
    other["cards"][2]["value"] = 1
    with pytest.raises(CatalogImportError) as exc:
        catalog_import_path(folder(tmp_path, {"a.json": deck("first"), "b.json": other}))
    assert problems_of(exc) == [
        "b.json: cards[1].value: 'Test Block' is defense 4 here but defense 3 at a.json: cards[1]",
        "b.json: cards[2].type: 'Test Plan' is attack 1 here but scheme at a.json: cards[2]",
    ]
    assert counts() == (0, 0, 0, 0, 0, 0)


@pytest.mark.django_db
def test_every_problem_of_every_file_is_reported_at_once(tmp_path: Path) -> None:
    bad = deck("bad")
    bad["hero"]["move"] = "fast"
    bad["cards"][0]["type"] = "Gambit"
    bad["cards"][1]["quantity"] = -1
    path = folder(tmp_path, {"bad.json": bad, "worse.json": "{", "good.json": deck("good")})
    with pytest.raises(CatalogImportError) as exc:
        catalog_import_path(path)
    assert [p.where for p in exc.value.problems] == [
        "bad.json: hero.move",
        "bad.json: cards[0].type",
        "bad.json: cards[1].quantity",
        "worse.json:1",
    ]


@needs_shared
@pytest.mark.django_db
def test_a_bad_deck_leaves_an_existing_catalog_untouched(tmp_path: Path) -> None:
    catalog_import_path(SHARED)
    before = counts(), list(Card.objects.order_by("pk").values_list("pk", "attributes"))
    bad = json.loads((SHARED / "decks" / "achilles.json").read_text(encoding="utf-8"))
    bad["hero"]["hp"] = 30  # a change that alone would be written...
    bad["cards"][3]["value"] = "three"  # ...but this line is bad
    with pytest.raises(CatalogImportError) as exc:
        catalog_import_text(json.dumps(bad), name="achilles.json")
    assert problems_of(exc) == [
        'achilles.json: cards[3].value: expected a whole number, not "three"'
    ]
    assert (counts(), list(Card.objects.order_by("pk").values_list("pk", "attributes"))) == before


@pytest.mark.parametrize(
    "data",
    [
        None,
        "deck",
        3,
        [],
        {"hero": [], "cards": {}},
        {"hero": {"name": 5}, "cards": [None, 3, {"title": []}], "sidekick": "Bob"},
        {"id": {"x": 1}, "hero": {"name": "X"}, "cards": [], "set": 7, "released": "soon"},
    ],
)
def test_the_parser_never_raises_on_nonsense(data: Any) -> None:
    bundle = bundle_from_unmatched_deck(data, "odd.json")
    assert bundle.problems
    assert all(p.where.startswith("odd.json") for p in bundle.problems)


# --- a player's own deck ----------------------------------------------------------------


CUSTOM_DECK: dict[str, Any] = {
    "id": "Kq3_x9ZpA",
    "version": 2,
    "name": "Captain Nemo",
    "hero": {
        "name": "Captain Nemo",
        "hp": 16,
        "move": 2,
        "isRanged": True,
        "specialAbility": "PROSE-ABILITY: the Nautilus surfaces.",
        "quantity": 1,
    },
    # the deck builder's empty sidekick form
    "sidekick": {"name": "", "hp": None, "move": None, "quantity": None, "quote": ""},
    "cards": [
        card("Harpoon Volley", "Attack", "Captain Nemo", 4, boost=2, quantity=3),
        card("Dive!", "versatile", "any", 2, boost=1, quantity=4),
        card("Mobilis in Mobili", "scheme", "Captain Nemo", None, boost=3, quantity=2),
        card("潜航", "defense", "Any", 3, boost=1, quantity=1),
        card("Feint", "versatile", "Any", 2, boost=1, quantity=3),
    ],
    "appearance": {"patternName": "waves", "highlightColour": "#123456"},
}


@pytest.mark.django_db
def test_a_players_custom_deck_imports_as_its_own_hero_deck() -> None:
    report = catalog_import_text(json.dumps(CUSTOM_DECK, ensure_ascii=False), name="nemo.json")
    assert report.created == {"sets": 1, "cards": 6, "printings": 6, "products": 1}
    product = Product.objects.select_related("card_set").get(code="Kq3_x9ZpA")
    assert (product.kind, product.name_en) == ("hero-deck", "Captain Nemo")
    assert product.card_set is not None
    assert product.card_set.name_en == "Captain Nemo (custom deck)"
    nemo = Card.objects.get(code="character-Kq3_x9ZpA")
    assert nemo.attributes == {"hp": 16, "move": 2, "ranged": True, "hero_count": 1}
    lines = product_lines("Kq3_x9ZpA")
    assert lines[("deck", "harpoon-volley")] == (3, {"fighter": "Captain Nemo", "boost": 2})
    assert lines[("deck", "dive")] == (4, {"fighter": "any", "boost": 1})
    assert lines[("deck", code_for("潜航"))][0] == 1
    assert Card.objects.get(code="harpoon-volley").card_type == "attack"
    assert Card.objects.get(code=code_for("潜航")).name_en == "潜航"
    assert {c.source for c in Card.objects.all()} == {"unmatched.cards deck JSON: nemo.json"}
    stored = json.dumps(list(Card.objects.values_list("attributes", flat=True)))
    assert not any(text in stored for text in PROSE)


@pytest.mark.django_db
def test_a_sidekick_with_no_hp_printed_has_one() -> None:
    catalog_import_text(json.dumps(deck("tester")), name="tester.json")
    attributes = Card.objects.get(code="character-tester").attributes
    assert attributes["sidekick"] == "Helpers"
    assert attributes["sidekick_hp"] == 1
    assert (attributes["sidekick_count"], attributes["sidekick_ranged"]) == (2, True)


# --- the folder's SQL list of sets ------------------------------------------------------


SETS_SQL = """\
-- sets; a comment mentioning insert into sets(name) values ('Not a set') is skipped
insert into boards(set_id, name) values (1, 'Not a set either');

insert into sets(name, release_date, image_url)
values ('Test Box', '2021-03-01 00:00:00.111000 +00:00',
        'https://example.invalid/box.webp'),
       ('Hero''s Return', '2030-01-01 00:00:00.111000 +00:00', ''),
       /* a set without a date */
       ('Two
Lines', null, 'x');

insert into decks(set_id, name) values (2, 'X');
"""


def test_the_sql_reader_reads_quoted_text_escapes_nulls_and_several_lines() -> None:
    rows = sql_insert_rows(SETS_SQL, "sets")
    assert [(line, values["name"], values["release_date"]) for line, values in rows] == [
        (5, "Test Box", "2021-03-01 00:00:00.111000 +00:00"),
        (7, "Hero's Return", "2030-01-01 00:00:00.111000 +00:00"),
        (9, "Two\nLines", None),
    ]
    assert sql_insert_rows("insert into t(a, b) values (-3, 2.5), (true, null);", "t") == [
        (1, {"a": -3, "b": 2.5}),
        (1, {"a": True, "b": None}),
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("insert into sets(name) values ('open\n", 1, "unterminated quoted text"),
        ("insert into sets(name, x)\nvalues ('a');", 2, "1 values for 2 columns"),
        ("insert into sets(name) values\n('a') ('b');", 2, "expected ','"),
        ("insert into boards(name) values ('a');", 1, "no 'insert into sets' statement"),
        ("insert into sets(name) values (nonsense);", 1, "expected a value"),
    ],
)
def test_the_sql_reader_names_the_line_of_a_syntax_error(
    text: str, line: int, message: str
) -> None:
    with pytest.raises(SqlSyntaxError) as exc:
        sql_insert_rows(text, "sets")
    assert exc.value.line == line
    assert message in exc.value.message


@pytest.mark.django_db
def test_a_folder_imports_the_sets_of_its_sql_seed_even_without_decks_of_their_own(
    tmp_path: Path,
) -> None:
    catalog_import_path(folder(tmp_path, {"tester.json": deck("tester")}, SETS_SQL))
    sets = {s.code: s for s in CardSet.objects.all()}
    assert set(sets) == {"test-box", "heros-return", "two-lines"}
    assert sets["heros-return"].name_en == "Hero's Return"
    assert sets["heros-return"].released == "2030-01-01"
    assert sets["two-lines"].release_date is None
    assert Product.objects.get(code="tester").card_set == sets["test-box"]


BROKEN_SQL = """\
insert into sets(name, release_date, image_url)
values ('A', null, 'x'),
       ('B, null, 'y');
"""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sql", "changes", "where", "message"),
    [
        (SETS_SQL, {"set": "Unknown Box"}, "tester.json: set", "not in V2__insert.sql"),
        (SETS_SQL, {"released": "2021-04-01"}, "tester.json: released", "disagrees"),
        (BROKEN_SQL, {}, "V2__insert.sql:3", "unterminated quoted text"),
    ],
)
def test_a_folder_whose_decks_and_sets_disagree_is_refused(
    tmp_path: Path, sql: str, changes: dict[str, Any], where: str, message: str
) -> None:
    path = folder(tmp_path, {"tester.json": deck("tester", **changes)}, sql)
    with pytest.raises(CatalogImportError) as exc:
        catalog_import_path(path)
    assert any(p.where == where and message in p.message for p in exc.value.problems), problems_of(
        exc
    )
    assert counts() == (0, 0, 0, 0, 0, 0)


def test_codes_are_stable_ascii_slugs_that_keep_icons_apart() -> None:
    assert code_for("Hell's Kitchen") == "hells-kitchen"
    assert code_for("Prophecy") == "prophecy"
    assert code_for("Prophecy 🦎") == "prophecy-lizard"
    assert code_for("Again 2️⃣") == "again-2"
    assert code_for("潜航") == code_for("潜航") != code_for("浮上")
    assert code_for("潜航").startswith("x-")
