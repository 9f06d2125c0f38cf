"""A card withdrawn from the catalog (issue 21: "a revert takes them away and decks that used
them say so plainly"): reverting the creation of a card that a deck or a collection holds
keeps the row for them and takes it out of every list a player browses; the deck's legality
names it, with the catalog's note; reverting the revert lists it again."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from catalog.models import Card, Game, Printing
from collection.models import CollectionItem
from contributions.history import WITHDRAWN_BY_PROPOSAL
from contributions.models import CatalogChange, Proposal
from contributions.services import change_revert, proposal_approve, proposal_revert, proposal_submit
from decks.legality.check import check_deck
from decks.models import Deck
from decks.selectors import deck_facts
from decks.services import deck_create
from decks.specs import EntrySpec
from tests.conftest import _client_for
from tests.contributions.conftest import GAME, SOURCE, payload

pytestmark = pytest.mark.django_db

KEPT, KEPT_EN, KEPT_JA = "I-110", "Kept Potion", "残る回復薬"


def item(code: str, name_en: str, name_ja: str = "") -> dict[str, Any]:
    return {
        "code": code,
        "type": "item",
        "name_en": name_en,
        "name_ja": name_ja,
        "attributes": {"item_icons": ["meat"]},
        "printings": [{"set": "t1", "number": code[-3:]}],
    }


def _approved(owner: Any, editor: Any, game: Game, cards: list[dict[str, Any]]) -> Proposal:
    proposal = proposal_submit(
        author=owner, game=game, payload=payload(cards=cards), kind="card", **SOURCE
    )
    proposal_approve(proposal=proposal, editor=editor)
    return proposal


@pytest.fixture
def kept_proposal(game: Game, owner: Any, editor: Any) -> Proposal:
    """Nine items in one proposal, and ``KEPT`` alone in another (the one reverted)."""
    _approved(owner, editor, game, [item(f"I-{n:03d}", f"Item {n}") for n in range(101, 110)])
    return _approved(owner, editor, game, [item(KEPT, KEPT_EN, KEPT_JA)])


@pytest.fixture
def deck(game: Game, stranger: Any, kept_proposal: Proposal) -> Deck:
    """A legal deck of the stranger's: a hunter and ten items × 4, ``KEPT`` among them."""
    entries = [EntrySpec(Card.objects.get(code="T-001"), "hunter", 1)]
    entries += [EntrySpec(card, "main", 4) for card in Card.objects.filter(code__startswith="I-")]
    made = deck_create(owner=stranger, game=game, name="Potions", entries=entries)
    assert made.is_legal
    return made


@pytest.fixture
def withdrawn(
    deck: Deck,
    stranger: Any,
    kept_proposal: Proposal,
    editor: Any,
    django_capture_on_commit_callbacks: Any,
) -> Card:
    """``KEPT`` in the deck and in the stranger's collection, then its proposal reverted
    (committed: the catalog version moves as in production)."""
    printing = Printing.objects.get(card__code=KEPT)
    CollectionItem.objects.create(owner=stranger, printing=printing, quantity=3, language="ja")
    with django_capture_on_commit_callbacks(execute=True):
        proposal_revert(proposal=kept_proposal, editor=editor)
    return Card.objects.get(code=KEPT)


def _note(proposal: Proposal, language: str = "en") -> str:
    with translation.override(language):
        return str(WITHDRAWN_BY_PROPOSAL % {"number": proposal.pk})


def _codes(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def test_the_card_is_kept_for_the_deck_and_the_collection_and_withdrawn(
    withdrawn: Card, deck: Deck, stranger: Any, kept_proposal: Proposal
) -> None:
    assert withdrawn.withdrawn_at is not None
    assert withdrawn.withdrawn_note == _note(kept_proposal)
    assert withdrawn.withdrawn_note_ja == _note(kept_proposal, "ja") != withdrawn.withdrawn_note
    assert deck.entries.filter(card=withdrawn, quantity=4).exists()
    assert CollectionItem.objects.filter(owner=stranger, card=withdrawn, quantity=3).exists()
    assert Printing.objects.filter(card=withdrawn).count() == 1
    assert not Card.objects.listed().filter(pk=withdrawn.pk).exists()
    deck.refresh_from_db()
    assert deck.is_legal is False  # the stored verdict moved with the revert


def test_search_hides_a_withdrawn_card_everywhere_a_player_browses(
    withdrawn: Card, deck: Deck, client: Client, stranger_client: Client
) -> None:
    base = f"/games/{GAME}/"
    assert "I-101" in _codes(client.get(f"{base}?q=item").content.decode())  # the search works
    for query in ("?q=Kept", f"?q={KEPT_JA}", "?q=potion+unique:prints", "?type=item"):
        assert KEPT not in _codes(client.get(base + query).content.decode()), query
    assert KEPT not in _codes(client.get(f"{base}sets/t1/").content.decode())
    api = client.get(f"/api/v1/games/{GAME}/cards/?q=Kept").json()
    assert api["results"] == []
    assert client.get(f"/api/v1/games/{GAME}/cards/{KEPT}/").status_code == 404
    # the deck editor's search, and adding it by its code
    editor_search = stranger_client.get(
        f"/decks/{deck.public_id}/edit/search/?q=Kept", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert KEPT not in _codes(editor_search)
    added = stranger_client.post(
        f"/decks/{deck.public_id}/edit/add/",
        {"version": deck.version, "card": KEPT, "zone": "main"},
        HTTP_HX_REQUEST="true",
    )
    assert deck.entries.get(card=withdrawn).quantity == 4, added.content.decode()[-1000:]
    # the collection's "add": its printing is not offered any more
    printing = Printing.objects.get(card=withdrawn)
    refused = stranger_client.post(
        "/collection/add/",
        {"printing": printing.pk, "quantity": "1", "condition": "near_mint",
         "finish": "normal", "language": "ja", "binder": ""},
    )  # fmt: skip
    assert refused.status_code in (200, 400)
    assert CollectionItem.objects.get(card=withdrawn).quantity == 3


def test_the_card_page_answers_410_gone_with_the_note(
    withdrawn: Card, client: Client, kept_proposal: Proposal
) -> None:
    page = client.get(f"/games/{GAME}/cards/{KEPT}/")
    assert page.status_code == 410
    html = page.content.decode()
    assert 'id="card-withdrawn"' in html and escape(_note(kept_proposal)) in html
    assert client.get(f"/games/{GAME}/cards/NO-SUCH/").status_code == 404
    japanese = client.get(f"/games/{GAME}/cards/{KEPT}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert japanese.status_code == 410 and KEPT_JA in japanese.content.decode()
    assert escape(_note(kept_proposal, "ja")) in japanese.content.decode()


def test_the_deck_legality_names_the_card_and_the_note_in_english_and_japanese(
    withdrawn: Card, deck: Deck, kept_proposal: Proposal
) -> None:
    problems = [p for p in check_deck(deck_facts(deck=deck)) if p.code == "withdrawn-card"]
    [problem] = problems
    record = problem.as_dict()
    note = _note(kept_proposal)
    assert record["severity"] == "error" and record["zone"] == "main"
    assert record["message"]["en"] == f"{KEPT_EN} was withdrawn from the catalog: {note}"
    assert record["fix"]["en"] == f"Replace {KEPT_EN} with a card of the catalog."
    # Japanese names the card by its Japanese name, and gives the note in Japanese
    japanese = record["message"]["ja"]
    assert KEPT_JA in japanese and _note(kept_proposal, "ja") in japanese
    assert note not in record["message"]["ja"]
    assert KEPT_EN not in record["message"]["ja"] and KEPT_JA in record["fix"]["ja"]
    assert record["cards"] == [{"code": KEPT, "name_en": KEPT_EN, "name_ja": KEPT_JA}]


def test_the_deck_page_the_editor_the_api_and_the_collection_say_so(
    withdrawn: Card, deck: Deck, stranger_client: Client, kept_proposal: Proposal
) -> None:
    note = escape(_note(kept_proposal))
    for url in (f"/decks/{deck.public_id}/", f"/decks/{deck.public_id}/edit/"):
        html = stranger_client.get(url).content.decode()
        assert f'data-withdrawn="{KEPT}"' in html, url
        assert note in html, url
    page = stranger_client.get(f"/decks/{deck.public_id}/").content.decode()
    assert 'data-problem="withdrawn-card"' in page
    legality = stranger_client.get(f"/api/v1/decks/{deck.public_id}/").json()["legality"]
    assert legality["legal"] is False
    assert [p["code"] for p in legality["problems"]] == ["withdrawn-card"]
    binder = stranger_client.get(f"/collection/{GAME}/").content.decode()
    assert f'data-withdrawn="{KEPT}"' in binder


def test_a_card_no_one_holds_is_still_deleted(
    kept_proposal: Proposal, editor: Any, game: Game
) -> None:
    proposal_revert(proposal=kept_proposal, editor=editor)
    assert not Card.objects.filter(code=KEPT).exists()
    assert not Printing.objects.filter(card__code=KEPT).exists()


def test_reverting_the_revert_lists_the_card_again(
    withdrawn: Card,
    deck: Deck,
    editor: Any,
    client: Client,
    kept_proposal: Proposal,
    django_capture_on_commit_callbacks: Any,
) -> None:
    created = CatalogChange.objects.get(proposal=kept_proposal, object_kind="card")
    revert = CatalogChange.objects.get(reverts=created)
    # the withdrawn card's page keeps its history, with the revert's own Revert button
    gone = _client_for(editor).get(f"/games/{GAME}/cards/{KEPT}/")
    assert gone.status_code == 410
    assert f"/contribute/review/changes/{revert.pk}/revert/" in gone.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        again = change_revert(change=revert, editor=editor)
    withdrawn.refresh_from_db()
    assert (withdrawn.withdrawn_at, withdrawn.withdrawn_note) == (None, "")
    # recorded as a change like any other: the card back, as it was created
    assert (again.object_kind, again.before, again.after) == ("card", None, created.after)
    assert again.reverts == revert
    assert KEPT in _codes(client.get(f"/games/{GAME}/?q=Kept").content.decode())
    assert client.get(f"/games/{GAME}/cards/{KEPT}/").status_code == 200
    deck.refresh_from_db()
    assert deck.is_legal
    assert not [p for p in check_deck(deck_facts(deck=deck)) if p.code == "withdrawn-card"]
