"""The editors' merge page (/contribute/review/<game>/merge/): an editor merges a duplicate
card by the two codes, decks and collections move with it, the page lists the merge with what
moved, and its Revert button puts every row back exactly; no one else may do any of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from catalog.models import Card
from collection.models import MAX_QUANTITY as MAX_COPIES
from collection.models import CollectionItem
from contributions.merge_collection import TOO_MANY_COPIES
from contributions.merge_requests import NO_SUCH_CARD
from contributions.models import CatalogChange
from decks.models import Deck, DeckEntry
from decks.specs import EntrySpec
from tests.contributions.merge_helpers import Pair, add, deck, make_pair, reserve, state

pytestmark = pytest.mark.django_db

URL = "/contribute/review/monster-hunter/merge/"
REASON = "Same card: I-901 was typed twice."
FORM = {"duplicate": "I-901", "into": "I-001", "reason": REASON}


@pytest.fixture
def pair(game: Any) -> Pair:
    return make_pair()


@pytest.fixture
def editor_client(editor: Any) -> Client:
    client = Client()
    client.force_login(editor)
    return client


def _players_things(pair: Pair, owner: Any, stranger: Any) -> dict[str, Any]:
    """Two players' decks and collections on the duplicate, pinned or not, reserved or not."""
    built = deck(owner, "Mine", [EntrySpec(pair.dup, "main", 2), EntrySpec(pair.keep, "main", 3)])
    theirs = deck(stranger, "Theirs", [EntrySpec(pair.dup, "main", 1, pair.dup_001)])
    dup_item = add(owner, pair.dup_001, 3, tags=("dup",))
    add(owner, pair.keep_001, 2)
    add(owner, pair.dup_050, 1)
    add(stranger, pair.dup_001, 2)
    reserve(built, dup_item, 2)
    return {"built": built, "theirs": theirs}


def _entries(d: Deck) -> set[tuple[str, int | None, str, int]]:
    return {
        (e.card.code, e.printing_id, e.zone, e.quantity)
        for e in DeckEntry.objects.filter(deck=d).select_related("card")
    }


def _items() -> set[tuple[str, str, int, int]]:
    return {
        (i.owner.username, i.card.code, i.printing_id, i.quantity)
        for i in CollectionItem.objects.select_related("owner", "card")
    }


def test_an_editor_merges_from_the_page_and_decks_and_collections_follow(
    pair: Pair, owner: Any, stranger: Any, editor_client: Client
) -> None:
    decks = _players_things(pair, owner, stranger)

    response = editor_client.post(URL, FORM)

    assert response.status_code == 302
    assert response["Location"] == "/games/monster-hunter/cards/I-001/"
    assert not Card.objects.filter(code="I-901").exists()
    assert _entries(decks["built"]) == {("I-001", None, "main", 5)}
    assert _entries(decks["theirs"]) == {("I-001", pair.keep_001.pk, "main", 1)}
    assert _items() == {
        ("owner", "I-001", pair.keep_001.pk, 5),  # 3 of the duplicate's + 2 already there
        ("owner", "I-001", pair.dup_050.pk, 1),  # a printing the survivor lacked: kept
        ("stranger", "I-001", pair.keep_001.pk, 2),
    }
    card_page = editor_client.get(response["Location"]).content.decode()
    # deck entries: the owner's 2 folded + the stranger's 1 moved; items: 3 of the duplicate's
    assert (
        "“I-901” was merged into “I-001” (deck entries moved: 2; collection items moved: 3)."
        in (card_page)
    )


def test_the_page_lists_the_merge_and_its_revert_button_restores_every_row_exactly(
    pair: Pair, owner: Any, stranger: Any, editor_client: Client
) -> None:
    _players_things(pair, owner, stranger)
    before = state()
    editor_client.post(URL, FORM)
    change = CatalogChange.objects.get()

    page = editor_client.get(URL).content.decode()
    assert f'data-merge="{change.pk}"' in page
    assert '<span data-count="deck_entries">2</span>' in page
    assert '<span data-count="collection_items">3</span>' in page
    assert f'action="/contribute/review/changes/{change.pk}/revert/"' in page

    reverted = editor_client.post(f"/contribute/review/changes/{change.pk}/revert/", {"next": URL})

    assert reverted.status_code == 302 and reverted["Location"] == URL
    assert state() == before
    change.refresh_from_db()
    assert change.reverted_by is not None
    after = editor_client.get(URL).content.decode()
    assert 'badge text-bg-secondary">reverted<' in after
    assert f'action="/contribute/review/changes/{change.pk}/revert/"' not in after


def test_a_refused_merge_shows_each_reason_on_the_form_and_changes_nothing(
    pair: Pair, owner: Any, editor_client: Client
) -> None:
    add(owner, pair.keep_001, MAX_COPIES)
    add(owner, pair.dup_001, 1)
    before = state()

    unknown = editor_client.post(URL, {**FORM, "duplicate": "NOPE-1", "into": "NOPE-2"})
    too_many = editor_client.post(URL, FORM)
    no_reason = editor_client.post(URL, {**FORM, "reason": ""})

    assert unknown.status_code == too_many.status_code == no_reason.status_code == 400
    html = unknown.content.decode()
    for code, field in (("NOPE-1", "duplicate"), ("NOPE-2", "into")):
        message = escape(NO_SUCH_CARD % {"code": code})
        assert f'<div class="invalid-feedback d-block" data-field="{field}">{message}</div>' in html
    assert str(TOO_MANY_COPIES % {"max": MAX_COPIES}) in too_many.content.decode()
    assert 'data-field="reason"' in no_reason.content.decode()
    assert state() == before
    assert not CatalogChange.objects.exists()


def test_the_form_is_filled_in_from_the_card_pages_merge_link(
    pair: Pair, editor_client: Client, owner_client: Client
) -> None:
    card_page = editor_client.get("/games/monster-hunter/cards/I-901/").content.decode()
    assert f'href="{URL}?duplicate=I-901" id="merge-card"' in card_page
    assert (
        'id="merge-card"'
        not in owner_client.get("/games/monster-hunter/cards/I-901/").content.decode()
    )

    form = editor_client.get(f"{URL}?duplicate=I-901").content.decode()
    assert 'name="duplicate" value="I-901"' in form


def test_no_one_but_an_editor_merges_or_reverts_a_merge(
    pair: Pair, owner: Any, stranger: Any, stranger_client: Client, editor_client: Client
) -> None:
    _players_things(pair, owner, stranger)
    before = state()

    assert stranger_client.get(URL).status_code == 403
    assert stranger_client.post(URL, FORM).status_code == 403
    anonymous = Client().post(URL, FORM)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert state() == before

    editor_client.post(URL, FORM)
    change = CatalogChange.objects.get()
    merged = state()
    refused = stranger_client.post(f"/contribute/review/changes/{change.pk}/revert/")
    assert refused.status_code == 403
    assert state() == merged
    assert editor_client.get("/contribute/review/no-such-game/merge/").status_code == 404
