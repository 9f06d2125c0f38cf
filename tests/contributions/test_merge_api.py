"""Merging duplicate cards through the API: an editor merges by the two codes (decks and
collections follow), lists the game's merges, reverts one (every row back exactly); players and
anonymous callers cannot; the operations are in the OpenAPI schema and answer as it says."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.models import Card
from contributions.merge_requests import NO_SUCH_CARD
from contributions.merge_revert import CODE_BACK
from contributions.models import CatalogChange
from decks.models import DeckEntry
from decks.specs import EntrySpec
from tests.contributions.merge_helpers import Pair, add, deck, make_pair, reserve, state
from tests.contributions.test_api_fixtures import client_for
from tests.contributions.test_api_schema import _call, _fuzz, _headers, _schema
from tests.test_api_schemathesis import keep_the_test_connection  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

MERGES = "/api/v1/games/monster-hunter/merges/"
BODY = {"duplicate": "I-901", "into": "I-001", "reason": "Same card: I-901 was typed twice."}


@pytest.fixture
def pair(game: Any) -> Pair:
    return make_pair()


def _things(pair: Pair, owner: Any, stranger: Any) -> None:
    built = deck(owner, "Mine", [EntrySpec(pair.dup, "main", 2), EntrySpec(pair.keep, "main", 3)])
    deck(stranger, "Theirs", [EntrySpec(pair.dup, "main", 1, pair.dup_001)])
    dup_item = add(owner, pair.dup_001, 3, tags=("dup",))
    add(owner, pair.keep_001, 2)
    add(owner, pair.dup_050, 1)
    add(stranger, pair.dup_001, 2)
    reserve(built, dup_item, 2)


def test_an_editor_merges_by_codes_and_the_answer_counts_what_moved(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    _things(pair, owner, stranger)

    response = client_for(editor).post(MERGES, BODY, format="json")

    assert response.status_code == 201, response.content
    change = CatalogChange.objects.get()
    body = response.json()
    assert {k: v for k, v in body.items() if k != "at"} == {
        "id": change.pk,
        "duplicate": "I-901",
        "duplicate_name": "Potion!",
        "into": "I-001",
        "reason": BODY["reason"],
        "approved_by": "editor",
        "reverted_by": None,
        "moved": {
            "decks": 2,
            "players": 2,
            "deck_entries": 2,
            "collection_items": 3,
            "wishes": 0,
            "product_lines": 0,
            "printings": 2,
        },
    }
    assert not Card.objects.filter(code="I-901").exists()
    assert set(DeckEntry.objects.values_list("card__code", flat=True)) == {"I-001"}
    # the answer never says whose decks or collections moved
    assert "owner" not in response.content.decode() and "stranger" not in response.content.decode()

    listed = client_for(editor).get(MERGES)
    assert listed.status_code == 200
    assert [m["id"] for m in listed.json()] == [change.pk]


def test_reverting_the_merge_restores_every_row_exactly_and_only_once(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    _things(pair, owner, stranger)
    before = state()
    api = client_for(editor)
    merge_id = api.post(MERGES, BODY, format="json").json()["id"]

    reverted = api.post(f"/api/v1/merges/{merge_id}/revert/")

    assert reverted.status_code == 201, reverted.content
    assert state() == before
    body = reverted.json()
    revert = CatalogChange.objects.get(reverts_id=merge_id)
    assert body["merge"]["reverted_by"] == revert.pk
    assert (body["revert"]["id"], body["revert"]["object_code"]) == (revert.pk, "I-901")
    assert body["revert"]["before"] is None and body["revert"]["after"]["name_en"] == "Potion!"
    again = api.post(f"/api/v1/merges/{merge_id}/revert/")
    assert again.status_code == 400
    assert state() == before


def test_the_history_revert_of_a_merge_is_the_merge_revert_too(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    _things(pair, owner, stranger)
    before = state()
    api = client_for(editor)
    merge_id = api.post(MERGES, BODY, format="json").json()["id"]

    assert api.post(f"/api/v1/changes/{merge_id}/revert/").status_code == 201
    assert state() == before


def test_a_refused_merge_or_revert_names_each_problem_and_writes_nothing(
    pair: Pair, owner: Any, editor: Any
) -> None:
    api = client_for(editor)
    unknown = api.post(MERGES, {**BODY, "duplicate": "NOPE-1", "into": "NOPE-2"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["problems"] == [
        {"where": "duplicate", "message": str(NO_SUCH_CARD % {"code": "NOPE-1"})},
        {"where": "into", "message": str(NO_SUCH_CARD % {"code": "NOPE-2"})},
    ]
    assert api.post(MERGES, {**BODY, "into": "I-901"}, format="json").status_code == 400
    assert api.post(MERGES, {"duplicate": "I-901"}, format="json").status_code == 400
    assert not CatalogChange.objects.exists()

    merge_id = api.post(MERGES, BODY, format="json").json()["id"]
    Card.objects.create(game=pair.keep.game, code="I-901", card_type="item", name_en="Again")
    merged = state()
    refused = api.post(f"/api/v1/merges/{merge_id}/revert/")
    assert refused.status_code == 400
    assert refused.json()["problems"][0]["message"] == str(CODE_BACK % {"code": "I-901"})
    assert state() == merged


def test_no_one_but_an_editor_merges_lists_or_reverts(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    _things(pair, owner, stranger)
    before = state()
    player = client_for(stranger)
    assert player.post(MERGES, BODY, format="json").status_code == 403
    assert player.get(MERGES).status_code == 403
    assert client_for(None).post(MERGES, BODY, format="json").status_code == 401
    assert state() == before

    merge_id = client_for(editor).post(MERGES, BODY, format="json").json()["id"]
    merged = state()
    assert player.post(f"/api/v1/merges/{merge_id}/revert/").status_code == 403
    assert player.post(f"/api/v1/changes/{merge_id}/revert/").status_code == 403
    assert client_for(None).post(f"/api/v1/merges/{merge_id}/revert/").status_code == 401
    assert state() == merged
    api = client_for(editor)
    assert api.post("/api/v1/games/no-such-game/merges/", BODY, format="json").status_code == 404
    assert api.post("/api/v1/merges/999999/revert/").status_code == 404


def test_a_change_that_is_no_merge_is_not_found_as_a_merge(
    pair: Pair, editor: Any, owner: Any
) -> None:
    from contributions.services import proposal_approve, proposal_submit
    from tests.contributions.conftest import SOURCE, hunter, payload

    proposal = proposal_submit(
        author=owner,
        game=pair.keep.game,
        kind="card",
        payload=payload(cards=[hunter("T-002", "Second Hunter")]),
        **SOURCE,
    )
    change = proposal_approve(proposal=proposal, editor=editor)[0]

    assert client_for(editor).post(f"/api/v1/merges/{change.pk}/revert/").status_code == 404


@pytest.mark.usefixtures("keep_the_test_connection")
def test_the_merge_operations_are_in_the_schema_and_answer_as_it_says(
    pair: Pair, owner: Any, stranger: Any, editor: Any
) -> None:
    _things(pair, owner, stranger)
    schema = _schema()
    editors, players = _headers(editor), _headers(stranger)
    game = {"game": "monster-hunter"}
    made = _call(schema, "POST", "/api/v1/games/{game}/merges/", editors, 201,
                 path_parameters=game, body=BODY)  # fmt: skip
    _call(schema, "GET", "/api/v1/games/{game}/merges/", editors, 200, path_parameters=game)
    _call(schema, "GET", "/api/v1/games/{game}/merges/", players, 403, path_parameters=game)
    ids = {"change_id": made.json()["id"]}
    _call(schema, "POST", "/api/v1/merges/{change_id}/revert/", players, 403, path_parameters=ids)
    _call(schema, "POST", "/api/v1/merges/{change_id}/revert/", editors, 201, path_parameters=ids)
    _call(schema, "POST", "/api/v1/merges/{change_id}/revert/", editors, 400, path_parameters=ids)

    failures = [
        _fuzz(result.ok(), caller)
        for caller in ({}, players, editors)
        for result in schema.get_all_operations()
        if "merges" in result.ok().path
    ]
    assert [f for f in failures if f] == []


def test_a_card_that_takes_the_duplicates_code_shows_no_moved_row_in_its_history(
    pair: Pair, owner: Any, editor: Any
) -> None:
    """The merge is in the history of the duplicate's code; once a new card has that code, its
    public history must not show what the merge moved (whose copies, their notes)."""
    add(owner, pair.dup_001, 3, note="a private note")
    merge_id = client_for(editor).post(MERGES, BODY, format="json").json()["id"]
    Card.objects.create(game=pair.keep.game, code="I-901", card_type="item", name_en="New")

    history = client_for(None).get("/api/v1/games/monster-hunter/cards/I-901/history/").json()
    page = client_for(None).get("/games/monster-hunter/cards/I-901/").content.decode()

    [merge] = [c for c in history["results"] if c["id"] == merge_id]
    assert merge["before"]["name_en"] == "Potion!" and "merge" not in merge["before"]
    assert f'data-change="{merge_id}"' in page
    for shown in (str(history), page):
        assert "a private note" not in shown and "collectionitem" not in shown
    # the record itself is whole: the revert reads it
    assert "merge" in CatalogChange.objects.get(pk=merge_id).before
