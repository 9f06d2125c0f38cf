"""The card search language: each game's fields and operators find exactly the cards meant,
precedence is AND over OR, and mistakes are errors pointing at their position.

Every table runs twice on PostgreSQL: once as compiled there (containment tests answered by
the GIN indexes) and once spelled with JSON key lookups, as SQLite runs it, so both spellings
are held to the same answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.models import Card
from catalog.query import compile as compile_module
from catalog.query import errors
from catalog.query.compile import compile_query
from catalog.query.errors import QueryError
from catalog.query.syntax import All, Any_, Compare, Not, Word, parse
from tests.catalog.factories import CardFactory, CardSetFactory, GameFactory, PrintingFactory

# (game, code, type, English name, Japanese name, card attributes, printing attributes)
CARDS: list[tuple[str, str, str, str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "unmatched",
        "feint",
        "versatile",
        "Feint",
        "フェイント",
        {"value": 2},
        {"fighter": "any", "boost": 2},
    ),
    (
        "unmatched",
        "skirmish",
        "attack",
        "Skirmish",
        "小競り合い",
        {"value": 4},
        {"fighter": "Alice", "boost": 1},
    ),
    (
        "unmatched",
        "block",
        "defense",
        "Block",
        "ブロック",
        {"value": 3},
        {"fighter": "any", "boost": 3},
    ),
    (
        "unmatched",
        "plot",
        "scheme",
        "Night Plot",
        "夜・の計略",
        {},
        {"fighter": "Medusa", "boost": 2},
    ),
    (
        "monster-hunter",
        "rathian",
        "monster",
        "Rathian",
        "リオレイア",
        {"attack": 3, "movement": 1, "reach": 2, "hp": 10, "rank": 3, "material_points": 2},
        {},
    ),
    (
        "monster-hunter",
        "kut-ku",
        "monster",
        "Yian Kut-Ku",
        "イャンクック",
        {"attack": 2, "movement": 1, "reach": 1, "hp": 6, "rank": 1, "material_points": 1},
        {},
    ),
    (
        "monster-hunter",
        "buster",
        "weapon",
        "Buster Sword",
        "バスターソード",
        {
            "weapon_icon": "great-sword",
            "attack": 3,
            "movement": 0,
            "reach": 1,
            "item_icons": ["meat"],
            "cost": 2,
        },
        {},
    ),
    (
        "monster-hunter",
        "potion",
        "item",
        "Potion",
        "回復薬",
        {"item_icons": ["medicine", "bottle"]},
        {},
    ),
    (
        "ouka-fushin",
        "taikobo",
        "character",
        "Taikobo",
        "太公望",
        {"character": "太公望", "destiny": 3, "school": "goton"},
        {},
    ),
    (
        "ouka-fushin",
        "nataku",
        "character",
        "Nataku",
        "哪吒",
        {"character": "哪吒", "destiny": 1, "school": "shoki"},
        {},
    ),
    (
        "ouka-fushin",
        "journey",
        "story",
        "Journey",
        "旅立ち",
        {"story_kind": "event", "keywords": ["旅", "仙人"], "points": 10},
        {},
    ),
    (
        "ouka-fushin",
        "finale",
        "climax",
        "Finale",
        "終幕",
        {"conditions": ["仙人"], "bonus": 30, "climax_type": "戦闘"},
        {},
    ),
    (
        "recharge",
        "spidey",
        "hero",
        "Spider-Man",
        "スパイダーマン",
        {"power": 30, "left": ["red"], "right": ["blue"]},
        {},
    ),
    (
        "recharge",
        "venom",
        "hero",
        "Venom",
        "ヴェノム",
        {"power": 50, "left": ["green"], "right": ["green"], "special": True},
        {},
    ),
    (
        "recharge",
        "boost-card",
        "power",
        "Power Boost",
        "パワーブースト",
        {"left": ["yellow"], "left_power": 10, "right": ["red"], "right_power": 60},
        {},
    ),
    ("mattsan", "slime", "unit", "Slime", "スライム", {"hp": 2, "soul": 1, "family": "商店街"}, {}),
    ("mattsan", "ogre", "unit", "Ogre", "オーガ", {"hp": 8, "soul": 3}, {}),
    ("mattsan", "fireball", "trump", "Fireball", "ファイアボール", {"cost": 2}, {}),
]

# (game, query, the codes it finds)
FINDS: list[tuple[str, str, set[str]]] = [
    # names, in either language, loosely
    ("unmatched", "feint", {"feint"}),
    ("unmatched", "FEI", {"feint"}),
    ("unmatched", "ふぇいんと", {"feint"}),
    ("unmatched", "ﾌｪｲﾝﾄ", {"feint"}),
    ("unmatched", "夜の計略", {"plot"}),
    ("unmatched", '"night plot"', {"plot"}),
    ("unmatched", '"plot night"', set()),
    ("unmatched", "name:block", {"block"}),
    # Unmatched: value (every operator), boost and fighter on the printing, type
    ("unmatched", "value:3", {"block"}),
    ("unmatched", "value=3", {"block"}),
    ("unmatched", "value!=3", {"feint", "skirmish"}),
    ("unmatched", "value<3", {"feint"}),
    ("unmatched", "value<=3", {"feint", "block"}),
    ("unmatched", "value>3", {"skirmish"}),
    ("unmatched", "value>=3", {"skirmish", "block"}),
    ("unmatched", "-value>=3", {"feint", "plot"}),
    ("unmatched", "boost:2", {"feint", "plot"}),
    ("unmatched", "boost>=3", {"block"}),
    ("unmatched", "fighter:alice", {"skirmish"}),
    ("unmatched", "-fighter:any", {"skirmish", "plot"}),
    ("unmatched", "type:scheme", {"plot"}),
    ("unmatched", "type!=scheme value<3", {"feint"}),
    ("unmatched", "-type:scheme -type:attack", {"feint", "block"}),
    ("unmatched", "set:box-b", {"block"}),
    ("unmatched", "set:BOX-B", {"block"}),
    ("unmatched", "set:box-a boost:3", set()),
    ("unmatched", "set:box-b boost:3", {"block"}),
    ("unmatched", "is:demo", {"plot"}),
    ("unmatched", "-is:demo", {"feint", "skirmish", "block"}),
    # precedence: AND binds tighter than OR; parentheses and negation of groups
    ("unmatched", "feint or block value:4", {"feint"}),
    ("unmatched", "feint or skirmish value:4", {"feint", "skirmish"}),
    ("unmatched", "(feint or skirmish) value:4", {"skirmish"}),
    ("unmatched", "-(feint or block)", {"skirmish", "plot"}),
    ("unmatched", "value:2 OR value:4", {"feint", "skirmish"}),
    ("unmatched", "value: 3", {"block"}),
    ("unmatched", "value<99999999999999999999999", {"feint", "skirmish", "block"}),
    ("recharge", "power>=99999999999999999999999", set()),
    ("unmatched", "orc", set()),
    # Monster Hunter: weapon, item, hp, rank, reach
    ("monster-hunter", "weapon:great-sword", {"buster"}),
    ("monster-hunter", "item:medicine", {"potion"}),
    ("monster-hunter", "item:meat or item:bottle", {"buster", "potion"}),
    ("monster-hunter", "hp>=8", {"rathian"}),
    ("monster-hunter", "rank<=1", {"kut-ku"}),
    ("monster-hunter", "reach:2", {"rathian"}),
    ("monster-hunter", "type:monster -rank:3", {"kut-ku"}),
    ("monster-hunter", "いゃんくっく", {"kut-ku"}),
    ("monster-hunter", "kutku", {"kut-ku"}),
    # 央華封神: school, destiny, keyword (a story's keywords or a climax's conditions)
    ("ouka-fushin", "school:goton", {"taikobo"}),
    ("ouka-fushin", "destiny>=2", {"taikobo"}),
    ("ouka-fushin", "destiny<3", {"nataku"}),
    ("ouka-fushin", "keyword:仙人", {"journey", "finale"}),
    ("ouka-fushin", "keyword:旅", {"journey"}),
    ("ouka-fushin", "story:event", {"journey"}),
    ("ouka-fushin", "太公望", {"taikobo"}),
    # Recharge: colour (either edge), edge (one edge), power (hero or either edge), special
    ("recharge", "colour:red", {"spidey", "boost-card"}),
    ("recharge", "edge:left-red", {"spidey"}),
    ("recharge", "edge:right-red", {"boost-card"}),
    ("recharge", "power>=50", {"venom", "boost-card"}),
    ("recharge", "power<20", {"boost-card"}),
    ("recharge", "special:yes", {"venom"}),
    ("recharge", "special:no", {"spidey", "boost-card"}),
    ("recharge", "spiderman", {"spidey"}),
    # Mattsan: hp, soul, cost, family, type
    ("mattsan", "hp>5", {"ogre"}),
    ("mattsan", "soul:1", {"slime"}),
    ("mattsan", "cost<=2", {"fireball"}),
    ("mattsan", "family:商店街", {"slime"}),
    ("mattsan", "type:unit -family:商店街", {"ogre"}),
    ("mattsan", "ｔｙｐｅ：ｔｒｕｍｐ", {"fireball"}),
]


@pytest.fixture
def catalog(db: None) -> None:
    sets: dict[str, Any] = {}
    for slug, code, card_type, name_en, name_ja, attributes, printing in CARDS:
        game = GameFactory(slug=slug)
        if slug not in sets:
            sets[slug] = (
                CardSetFactory(game=game, code="box-a"),
                CardSetFactory(game=game, code="box-b"),
            )
        card = CardFactory(
            game=game,
            code=code,
            card_type=card_type,
            name_en=name_en,
            name_ja=name_ja,
            attributes=attributes,
            is_demo=code == "plot",
        )
        box = sets[slug][1] if code == "block" else sets[slug][0]
        PrintingFactory(card=card, card_set=box, attributes=printing)


@pytest.fixture(params=["as compiled", "with key lookups"])
def spelling(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "with key lookups":
        monkeypatch.setattr(compile_module, "_uses_containment", lambda: False)
    yield request.param


def found(slug: str, query: str) -> set[str]:
    compiled = compile_query(query, slug=slug)
    return set(
        Card.objects.filter(game__slug=slug)
        .filter(compiled.condition)
        .values_list("code", flat=True)
    )


@pytest.mark.parametrize(("slug", "query", "expected"), FINDS)
def test_each_field_and_operator_finds_exactly_the_cards_meant(
    catalog: None, spelling: str, slug: str, query: str, expected: set[str]
) -> None:
    assert found(slug, query) == expected


@pytest.mark.parametrize(
    ("slug", "query", "expected"),
    [
        ("unmatched", "boost:2", {("feint", "box-a"), ("plot", "box-a")}),
        ("unmatched", "set:box-b", {("block", "box-b")}),
        ("unmatched", "value>=3 -type:attack", {("block", "box-b")}),
    ],
)
def test_one_row_per_printing_filters_the_printings(
    catalog: None, slug: str, query: str, expected: set[tuple[str, str]]
) -> None:
    from catalog.models import Printing

    compiled = compile_query(query + " unique:prints", slug=slug)
    assert compiled.per_printing and compiled.wants_printings
    rows = Printing.objects.filter(card__game__slug=slug).filter(compiled.condition)
    assert set(rows.values_list("card__code", "card_set__code")) == expected


@pytest.mark.parametrize(
    ("query", "order"),
    [
        ("order:value", ("value", False)),
        ("order:value dir:desc", ("value", True)),
        ("dir:desc", ("name", True)),
        ("feint order:type", ("type", False)),
        ("feint", None),
    ],
)
def test_order_and_dir_are_read_from_the_top_level(
    query: str, order: tuple[str, bool] | None
) -> None:
    assert compile_query(query, slug="unmatched").order == order


def test_order_by_a_number_field_sorts_the_cards(catalog: None) -> None:
    compiled = compile_query("-type:scheme order:value dir:desc", slug="unmatched")
    from catalog.query.compile import order_cards

    cards = order_cards(
        Card.objects.filter(game__slug="unmatched").filter(compiled.condition),
        compiled,
        slug="unmatched",
    )
    assert list(cards.values_list("code", flat=True)) == ["skirmish", "block", "feint"]


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("a b", All((Word("a", 0), Word("b", 2)))),
        ("a or b c", Any_((Word("a", 0), All((Word("b", 5), Word("c", 7)))))),
        ("(a or b) c", All((Any_((Word("a", 1), Word("b", 6))), Word("c", 9)))),
        ("-a", Not(Word("a", 1), 0)),
        ("x-men", Word("x-men", 0)),
        ("- a", All((Word("-", 0), Word("a", 2)))),
        ('"a b"', Word("a b", 1, quoted=True)),
        ("「a b」", Word("a b", 1, quoted=True)),
        ("value>=3", Compare("value", ">=", "3", 0, 7)),
        ("Value:3", Compare("value", ":", "3", 0, 6)),
        ('fighter:"the any"', Compare("fighter", ":", "the any", 0, 9)),
        ("ｖａｌｕｅ＞＝３", Compare("value", ">=", "3", 0, 7)),
        ("", None),
    ],
)
def test_the_grammar_reads_precedence_negation_and_quotes(text: str, tree: object) -> None:
    assert parse(text) == tree


# (game, query, message, position, suggestions)
MISTAKES: list[tuple[str, str, Any, int, list[str]]] = [
    ("ouka-fushin", "shcool:goton", errors.UNKNOWN_FIELD, 0, ["school"]),
    ("ouka-fushin", "school:gotn", errors.UNKNOWN_VALUE, 7, ["goton"]),
    ("unmatched", "feint valeu>=3", errors.UNKNOWN_FIELD, 6, ["value"]),
    ("unmatched", "school:goton", errors.UNKNOWN_FIELD, 0, []),
    ("unmatched", "value>=three", errors.NOT_A_NUMBER, 7, []),
    ("unmatched", "type:schem", errors.UNKNOWN_VALUE, 5, ["scheme"]),
    ("unmatched", "type>3", errors.BAD_OPERATOR, 0, []),
    ("unmatched", "value:", errors.MISSING_VALUE, 6, []),
    ("unmatched", "(feint", errors.UNCLOSED_GROUP, 0, []),
    ("unmatched", "feint)", errors.UNOPENED_GROUP, 5, []),
    ("unmatched", "feint ()", errors.EMPTY_GROUP, 7, []),
    ("unmatched", 'feint "night', errors.UNCLOSED_QUOTE, 6, []),
    ("unmatched", "order:colour", errors.UNKNOWN_VALUE, 6, []),
    ("unmatched", "dir:up", errors.UNKNOWN_VALUE, 4, []),
    ("unmatched", "unique:print", errors.UNKNOWN_VALUE, 7, ["prints"]),
    ("unmatched", "is:owned", errors.NEEDS_SIGN_IN, 0, []),
    ("unmatched", "in:deck", errors.NOT_HERE, 0, []),
    ("recharge", "colour:purple", errors.UNKNOWN_VALUE, 7, []),
    ("recharge", "special:maybe", errors.UNKNOWN_VALUE, 8, []),
    ("mattsan", "feint or order:name", errors.UNEXPECTED, 9, []),
    ("monster-hunter", "weapon:great-swrd", errors.UNKNOWN_VALUE, 7, ["great-sword", "long-sword"]),
]


@pytest.mark.parametrize(("slug", "query", "message", "position", "suggestions"), MISTAKES)
def test_a_mistake_is_an_error_at_its_position_with_what_was_meant(
    slug: str, query: str, message: Any, position: int, suggestions: list[str]
) -> None:
    with pytest.raises(QueryError) as raised:
        compile_query(query, slug=slug)
    assert raised.value.template == message
    assert raised.value.position == position
    assert raised.value.suggestions == suggestions


def test_the_error_text_counts_from_one_and_says_what_was_meant() -> None:
    with translation.override("en"), pytest.raises(QueryError) as raised:
        compile_query("shcool:goton", slug="ouka-fushin")
    with translation.override("en"):
        assert str(raised.value) == (
            "At character 1: No search field “shcool” in this game. Did you mean 'school'?"
        )


def test_a_search_across_games_knows_only_the_shared_fields() -> None:
    assert compile_query("type:attack set:x -is:demo", slug=None).condition
    with pytest.raises(QueryError) as raised:
        compile_query("value>=3", slug=None)
    assert raised.value.template == errors.UNKNOWN_FIELD


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(
        alphabet=st.sampled_from(list('abvalue:<>=!-()" orａ：（）「」・ｶ3 ')), max_size=40
    ),
    slug=st.sampled_from(["unmatched", "recharge", "ouka-fushin", None]),
)
def test_any_text_compiles_or_is_a_query_error_never_a_crash(text: str, slug: str | None) -> None:
    try:
        compiled = compile_query(text, slug=slug)
    except QueryError as exc:
        assert 0 <= exc.position <= len(text)
    else:
        assert compiled.text == text
