"""A field's values are typed as the pages show them: by code, or by label in English or
Japanese (issue 18), with a "did you mean" on a value that names nothing; and the API's
search across games takes a game's own fields once the game is named.

The tables are built from every game's declarations (its card types and its enumerated search
fields), so a new game or a new value is covered without touching this file.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.functional import Promise
from rest_framework.test import APIClient

from catalog.query import errors
from catalog.query.compile import compile_query
from catalog.query.errors import QueryError
from catalog.query.fields import game_fields
from catalog.spec import all_games
from tests.catalog.test_query_language import catalog, found

__all__ = ["catalog"]  # the seeded cards, a fixture shared with the language's own tests


def _label(label: Promise | str, language: str) -> str:
    with translation.override(language):
        return str(label)


def _enumerated() -> list[tuple[str, str, str, Promise | str]]:
    """(game, field, code, label) for every card type and every value of an enumerated
    field of every game."""
    rows: list[tuple[str, str, str, Promise | str]] = []
    for spec in all_games():
        rows += [(spec.slug, "type", t.code, t.label) for t in spec.card_types]
        for field in game_fields(spec.slug):
            rows += [(spec.slug, field.name, code, label) for code, label in field.choices]
            rows += [(spec.slug, field.name, code, code) for code in field.paired]
            if field.kind == "bool":
                rows += [(spec.slug, field.name, "yes", "yes"), (spec.slug, field.name, "no", "no")]
    return rows


ENUMERATED = _enumerated()


def _quoted(text: str) -> str:
    return f'"{text}"'


@pytest.mark.parametrize("interface", ["en", "ja"])
@pytest.mark.parametrize(("slug", "field", "code", "label"), ENUMERATED)
def test_a_value_by_its_code_or_its_label_in_either_language_is_the_same_search(
    interface: str, slug: str, field: str, code: str, label: Promise | str
) -> None:
    with translation.override(interface):
        by_code = compile_query(f"{field}:{code}", slug=slug).condition
        for language in ("en", "ja"):
            typed = _label(label, language)
            by_label = compile_query(f"{field}:{_quoted(typed)}", slug=slug).condition
            assert by_label == by_code, (language, typed)


def test_every_game_has_enumerated_values_to_check() -> None:
    # the table above is not vacuous: each game contributes its types, and the three values
    # of the issue are among the rows
    assert {row[0] for row in ENUMERATED} == {spec.slug for spec in all_games()}
    labels = {(slug, field, _label(label, "ja")) for slug, field, _c, label in ENUMERATED}
    assert {
        ("ouka-fushin", "school", "五遁"),
        ("mattsan", "type", "ユニット"),
        ("monster-hunter", "weapon", "大剣"),
    } <= labels


@pytest.mark.parametrize(
    ("slug", "query", "expected"),
    [
        ("ouka-fushin", "school:五遁", {"taikobo"}),
        ("ouka-fushin", 'school:"Five Escapes"', {"taikobo"}),
        ("ouka-fushin", "school:召鬼 or school:goton", {"taikobo", "nataku"}),
        ("ouka-fushin", "story:イベント", {"journey"}),
        ("mattsan", "type:ユニット", {"slime", "ogre"}),
        ("mattsan", "type:ﾕﾆｯﾄ", {"slime", "ogre"}),  # half-width kana, folded
        ("mattsan", "-type:ユニット", {"fireball"}),
        ("monster-hunter", "weapon:大剣", {"buster"}),
        ("monster-hunter", 'weapon:"great sword"', {"buster"}),
        ("monster-hunter", "item:肉", {"buster"}),
        ("monster-hunter", "type:モンスター", {"rathian", "kut-ku"}),
        ("recharge", "colour:赤", {"spidey", "boost-card"}),
        ("recharge", "special:はい", {"venom"}),
        ("recharge", "special:いいえ", {"spidey", "boost-card"}),
    ],
)
def test_japanese_values_find_the_cards_the_pages_show_with_them(
    catalog: None, slug: str, query: str, expected: set[str]
) -> None:
    assert found(slug, query) == expected


def _near_misses() -> list[tuple[str, str, str, str]]:
    """(game, field, typed, the code meant): each code and each Japanese label of two
    characters or more, with its last character left off, where that names no value itself."""
    rows = []
    for slug, field, code, label in ENUMERATED:
        for typed in {code[:-1], _label(label, "ja")[:-1]}:
            if len(typed) < 2:
                continue
            try:
                compile_query(f"{field}:{_quoted(typed)}", slug=slug)
            except QueryError:
                rows.append((slug, field, typed, code))
    return rows


NEAR_MISSES = _near_misses()


@pytest.mark.parametrize(("slug", "field", "typed", "meant"), NEAR_MISSES)
def test_a_near_miss_on_a_value_says_which_value_was_meant(
    slug: str, field: str, typed: str, meant: str
) -> None:
    with pytest.raises(QueryError) as raised:
        compile_query(f"{field}:{_quoted(typed)}", slug=slug)
    assert raised.value.template == errors.UNKNOWN_VALUE
    assert meant in raised.value.suggestions
    with translation.override("en"):
        assert "Did you mean" in str(raised.value)


def test_the_near_misses_cover_every_game() -> None:
    assert {row[0] for row in NEAR_MISSES} == {spec.slug for spec in all_games()}


def test_school_fusui_suggests_fusui_bokusen() -> None:
    with translation.override("en"), pytest.raises(QueryError) as raised:
        compile_query("school:fusui", slug="ouka-fushin")
    assert raised.value.suggestions[0] == "fusui-bokusen"
    with translation.override("en"):
        assert str(raised.value) == (
            "At character 8: “fusui” is not a value of school. Did you mean 'fusui-bokusen'?"
        )


def test_a_value_nothing_resembles_gets_no_suggestion() -> None:
    with pytest.raises(QueryError) as raised:
        compile_query("colour:purple", slug="recharge")
    assert raised.value.suggestions == []


# --- /api/v1/cards/ with a game named ----------------------------------------------------------


def _codes(response: Any) -> set[str]:
    assert response.status_code == 200, response.content
    return {row["code"] for row in response.json()["results"]}


@pytest.mark.parametrize("slug", [spec.slug for spec in all_games()])
def test_the_cross_game_search_takes_a_named_games_own_fields(catalog: None, slug: str) -> None:
    client = APIClient()
    for field in game_fields(slug):
        example = field.example or f"{field.name}:1"
        across = client.get("/api/v1/cards/", {"game": slug, "q": example})
        own = client.get(f"/api/v1/games/{slug}/cards/", {"q": example})
        assert _codes(across) == _codes(own), example
    # the examples are not all empty: the game's fields really filtered something
    first = game_fields(slug)[0].example
    assert _codes(client.get("/api/v1/cards/", {"game": slug, "q": first}))


def test_the_cross_game_search_without_a_game_still_refuses_a_games_field(catalog: None) -> None:
    response = APIClient().get("/api/v1/cards/", {"q": "value>=3"})
    assert response.status_code == 400
    assert "value" in str(response.json()["q"])


def test_the_cross_game_search_answers_a_japanese_value_of_the_named_game(catalog: None) -> None:
    response = APIClient().get("/api/v1/cards/", {"game": "ouka-fushin", "q": "school:五遁"})
    assert _codes(response) == {"taikobo"}


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "label"), [("ja", "五遁"), ("en", "五遁 (Five Escapes)")])
def test_the_help_page_shows_each_values_code_with_its_label(language: str, label: str) -> None:
    page = APIClient().get("/search/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<code>goton</code> ({label})" in page
    assert "<code>school:五遁</code>" in page
