"""Bad input is a 400 naming what is wrong, never a 500: deep JSON, NUL characters, concurrent
imports of the same new custom deck, oversized bodies, unknown paths and query parameters."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from rest_framework.test import APIClient

from catalog.models import CardSet
from catalog.upload_views import CatalogUploadForm
from decklab import safe_input
from decks.imports.errors import DeckImportError
from decks.imports.service import deck_import
from tests.catalog.factories import GameFactory

DEEP = "[" * 1000 + "]" * 1000
TOO_DEEP = f"The JSON is nested deeper than {safe_input.MAX_JSON_DEPTH} levels."
NUL_REFUSED = "The text contains a NUL character (\\u0000), which cannot be stored."


def custom_deck(title: str = "Custom Strike", hero: str = "Captain Custom") -> dict[str, Any]:
    """A fan-made Unmatched deck whose every card is new: importing it creates a custom set."""
    return {
        "name": "Captain Custom",
        "hero": {"name": hero, "hp": 15, "move": 2, "isRanged": False},
        "sidekick": {"name": "Sparky", "hp": 4, "move": 3, "isRanged": True, "quantity": 1},
        "cards": [
            {
                "title": title,
                "type": "attack",
                "characterName": hero,
                "value": 4,
                "boost": 2,
                "quantity": 3,
            }
        ],
    }


@pytest.fixture
def api() -> APIClient:
    return APIClient()


# --- the limit itself ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("[" * 64 + "]" * 64, False),
        ("[" * 65 + "]" * 65, True),
        ('{"a":' * 65 + "1" + "}" * 65, True),
        (DEEP, True),
        ("[" * 100_000 + "]" * 100_000, True),
        ('{"name": "a\\u0000b"}', True),
        ('{"a\\u0000": 1}', True),
        ('{"name": "plain"}', False),
    ],
)
def test_safe_loads_refuses_deep_nesting_and_nul_characters(text: str, refused: bool) -> None:
    if refused:
        with pytest.raises(safe_input.UnsafeInput):
            safe_input.loads(text)
    else:
        safe_input.loads(text)


# --- through the API -------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "signed_in"),
    [
        ("/api/v1/decks/validate/", False),
        ("/api/v1/decks/import/", True),
        ("/api/v1/decks/", True),
        ("/api/v1/runs/", True),
        ("/api/v1/collection/items/", True),
    ],
)
def test_a_json_body_nested_a_thousand_levels_is_a_400_naming_the_limit(
    api: APIClient, owner: Any, path: str, signed_in: bool
) -> None:
    if signed_in:
        api.force_authenticate(owner)
    response = api.post(path, DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == TOO_DEEP


@pytest.mark.django_db
def test_a_nul_character_in_a_json_body_is_a_400(api: APIClient) -> None:
    body = '{"game": "unmatched", "format": "text", "text": "1 Feint\\u0000"}'
    response = api.post("/api/v1/decks/validate/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == NUL_REFUSED


# --- imports (the service the API and the import page share) ----------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        custom_deck(title="Custom\x00Strike"),
        custom_deck(hero="Captain\x00Custom"),
        DEEP,
        '{"name": "x\\u0000"}',
    ],
)
def test_an_import_with_a_nul_character_or_deep_json_is_refused_and_saves_nothing(
    owner: Any, data: Any
) -> None:
    game = GameFactory(slug="unmatched")
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=game, data=data, fmt="unmatched-json")
    (problem,) = refused.value.problems
    assert problem.message in (TOO_DEEP, NUL_REFUSED)
    assert problem.message == (TOO_DEEP if data is DEEP else NUL_REFUSED)
    assert not CardSet.objects.exists()


@pytest.mark.django_db
def test_a_catalog_upload_with_a_nul_byte_is_refused_by_the_form() -> None:
    upload = SimpleUploadedFile("cards.csv", b"game,code,name\nunmatched,X\x00,Bad\n")
    form = CatalogUploadForm(data={"game": ""}, files={"file": upload})
    assert not form.is_valid()
    assert form.errors["file"] == [NUL_REFUSED]


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_imports_of_one_new_custom_deck_all_succeed_with_one_set(
    owner: Any,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write: the race needs PostgreSQL")
    game = GameFactory(slug="unmatched")
    start = threading.Barrier(20)
    failures: list[BaseException] = []

    def one_import() -> None:
        try:
            start.wait()
            deck_import(owner=owner, game=game, data=custom_deck(), fmt="unmatched-json")
        except BaseException as exc:  # the test reports every failure, whatever it is
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=one_import) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert list(CardSet.objects.values_list("code", flat=True)) == [
        f"custom-{owner.pk}-captain-custom"
    ]


# --- JSON errors under /api/v1/ --------------------------------------------------------------


@pytest.mark.django_db
def test_an_oversized_api_body_is_a_json_413_naming_the_limit(
    api: APIClient, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = '{"game": "unmatched", "format": "text", "text": "' + "x" * 2000 + '"}'
    response = api.post("/api/v1/decks/validate/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is larger than the limit of 1.0\xa0KB."}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/no-such-thing/", "/api/v1/collection/items/x/"])
def test_a_path_under_the_api_that_matches_nothing_is_a_json_404(api: APIClient, path: str) -> None:
    response = api.get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
def test_a_page_path_that_matches_nothing_is_still_the_html_404(api: APIClient) -> None:
    response = api.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "unknown"),
    [("search=feint", ["search"]), ("q=feint&colour=red&zzz=1", ["colour", "zzz"])],
)
def test_an_unknown_query_parameter_is_a_400_naming_it(
    api: APIClient, query: str, unknown: list[str]
) -> None:
    response = api.get(f"/api/v1/cards/?{query}")
    assert response.status_code == 400
    assert sorted(response.json()) == unknown
    assert "q" in response.json()[unknown[0]][0]


@pytest.mark.django_db
def test_the_documented_query_parameters_are_still_read(api: APIClient) -> None:
    GameFactory(slug="unmatched")
    response = api.get("/api/v1/cards/?q=feint&game=unmatched&page=1")
    assert response.status_code == 200


# --- Recharge's chips through the API ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "chips", [[1e308], [-1], [10**30], [[5, 5]], ["5"], "5 5 4", [5, None], {"a": 5}]
)
def test_recharge_chips_the_editor_refuses_are_refused_by_the_api_and_not_stored(
    owner: Any, chips: Any
) -> None:
    GameFactory(slug="recharge")
    api = APIClient()
    api.force_authenticate(owner)
    body = {"game": "recharge", "name": "Chips", "entries": [], "extras": {"chips": chips}}
    response = api.post("/api/v1/decks/", body, format="json")
    assert response.status_code == 400
    assert "extras" in response.json()
    from decks.models import Deck

    assert not Deck.objects.exists()


@pytest.mark.django_db
def test_recharge_chips_of_whole_points_are_stored(owner: Any) -> None:
    GameFactory(slug="recharge")
    api = APIClient()
    api.force_authenticate(owner)
    body = {"game": "recharge", "name": "Chips", "entries": [], "extras": {"chips": [5, 4, 3]}}
    response = api.post("/api/v1/decks/", body, format="json")
    assert response.status_code == 201
    assert response.json()["extras"] == {"chips": [5, 4, 3]}
