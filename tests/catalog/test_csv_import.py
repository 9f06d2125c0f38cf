"""The CSV card-list format: what a community types into a spreadsheet, and every way it breaks.

The cards here are invented for the tests (marked demo); only the games' schemas are real.
"""

from __future__ import annotations

import json

import pytest

from catalog.importers import csv_cards
from catalog.importers.bundle import CatalogImportError
from catalog.importers.csv_cards import parse_csv
from catalog.importers.service import bundles_from_text, catalog_import_text, import_bundles
from catalog.importers.write import game_sync
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem

MH_HEADER = (
    "code,type,name_en,name_ja,set,number,hp,attack,movement,reach,rank,material_points,"
    "weapon_icon,item_icons,cost,demo,source"
)


def counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (Game, CardSet, Card, Printing, Product, ProductItem)
    )


def make_set(game: str, code: str) -> CardSet:
    return CardSet.objects.create(game=game_sync(game), code=code, name_en=f"Demo {code}")


def problems_of(text: str, *, game: str | None = None, name: str = "cards.csv") -> list[str]:
    """Import, expect a refusal, and return its problems as 'where: message' lines."""
    before = counts()
    with pytest.raises(CatalogImportError) as refused:
        catalog_import_text(text, name=name, game=game)
    assert counts() == before, "a refused import must write nothing"
    return [str(problem) for problem in refused.value.problems]


def has(problems: list[str], where: str, *fragments: str) -> bool:
    return any(
        p.startswith(f"{where}: ") and all(fragment in p for fragment in fragments)
        for p in problems
    )


@pytest.fixture
def mh_set() -> CardSet:
    return make_set("monster-hunter", "mh-demo")


# --- good files -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_imports_a_spreadsheet_export_with_bom_crlf_and_quoted_commas(mh_set: CardSet) -> None:
    text = (
        "\ufeff" + MH_HEADER + "\r\n"
        'demo-rathalos,monster,"Rathalos, King of the Skies",リオレウス,mh-demo,001,'
        "8,3,2,1,3,2,,,,true,DeckLab test\r\n"
        'demo-bone-blade,weapon,"Bone Blade, Rusty",骨刀,mh-demo,002,'
        ",2,1,1,,,great-sword,meat|ball,1,true,DeckLab test\r\n"
    )
    report = catalog_import_text(text, name="cards.csv", game="monster-hunter")

    assert report.created["cards"] == 2
    assert report.created["printings"] == 2
    monster = Card.objects.get(code="demo-rathalos")
    assert monster.name_en == "Rathalos, King of the Skies"
    assert monster.name_ja == "リオレウス"
    assert monster.attributes == {
        "hp": 8,
        "attack": 3,
        "movement": 2,
        "reach": 1,
        "rank": 3,
        "material_points": 2,
    }
    assert monster.is_demo
    assert monster.source == "DeckLab test"
    blade = Card.objects.get(code="demo-bone-blade")
    assert blade.attributes["item_icons"] == ["meat", "ball"]
    assert blade.attributes["weapon_icon"] == "great-sword"
    assert blade.printings.get().collector_number == "002"


@pytest.mark.django_db
def test_rows_sharing_a_code_are_one_card_with_several_printings() -> None:
    make_set("mattsan", "ms-demo")
    make_set("mattsan", "ms-promo")
    text = (
        "game,code,type,name_ja,set,number,hp,soul,printing.rarity\n"
        "mattsan,demo-unit,unit,テストユニット,ms-demo,1,3,1,2\n"
        # a further printing may leave the card's own cells empty
        "mattsan,demo-unit,,,ms-promo,P-1,,,5\n"
        "mattsan,demo-unit,unit,テストユニット,ms-demo,1-b,3,1,\n"
    )
    catalog_import_text(text, name="mattsan.csv")

    card = Card.objects.get(code="demo-unit")
    assert card.attributes == {"hp": 3, "soul": 1}
    printings = {
        (p.card_set.code, p.collector_number): p.attributes
        for p in card.printings.select_related("card_set")
    }
    assert printings == {
        ("ms-demo", "1"): {"rarity": 2},
        ("ms-promo", "P-1"): {"rarity": 5},
        ("ms-demo", "1-b"): {},
    }


@pytest.mark.django_db
def test_it_reads_variants_list_attributes_and_printing_attributes() -> None:
    make_set("recharge", "rc-demo")
    make_set("unmatched", "um-demo")
    recharge = (
        "code,type,name_en,set,number,variant,power,left,right,special\n"
        "demo-hero,hero,Demo Hero,rc-demo,1,,30,red|blue,green,false\n"
        "demo-hero,hero,Demo Hero,rc-demo,1,power-plus,30,red|blue,green,false\n"
    )
    catalog_import_text(recharge, name="recharge.csv", game="recharge")
    hero = Card.objects.get(code="demo-hero")
    assert hero.attributes == {
        "power": 30,
        "left": ["red", "blue"],
        "right": ["green"],
        "special": False,
    }
    assert sorted(hero.printings.values_list("variant", flat=True)) == ["", "power-plus"]

    unmatched = (
        "code,type,name_en,set,value,printing.fighter,printing.boost\n"
        "demo-feint,versatile,Demo Feint,um-demo,2,any,1\n"
    )
    catalog_import_text(unmatched, name="unmatched.csv", game="unmatched")
    printing = Printing.objects.get(card__code="demo-feint")
    assert printing.attributes == {"fighter": "any", "boost": 1}


@pytest.mark.django_db
def test_importing_the_same_csv_twice_changes_nothing(mh_set: CardSet) -> None:
    text = "code,type,name_en,set,number,defence,cost\ndemo-armor,armor,Demo Armor,mh-demo,9,3,2\n"
    catalog_import_text(text, name="armor.csv", game="monster-hunter")
    before = counts()

    report = catalog_import_text(text, name="armor.csv", game="monster-hunter")

    assert counts() == before
    assert report.unchanged["cards"] == 1
    assert report.unchanged["printings"] == 1


@pytest.mark.django_db
def test_a_csv_may_print_into_a_set_defined_by_another_file_of_the_same_import() -> None:
    catalog = {
        "format": "decklab-catalog",
        "version": 1,
        "game": "mattsan",
        "demo": True,
        "sets": [{"code": "ms-new", "name_en": "Demo new set"}],
    }
    bundles = bundles_from_text(json.dumps(catalog), name="sets.json") + bundles_from_text(
        "code,type,name_en,set,number,cost\ndemo-trump,trump,Demo Trump,ms-new,1,2\n",
        name="cards.csv",
        game="mattsan",
    )
    import_bundles(bundles)
    assert Printing.objects.get(card__code="demo-trump").card_set.code == "ms-new"


# --- bad files: every problem, with its line, and nothing written ------------------------------


@pytest.mark.django_db
def test_a_row_with_a_missing_or_an_extra_cell_is_reported_with_its_line(mh_set: CardSet) -> None:
    text = (
        "code,type,name_en,set,number,defence,cost\n"
        "demo-a,armor,Demo A,mh-demo,1,3,2\n"
        "demo-b,armor,Demo B,mh-demo,2,3\n"
        "demo-c,armor,Demo, C,mh-demo,3,3,2\n"
    )
    problems = problems_of(text, game="monster-hunter")
    assert has(problems, "cards.csv:3", "6 cells but the header has 7 columns", "missing column")
    assert has(problems, "cards.csv:4", "8 cells but the header has 7 columns", "extra cells")


@pytest.mark.django_db
def test_an_unknown_header_is_reported_on_line_one_with_a_did_you_mean(mh_set: CardSet) -> None:
    text = "code,type,name_en,set,defense,cost,printing.boost\ndemo-a,armor,Demo A,mh-demo,3,2,1\n"
    problems = problems_of(text, game="monster-hunter")
    assert has(problems, "cards.csv:1", "unknown column 'defense'", "Did you mean 'defence'?")
    assert has(problems, "cards.csv:1", "'printing.boost'", "printings carry no attributes")
    # the unknown columns are reported once, not again on every row
    assert not any("attribute 'defense'" in p for p in problems)


@pytest.mark.django_db
def test_a_printing_attribute_without_its_prefix_suggests_the_prefixed_column() -> None:
    make_set("unmatched", "um-demo")
    text = "code,type,name_en,set,value,boost\ndemo-x,attack,Demo X,um-demo,3,2\n"
    problems = problems_of(text, game="unmatched")
    assert has(problems, "cards.csv:1", "unknown column 'boost'", "'printing.boost'")


@pytest.mark.django_db
def test_a_misspelt_required_header_is_reported(mh_set: CardSet) -> None:
    problems = problems_of("code,tpye,name_en\ndemo-a,armor,A\n", game="monster-hunter")
    assert problems == ["cards.csv:1: missing column 'type' (is 'tpye' a misspelling of it?)"]


@pytest.mark.django_db
def test_an_unknown_game_is_reported_with_its_line_and_a_did_you_mean(mh_set: CardSet) -> None:
    text = (
        "game,code,type,name_en,defence,cost\n"
        "monster-hunter,demo-a,armor,Demo A,3,2\n"
        "monster-huntr,demo-b,armor,Demo B,3,2\n"
    )
    problems = problems_of(text)
    assert has(problems, "cards.csv:3", "'monster-huntr'", "Did you mean 'monster-hunter'?")

    problems = problems_of("game,code,type\nmonster-huntr,demo-a,armor\n")
    assert has(problems, "cards.csv:2", "unknown game 'monster-huntr'", "'monster-hunter'")


@pytest.mark.django_db
def test_a_file_with_no_game_at_all_is_refused() -> None:
    problems = problems_of("code,type,name_en\ndemo-a,armor,A\n")
    assert problems == [f"cards.csv:1: {csv_cards.NO_GAME}"]


@pytest.mark.django_db
def test_a_bad_attribute_is_reported_with_its_line_and_field(mh_set: CardSet) -> None:
    text = (
        MH_HEADER + "\n"
        "demo-rathalos,monster,Demo Rathalos,,mh-demo,001,0,3,2,1,3,2,,,,true,\n"
        "demo-blade,weapon,Demo Blade,,mh-demo,002,,2,1,1,,,katana,meat,1,true,\n"
        "demo-item,item,Demo Item,,mh-demo,003,,,,,,,,,,maybe,\n"
    )
    problems = problems_of(text, game="monster-hunter")
    assert has(problems, "cards.csv:2", "attribute 'hp'", "greater than or equal to 1")
    assert has(problems, "cards.csv:3", "attribute 'weapon_icon'", "katana")
    assert has(problems, "cards.csv:4", "demo 'maybe' must be true or false")
    assert has(problems, "cards.csv:4", "attribute 'item_icons'")


@pytest.mark.django_db
def test_rows_of_one_code_that_disagree_are_reported_with_both_lines(mh_set: CardSet) -> None:
    text = (
        "code,type,name_en,set,number,defence,cost\n"
        "demo-a,armor,Demo A,mh-demo,1,3,2\n"
        "demo-b,armor,Demo B,mh-demo,2,3,2\n"
        "demo-a,armor,Demo A (promo),mh-demo,1-p,4,2\n"
    )
    problems = problems_of(text, game="monster-hunter")
    assert has(problems, "cards.csv:4", "'demo-a' is also on line 2", "name_en")
    assert has(problems, "cards.csv:4", "'demo-a' is also on line 2", "defence", "'4' here")


@pytest.mark.django_db
def test_a_repeated_printing_is_reported(mh_set: CardSet) -> None:
    text = (
        "code,type,name_en,set,number,defence,cost\n"
        "demo-a,armor,Demo A,mh-demo,1,3,2\n"
        "demo-a,armor,Demo A,mh-demo,1,3,2\n"
    )
    assert has(problems_of(text, game="monster-hunter"), "cards.csv:3", "duplicate printing")


@pytest.mark.django_db
def test_missing_code_or_type_and_unknown_sets_are_reported(mh_set: CardSet) -> None:
    text = (
        "code,type,name_en,set,number,defence,cost\n"
        ",armor,Demo A,mh-demo,1,3,2\n"
        "demo-b,,Demo B,mh-demo,2,3,2\n"
        "demo-c,armor,Demo C,mh-dem,3,3,2\n"
        "demo-d,armour,Demo D,,,3,2\n"
        "demo-e,armor,Demo E,,7,3,2\n"
    )
    problems = problems_of(text, game="monster-hunter")
    assert has(problems, "cards.csv:2", "missing code")
    assert has(problems, "cards.csv:3", "missing type")
    assert has(problems, "cards.csv:4", "unknown set 'mh-dem'", "Did you mean 'mh-demo'?")
    assert has(problems, "cards.csv:5", "card type 'armour'", "Did you mean 'armor'?")
    assert has(problems, "cards.csv:6", "number given without a 'set'")


@pytest.mark.django_db
def test_line_numbers_are_physical_lines_even_after_a_quoted_line_break(mh_set: CardSet) -> None:
    text = (
        "code,type,name_en,set,number,defence,cost\n"
        'demo-a,armor,"Demo A,\nsecond line",mh-demo,1,3,2\n'
        "\n"
        "demo-b,armor,Demo B,mh-demo,2,3,x\n"
    )
    problems = problems_of(text, game="monster-hunter")
    assert has(problems, "cards.csv:5", "attribute 'cost'")


@pytest.mark.django_db
def test_every_problem_of_a_file_is_reported_at_once(mh_set: CardSet) -> None:
    text = (
        "code,type,name_en,set,number,defence,cost,colour\n"
        "demo-a,armor,Demo A,mh-demo,1,3\n"
        "demo-b,armor,,mh-demo,2,3,2,\n"
        "demo-c,armor,Demo C,mh-demo,3,-1,2,\n"
    )
    problems = problems_of(text, game="monster-hunter")
    assert [p.split(": ")[0] for p in problems] == [
        "cards.csv:1",
        "cards.csv:2",
        "cards.csv:3",
        "cards.csv:4",
    ]


@pytest.mark.django_db
def test_an_empty_file_or_a_header_alone_is_refused() -> None:
    assert problems_of("", game="mattsan") == [f"cards.csv:1: {csv_cards.EMPTY_FILE}"]
    assert problems_of("code,type\n", game="mattsan") == [f"cards.csv:1: {csv_cards.NO_ROWS}"]


def test_a_file_past_the_row_limit_is_refused_with_a_clear_problem() -> None:
    rows = "".join(f"demo-{n},trap,Demo {n}\n" for n in range(csv_cards.MAX_ROWS + 5))
    bundle = parse_csv("code,type,name_en\n" + rows, "huge.csv", "mattsan")
    limit_line = csv_cards.MAX_ROWS + 2  # the header, then MAX_ROWS rows that were read
    assert [str(p) for p in bundle.problems] == [
        f"huge.csv:{limit_line}: {csv_cards.TOO_MANY_ROWS}"
    ]
    assert len(bundle.cards) == csv_cards.MAX_ROWS


def test_the_parser_never_raises_on_garbage() -> None:
    for text in ("\x00\x00", '"unclosed,quote\n', "code,type\n" + "a" * 200_000 + ",b\n", ",,,\n"):
        bundle = parse_csv(text, "junk.csv", "mattsan")
        assert bundle.problems
