"""Who may read, change and list a deck: the cast (owner, friend, stranger, anonymous) against
private, unlisted and public decks.

The design: private decks are 404 to everyone but the owner (their existence is not
confirmed); a deck you can see but do not own is 403 to change; anonymous writes are 401.
Unlisted decks are readable by their link and never listed; the friend has the link but no
more rights than the stranger.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from catalog.models import Game
from decks.api import errors
from decks.models import Deck

# the shared fixtures (owner_api, deck, mattsan…), found by pytest in this namespace
from tests.decks.test_api_fixtures import *  # noqa: F403
from tests.decks.test_api_fixtures import API, client_for, deck_url, make_deck

pytestmark = pytest.mark.django_db

WHO = ("owner", "friend", "stranger", "anonymous")
VISIBILITIES = ("private", "unlisted", "public")

READ = {
    ("owner", "private"): 200,
    ("owner", "unlisted"): 200,
    ("owner", "public"): 200,
    ("friend", "private"): 404,
    ("friend", "unlisted"): 200,
    ("friend", "public"): 200,
    ("stranger", "private"): 404,
    ("stranger", "unlisted"): 200,
    ("stranger", "public"): 200,
    ("anonymous", "private"): 404,
    ("anonymous", "unlisted"): 200,
    ("anonymous", "public"): 200,
}
WRITE = {
    ("owner", "private"): 200,
    ("owner", "unlisted"): 200,
    ("owner", "public"): 200,
    ("friend", "private"): 404,
    ("friend", "unlisted"): 403,
    ("friend", "public"): 403,
    ("stranger", "private"): 404,
    ("stranger", "unlisted"): 403,
    ("stranger", "public"): 403,
    ("anonymous", "private"): 401,
    ("anonymous", "unlisted"): 401,
    ("anonymous", "public"): 401,
}
# Listed in a game's public browse (anyone) / in the caller's own list.
IN_PUBLIC_BROWSE = {"private": False, "unlisted": False, "public": True}


def _client(who: str, cast: dict[str, Any]) -> APIClient:
    return client_for(cast.get(who))


@pytest.fixture
def cast(owner: Any, friend: Any, stranger: Any) -> dict[str, Any]:
    return {"owner": owner, "friend": friend, "stranger": stranger}


@pytest.fixture
def decks(owner: Any, mattsan: Game) -> dict[str, Deck]:
    return {v: make_deck(owner, mattsan, visibility=v, name=v) for v in VISIBILITIES}


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("who", WHO)
def test_reading_a_deck(
    cast: dict[str, Any], decks: dict[str, Deck], who: str, visibility: str
) -> None:
    client = _client(who, cast)
    deck = decks[visibility]
    expected = READ[(who, visibility)]
    assert client.get(deck_url(deck)).status_code == expected
    # the history and the exports follow the deck
    assert client.get(deck_url(deck, "revisions/")).status_code == expected
    assert client.get(deck_url(deck, "revisions/1/")).status_code == expected
    assert client.get(deck_url(deck, "diff/?from=1&to=1")).status_code == expected
    assert client.get(deck_url(deck, "export/?format=text")).status_code == expected
    if expected == 404:
        assert client.get(deck_url(deck)).json() == {"detail": str(errors.DECK_NOT_FOUND)}


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("who", WHO)
def test_changing_a_deck(
    cast: dict[str, Any], decks: dict[str, Deck], who: str, visibility: str
) -> None:
    client = _client(who, cast)
    deck = decks[visibility]
    expected = WRITE[(who, visibility)]
    response = client.patch(deck_url(deck), {"name": "Taken", "version": 1}, format="json")
    assert response.status_code == expected
    if expected == 403:
        assert response.json() == {"detail": str(errors.NOT_OWNER)}
    if expected == 401:
        assert response["WWW-Authenticate"] == "Token"
    deck.refresh_from_db()
    assert (deck.name == "Taken") == (expected == 200)


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("who", WHO)
def test_every_write_follows_the_same_rule(
    cast: dict[str, Any], decks: dict[str, Deck], who: str, visibility: str
) -> None:
    client = _client(who, cast)
    deck = decks[visibility]
    expected = WRITE[(who, visibility)]
    if expected == 200:
        return  # the owner's writes are tested one by one elsewhere
    writes = [
        client.put(deck_url(deck), {"name": "x", "entries": [], "version": 1}, format="json"),
        client.delete(deck_url(deck), HTTP_IF_MATCH='"1"'),
        client.post(
            deck_url(deck, "entries/"),
            {"card": "MTD-001", "zone": "main", "quantity": 1, "version": 1},
            format="json",
        ),
        client.delete(deck_url(deck, "entries/1/"), HTTP_IF_MATCH='"1"'),
        client.post(deck_url(deck, "restore/"), {"revision": 1, "version": 1}, format="json"),
        client.post(
            deck_url(deck, "import/"), {"text": "1 Banana Peel", "version": 1}, format="json"
        ),
    ]
    assert [r.status_code for r in writes] == [expected] * len(writes)
    deck.refresh_from_db()
    assert deck.version == 1


@pytest.mark.parametrize("who", WHO)
def test_the_public_browse_lists_public_decks_only(
    cast: dict[str, Any], decks: dict[str, Deck], who: str
) -> None:
    response = _client(who, cast).get(f"{API}?game=mattsan&public=1")
    assert response.status_code == 200
    listed = {d["public_id"] for d in response.json()["results"]}
    assert listed == {decks[v].public_id for v in VISIBILITIES if IN_PUBLIC_BROWSE[v]}


@pytest.mark.parametrize("who", WHO)
def test_your_own_list_holds_your_decks_only(
    cast: dict[str, Any], decks: dict[str, Deck], who: str
) -> None:
    response = _client(who, cast).get(API)
    if who == "anonymous":
        assert response.status_code == 401
        assert response.json() == {"detail": str(errors.LOGIN_TO_LIST)}
        return
    listed = {d["public_id"] for d in response.json()["results"]}
    mine = {d.public_id for d in decks.values()} if who == "owner" else set()
    assert listed == mine


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("who", WHO)
def test_copying_a_deck(
    cast: dict[str, Any], decks: dict[str, Deck], who: str, visibility: str
) -> None:
    response = _client(who, cast).post(deck_url(decks[visibility], "clone/"), {}, format="json")
    if who == "anonymous":
        assert response.status_code == 401
    else:
        assert response.status_code == (201 if READ[(who, visibility)] == 200 else 404)


def test_anonymous_callers_cannot_create_decks(mattsan: Game) -> None:
    client = APIClient()
    response = client.post(API, {"game": "mattsan", "name": "x"}, format="json")
    assert response.status_code == 401
    response = client.post(
        f"{API}from-product/", {"game": "mattsan", "product": "MTD-ST1"}, format="json"
    )
    assert response.status_code == 401
    response = client.post(f"{API}import/", {"game": "mattsan", "text": "1 x"}, format="json")
    assert response.status_code == 401
    assert not Deck.objects.exists()


def test_an_unknown_deck_is_the_same_404_as_a_private_one(stranger: Any, mattsan: Game) -> None:
    client = client_for(stranger)
    assert client.get(deck_url("no-such-deck-id0")).json() == {"detail": str(errors.DECK_NOT_FOUND)}
    response = client.patch(deck_url("no-such-deck-id0"), {"name": "x"}, format="json")
    assert response.status_code == 404
