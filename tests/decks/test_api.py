"""The deck API under /api/v1/decks/: create, read, replace, change, delete, entries, copies.

Permissions live in test_api_permissions.py, versions (409/428) in test_api_concurrency.py,
history in test_api_history.py, lists in and out in test_api_io.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from catalog.models import Card, Game, Printing, Product
from decks.api import errors
from decks.models import Deck, DeckEntry, DeckRevision

# the shared fixtures (owner_api, deck, mattsan…), found by pytest in this namespace
from tests.decks.test_api_fixtures import *  # noqa: F403
from tests.decks.test_api_fixtures import API, client_for, deck_url, make_deck

pytestmark = pytest.mark.django_db


def _create(client: APIClient, **body: Any) -> Any:
    return client.post(API, {"game": "mattsan", "name": "Robo Street", **body}, format="json")


# --- Create ---------------------------------------------------------------------------------


def test_it_creates_a_legal_deck_with_its_entries_and_version_one(
    owner_api: APIClient, owner: Any, legal_entries: list[dict[str, Any]]
) -> None:
    response = _create(owner_api, entries=legal_entries, description="*Beep*")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["version"] == 1
    assert response["ETag"] == '"1"'
    assert response["Location"].endswith(deck_url(body["public_id"]))
    assert body["owner"] == "owner"
    assert body["visibility"] == "private"
    assert body["card_count"] == 30
    assert body["legality"] == {"legal": True, "problems": []}
    assert sum(e["quantity"] for e in body["entries"]) == 30
    saved = Deck.objects.get(public_id=body["public_id"])
    assert saved.owner == owner and saved.is_legal and saved.description == "*Beep*"
    assert DeckRevision.objects.filter(deck=saved).count() == 1


def test_an_illegal_deck_is_saved_with_every_problem_listed(
    owner_api: APIClient, mattsan: Game
) -> None:
    entries = [{"card": "MTD-001", "zone": "main", "quantity": 4}]
    response = _create(owner_api, entries=entries)
    assert response.status_code == 201
    legality = response.json()["legality"]
    assert legality["legal"] is False
    codes = {p["code"] for p in legality["problems"]}
    assert codes == {"zone-size", "copy-limit"}
    copy = next(p for p in legality["problems"] if p["code"] == "copy-limit")
    assert copy["expected"] == 3 and copy["actual"] == 4
    assert copy["cards"][0]["code"] == "MTD-001"
    assert set(copy["message"]) == {"en", "ja"} and set(copy["fix"]) == {"en", "ja"}


def test_identical_entries_are_merged(owner_api: APIClient, mattsan: Game) -> None:
    entries = [{"card": "MTD-001", "zone": "main", "quantity": 1}] * 2
    body = _create(owner_api, entries=entries).json()
    assert [(e["card"], e["quantity"]) for e in body["entries"]] == [("MTD-001", 2)]


def test_a_printing_can_be_pinned_by_set_and_number(owner_api: APIClient, mattsan: Game) -> None:
    entry = {"card": "MTD-001", "zone": "main", "quantity": 2, "printing": {"set": "MTD"}}
    body = _create(owner_api, entries=[entry]).json()
    assert body["entries"][0]["printing"] == {"set": "MTD", "number": "001", "variant": ""}


def test_a_card_of_another_game_is_refused_when_saving(
    owner_api: APIClient, mattsan: Game, monster_hunter: Game
) -> None:
    other = Card.objects.filter(game=monster_hunter).first()
    assert other is not None
    entries = [
        {"card": "MTD-001", "zone": "main", "quantity": 1},
        {"card": f"monster-hunter/{other.code}", "zone": "main", "quantity": 1},
    ]
    response = _create(owner_api, entries=entries)
    assert response.status_code == 400
    # DRF 3.18's format for a list's errors: the bad items by index
    (second,) = response.json()["entries"].values()
    assert list(response.json()["entries"]) == ["1"]
    assert "Monster Hunter" in second["card"][0] and "Mattsan" in second["card"][0]
    assert not Deck.objects.exists()


def test_it_names_each_bad_entry_and_field(owner_api: APIClient, mattsan: Game) -> None:
    entries = [
        {"card": "MTD-001", "zone": "main", "quantity": 100},
        {"card": "MTD-002", "zone": "main", "quantity": 1},
        {"card": "MTD-003", "zone": "main", "quantity": 0},
    ]
    response = _create(owner_api, entries=entries)
    assert response.status_code == 400
    bad = response.json()["entries"]
    assert set(bad) == {"0", "2"}
    assert "quantity" in bad["0"] and "quantity" in bad["2"]


def test_an_unknown_card_zone_or_printing_is_a_400_with_a_suggestion(
    owner_api: APIClient, mattsan: Game
) -> None:
    entries = [
        {"card": "MTD-01", "zone": "main", "quantity": 1},
        {"card": "MTD-002", "zone": "side", "quantity": 1},
        {"card": "MTD-003", "zone": "main", "quantity": 1, "printing": {"set": "MT1"}},
    ]
    response = _create(owner_api, entries=entries)
    assert response.status_code == 400
    bad = response.json()["entries"]
    bad_card, bad_zone, bad_printing = bad["0"], bad["1"], bad["2"]
    assert "“MTD-01”" in bad_card["card"][0] and "Did you mean" in bad_card["card"][0]
    assert "main" in bad_zone["zone"][0]
    assert "(MTD) 003" in bad_printing["printing"][0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "x" * 121}, "name"),
        ({"name": ""}, "name"),
        ({"game": "chess"}, "game"),
        ({"visibility": "friends"}, "visibility"),
        ({"variant": "tournament"}, "variant"),
        ({"extras": {"chips": [5]}}, "extras"),
        ({"entries": "MTD-001"}, "entries"),
        ({"entries": [{"card": "MTD-001", "zone": "main"}]}, "entries"),
    ],
)
def test_bad_deck_fields_are_400s_naming_the_field(
    owner_api: APIClient, mattsan: Game, body: dict[str, Any], field: str
) -> None:
    response = _create(owner_api, **body)
    assert response.status_code == 400
    assert field in response.json()
    assert not Deck.objects.exists()


def test_more_than_500_entries_are_refused(owner_api: APIClient, mattsan: Game) -> None:
    entries = [{"card": "MTD-001", "zone": "main", "quantity": 1}] * 501
    response = _create(owner_api, entries=entries)
    assert response.status_code == 400
    assert "entries" in response.json()


def test_a_body_that_is_not_json_is_refused_not_a_500(owner_api: APIClient) -> None:
    response = owner_api.post(API, "{not json", content_type="application/json")
    assert response.status_code == 400
    response = owner_api.post(API, {"game": "mattsan"})  # a multipart form
    assert response.status_code == 415


# --- Read, list ----------------------------------------------------------------------------


def test_the_owner_reads_a_deck_with_entries_legality_and_etag(
    owner_api: APIClient, deck: Deck
) -> None:
    response = owner_api.get(deck_url(deck))
    assert response.status_code == 200
    body = response.json()
    assert response["ETag"] == f'"{deck.version}"'
    assert body["public_id"] == deck.public_id and body["game"] == "mattsan"
    assert body["legality"]["legal"] is True
    entry = body["entries"][0]
    assert set(entry) == {
        "id",
        "card",
        "name",
        "name_en",
        "name_ja",
        "type",
        "zone",
        "quantity",
        "printing",
    }


def test_card_names_follow_the_request_language(owner_api: APIClient, deck: Deck) -> None:
    body = owner_api.get(deck_url(deck), HTTP_ACCEPT_LANGUAGE="ja").json()
    entry = body["entries"][0]
    assert entry["name"] == entry["name_ja"]


def test_the_list_without_public_is_the_callers_own_decks(
    owner_api: APIClient, owner: Any, stranger: Any, mattsan: Game
) -> None:
    mine = [
        make_deck(owner, mattsan, name=v, visibility=v) for v in ("public", "unlisted", "private")
    ]
    make_deck(stranger, mattsan, name="theirs", visibility="public")
    body = owner_api.get(API).json()
    assert body["count"] == 3
    assert {d["public_id"] for d in body["results"]} == {d.public_id for d in mine}


def test_the_public_browse_lists_only_a_games_public_decks_with_filters(
    anonymous_api: APIClient, owner: Any, stranger: Any, mattsan: Game, legal_entries: Any
) -> None:
    legal = make_deck(owner, mattsan, visibility="public", entries=legal_entries)
    small = make_deck(
        stranger,
        mattsan,
        visibility="public",
        name="small",
        entries=[{"card": "MTD-045", "zone": "main", "quantity": 1}],
    )
    make_deck(owner, mattsan, visibility="unlisted", entries=legal_entries)
    make_deck(owner, mattsan, visibility="private", entries=legal_entries)

    def ids(query: str) -> set[str]:
        response = anonymous_api.get(f"{API}?game=mattsan&public=1{query}")
        assert response.status_code == 200, response.json()
        return {d["public_id"] for d in response.json()["results"]}

    assert ids("") == {legal.public_id, small.public_id}
    assert ids("&legal=1") == {legal.public_id}
    assert ids("&card=MTD-045") == {small.public_id}
    assert ids("&player=stranger") == {small.public_id}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("public=1", "game"),
        ("public=yes&game=mattsan", "public"),
        ("legal=maybe", "legal"),
        ("game=chess", "game"),
        ("player=owner", "player"),
        ("page=abc", "page"),
    ],
)
def test_bad_list_parameters_are_400s_naming_them(
    owner_api: APIClient, mattsan: Game, query: str, field: str
) -> None:
    response = owner_api.get(f"{API}?{query}")
    assert response.status_code == 400
    assert field in response.json()


def test_the_list_costs_the_same_queries_for_one_deck_or_many(
    anonymous_api: APIClient, owner: Any, mattsan: Game
) -> None:
    make_deck(owner, mattsan, visibility="public")
    with CaptureQueriesContext(connection) as one:
        anonymous_api.get(f"{API}?game=mattsan&public=1")
    for n in range(5):
        make_deck(owner, mattsan, visibility="public", name=f"deck {n}")
    with CaptureQueriesContext(connection) as six:
        body = anonymous_api.get(f"{API}?game=mattsan&public=1").json()
    assert body["count"] == 6
    assert len(six) == len(one)


def test_a_deck_costs_the_same_queries_for_few_entries_or_many(
    owner_api: APIClient, owner: Any, mattsan: Game
) -> None:
    few = make_deck(owner, mattsan, entries=[{"card": "MTD-001", "zone": "main", "quantity": 1}])
    many = make_deck(
        owner,
        mattsan,
        entries=[{"card": f"MTD-0{n:02d}", "zone": "main", "quantity": 1} for n in range(1, 40)],
    )
    for entry in DeckEntry.objects.filter(deck=many)[:10]:
        entry.printing = Printing.objects.filter(card=entry.card).first()
        entry.save()
    with CaptureQueriesContext(connection) as small:
        assert owner_api.get(deck_url(few)).status_code == 200
    with CaptureQueriesContext(connection) as big:
        assert len(owner_api.get(deck_url(many)).json()["entries"]) == 39
    assert len(big) == len(small)
    assert len(big) <= 8


# --- Replace, change, delete ---------------------------------------------------------------


def test_put_replaces_the_list_and_the_fields(owner_api: APIClient, deck: Deck) -> None:
    body = {
        "name": "Renamed",
        "visibility": "public",
        "entries": [{"card": "MTD-045", "zone": "main", "quantity": 3}],
        "version": deck.version,
    }
    response = owner_api.put(deck_url(deck), body, format="json")
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert answer["version"] == deck.version + 1
    assert answer["name"] == "Renamed" and answer["visibility"] == "public"
    assert [(e["card"], e["quantity"]) for e in answer["entries"]] == [("MTD-045", 3)]
    assert answer["legality"]["legal"] is False
    deck.refresh_from_db()
    assert deck.card_count == 3 and not deck.is_legal


def test_put_round_trips_the_deck_it_read(owner_api: APIClient, deck: Deck) -> None:
    read = owner_api.get(deck_url(deck)).json()
    response = owner_api.put(deck_url(deck), read, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["entries"] == [
        {**e, "id": response.json()["entries"][i]["id"]} for i, e in enumerate(read["entries"])
    ]


def test_patch_changes_only_the_fields_sent(owner_api: APIClient, deck: Deck) -> None:
    response = owner_api.patch(
        deck_url(deck), {"name": "Shiny", "version": deck.version}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "Shiny" and body["visibility"] == "private"
    assert body["card_count"] == 30


def test_a_deck_cannot_change_game(owner_api: APIClient, deck: Deck) -> None:
    read = owner_api.get(deck_url(deck)).json()
    response = owner_api.put(deck_url(deck), {**read, "game": "monster-hunter"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"game": [str(errors.GAME_FIXED)]}
    body = {"game": "recharge", "name": "x", "version": 1}
    assert owner_api.patch(deck_url(deck), body, format="json").status_code == 400


def test_patch_refuses_entries_and_an_empty_change(owner_api: APIClient, deck: Deck) -> None:
    with_entries = {"entries": [], "version": deck.version}
    response = owner_api.patch(deck_url(deck), with_entries, format="json")
    assert response.status_code == 400
    assert response.json()["entries"] == [str(errors.ENTRIES_NOT_PATCHABLE)]
    response = owner_api.patch(deck_url(deck), {"version": deck.version}, format="json")
    assert response.status_code == 400
    assert response.json()["non_field_errors"] == [str(errors.NOTHING_TO_CHANGE)]


def test_delete_removes_the_deck(owner_api: APIClient, deck: Deck) -> None:
    response = owner_api.delete(deck_url(deck), HTTP_IF_MATCH=f'"{deck.version}"')
    assert response.status_code == 204
    assert not Deck.objects.filter(pk=deck.pk).exists()
    assert owner_api.get(deck_url(deck)).status_code == 404


def test_delete_takes_the_version_from_the_query_string(owner_api: APIClient, deck: Deck) -> None:
    response = owner_api.delete(deck_url(deck) + f"?version={deck.version}")
    assert response.status_code == 204


# --- Entries --------------------------------------------------------------------------------


def test_an_entry_is_set_then_added_to_then_taken_away(owner_api: APIClient, deck: Deck) -> None:
    url = deck_url(deck, "entries/")
    body = {"card": "MTD-045", "zone": "main", "quantity": 2, "version": deck.version}
    response = owner_api.post(url, body, format="json")
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert answer["version"] == deck.version + 1 and answer["card_count"] == 32

    def quantity(deck_body: dict[str, Any]) -> int:
        return sum(e["quantity"] for e in deck_body["entries"] if e["card"] == "MTD-045")

    assert quantity(answer) == 2
    body = {"card": "MTD-045", "zone": "main", "delta": 1, "version": answer["version"]}
    answer = owner_api.post(url, body, format="json").json()
    assert quantity(answer) == 3
    body = {"card": "MTD-045", "zone": "main", "delta": -3, "version": answer["version"]}
    answer = owner_api.post(url, body, format="json").json()
    assert quantity(answer) == 0 and answer["card_count"] == 30 and answer["legality"]["legal"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"card": "MTD-045", "zone": "main"}, "quantity"),
        ({"card": "MTD-045", "zone": "main", "quantity": 1, "delta": 1}, "delta"),
        ({"card": "MTD-045", "zone": "main", "delta": 0}, "delta"),
        ({"card": "MTD-045", "zone": "main", "quantity": 100}, "quantity"),
        ({"card": "nope", "zone": "main", "quantity": 1}, "card"),
        ({"card": "MTD-045", "zone": "side", "quantity": 1}, "zone"),
    ],
)
def test_bad_entry_writes_are_400s_naming_the_field(
    owner_api: APIClient, deck: Deck, body: dict[str, Any], field: str
) -> None:
    response = owner_api.post(
        deck_url(deck, "entries/"), {**body, "version": deck.version}, format="json"
    )
    assert response.status_code == 400
    assert field in response.json()
    deck.refresh_from_db()
    assert deck.version == 1


def test_adding_past_99_copies_is_a_400(owner_api: APIClient, deck: Deck) -> None:
    url = deck_url(deck, "entries/")
    body = {"card": "MTD-045", "zone": "main", "quantity": 99, "version": deck.version}
    answer = owner_api.post(url, body, format="json").json()
    body = {"card": "MTD-045", "zone": "main", "delta": 1, "version": answer["version"]}
    response = owner_api.post(url, body, format="json")
    assert response.status_code == 400
    assert "quantity" in response.json()


def test_an_entry_is_changed_pinned_and_removed(owner_api: APIClient, deck: Deck) -> None:
    entry = DeckEntry.objects.filter(deck=deck, card__code="MTD-006").get()
    url = deck_url(deck, f"entries/{entry.pk}/")
    body = {"quantity": 3, "printing": {"set": "MTD", "number": "006"}, "version": 1}
    response = owner_api.patch(url, body, format="json")
    assert response.status_code == 200, response.json()
    answer = response.json()
    changed = next(e for e in answer["entries"] if e["card"] == "MTD-006")
    assert changed["quantity"] == 3 and changed["printing"]["number"] == "006"
    url = deck_url(deck, f"entries/{changed['id']}/")
    response = owner_api.delete(url, HTTP_IF_MATCH=f'"{answer["version"]}"')
    assert response.status_code == 200
    assert not any(e["card"] == "MTD-006" for e in response.json()["entries"])
    assert response.json()["version"] == 3


def test_an_entry_of_another_deck_is_404(
    owner_api: APIClient, owner: Any, deck: Deck, mattsan: Game
) -> None:
    other = make_deck(owner, mattsan, entries=[{"card": "MTD-001", "zone": "main", "quantity": 1}])
    entry = DeckEntry.objects.get(deck=other)
    response = owner_api.patch(
        deck_url(deck, f"entries/{entry.pk}/"), {"quantity": 2, "version": 1}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["detail"] == str(errors.ENTRY_NOT_FOUND)


def test_an_entry_change_must_change_something(owner_api: APIClient, deck: Deck) -> None:
    entry = DeckEntry.objects.filter(deck=deck).first()
    assert entry is not None
    url = deck_url(deck, f"entries/{entry.pk}/")
    response = owner_api.patch(url, {"version": 1}, format="json")
    assert response.status_code == 400
    response = owner_api.patch(url, {"zone": "side", "version": 1}, format="json")
    assert response.status_code == 400 and "zone" in response.json()


# --- Copies and products --------------------------------------------------------------------


def test_anyone_signed_in_copies_a_deck_they_can_see(
    stranger_api: APIClient, stranger: Any, owner: Any, mattsan: Game, legal_entries: Any
) -> None:
    original = make_deck(owner, mattsan, visibility="unlisted", entries=legal_entries)
    response = stranger_api.post(deck_url(original, "clone/"), {"name": "Mine"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["owner"] == "stranger" and body["visibility"] == "private"
    assert body["name"] == "Mine" and body["card_count"] == 30
    assert body["cloned_from"] == original.public_id
    copy = Deck.objects.get(public_id=body["public_id"])
    assert copy.owner == stranger and copy.cloned_from == original


def test_a_copy_of_a_private_deck_does_not_show_where_it_came_from(
    owner_api: APIClient, owner: Any, stranger: Any, deck: Deck
) -> None:
    copy = owner_api.post(deck_url(deck, "clone/"), {}, format="json").json()
    assert copy["cloned_from"] == deck.public_id  # the owner may see their own deck
    Deck.objects.filter(public_id=copy["public_id"]).update(owner=stranger, visibility="public")
    body = client_for(stranger).get(deck_url(copy["public_id"])).json()
    assert body["cloned_from"] is None


def test_a_deck_is_made_from_a_product(owner_api: APIClient, starter: Product) -> None:
    response = owner_api.post(
        f"{API}from-product/", {"game": "mattsan", "product": starter.code}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["source_product"] == starter.code and body["name"] == starter.name_en
    assert body["card_count"] == 30 and body["legality"]["legal"]


@pytest.mark.parametrize(
    ("product", "message"),
    [("NOPE", "no product"), ("MT1-BP", str(errors.PRODUCT_EMPTY))],
)
def test_an_unknown_or_empty_product_is_a_400(
    owner_api: APIClient, starter: Product, product: str, message: str
) -> None:
    response = owner_api.post(
        f"{API}from-product/", {"game": "mattsan", "product": product}, format="json"
    )
    assert response.status_code == 400
    assert message in response.json()["product"][0]


# --- Token authentication -------------------------------------------------------------------


def test_a_token_reads_and_writes_like_a_session(owner: Any, deck: Deck) -> None:
    token = Token.objects.create(user=owner)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(deck_url(deck)).status_code == 200
    assert client.get(API).json()["count"] == 1
    response = client.patch(deck_url(deck), {"name": "Via token", "version": 1}, format="json")
    assert response.status_code == 200
    assert response.json()["name"] == "Via token"


def test_a_bad_token_is_401_not_anonymous(deck: Deck) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get(deck_url(deck))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
