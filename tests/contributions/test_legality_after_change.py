"""A deck using a corrected card reports the new verdict at once: its page (checked on every
read) and its stored ``is_legal`` (what listings and the API's ``legal`` filter read), after an
approval and after a revert of it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client

from catalog.models import Card, Game
from contributions.models import Proposal
from contributions.services import change_revert, proposal_approve, proposal_revert, proposal_submit
from decks.models import Deck
from decks.selectors import public_decks
from decks.services import deck_create
from decks.specs import EntrySpec
from tests.contributions.conftest import HUNTER, SOURCE, payload

pytestmark = pytest.mark.django_db

LEGAL = "Legal: this deck follows every construction rule."
NOT_LEGAL = "Not legal:"


def item(code: str) -> dict[str, Any]:
    return {
        "code": code,
        "type": "item",
        "name_en": f"Item {code}",
        "attributes": {"item_icons": ["meat"]},
        "printings": [{"set": "t1", "number": code[-3:]}],
    }


def _approved(author: Any, editor: Any, game: Game, body: dict[str, Any], **extra: Any) -> Any:
    proposal = proposal_submit(author=author, game=game, payload=body, **SOURCE, **extra)
    proposal_approve(proposal=proposal, editor=editor)
    return proposal


@pytest.fixture
def legal_deck(game: Game, owner: Any, editor: Any) -> Deck:
    """A public Monster Hunter deck that follows every rule: a hunter and 10 items × 4."""
    codes = [f"I-{n:03d}" for n in range(101, 111)]
    _approved(owner, editor, game, payload(cards=[item(c) for c in codes]), kind="card")
    entries = [EntrySpec(Card.objects.get(code="T-001"), "hunter", 1)]
    entries += [EntrySpec(Card.objects.get(code=c), "main", 4) for c in codes]
    deck = deck_create(
        owner=owner,
        game=game,
        name="Meat",
        entries=entries,
        visibility=Deck.Visibility.PUBLIC,
        default_printings=False,
    )
    assert deck.is_legal
    return deck


def _turn_item_into_hunter(owner: Any, editor: Any, game: Game) -> Proposal:
    """A correction: I-101 is in fact a hunter, which the main deck cannot hold."""
    corrected = {**item("I-101"), "type": "hunter", "attributes": copy.deepcopy(HUNTER)}
    return _approved(
        owner,
        editor,
        game,
        payload(cards=[corrected]),
        kind="correction",
        target_kind="card",
        target_code="I-101",
        reason="It is a hunter card.",
    )


def _page(client: Client, deck: Deck) -> str:
    response = client.get(deck.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def test_an_approved_correction_makes_a_deck_using_the_card_report_its_new_verdict_at_once(
    legal_deck: Deck, game: Game, owner: Any, editor: Any, client: Client
) -> None:
    assert LEGAL in _page(client, legal_deck)
    query = {"game": game.slug, "legal": "true", "player": "owner", "public": "1"}
    assert legal_deck.public_id in client.get("/api/v1/decks/", query).content.decode()
    _turn_item_into_hunter(owner, editor, game)
    legal_deck.refresh_from_db()
    assert not legal_deck.is_legal
    assert list(public_decks(game=game, legal_only=True)) == []
    page = _page(client, legal_deck)
    assert NOT_LEGAL in page and LEGAL not in page
    # the API's list filters on the stored verdict
    found = client.get("/api/v1/decks/", query)
    assert found.status_code == 200, found.content
    assert legal_deck.public_id not in found.content.decode()


def test_reverting_the_correction_gives_the_deck_its_verdict_back_at_once(
    legal_deck: Deck, game: Game, owner: Any, editor: Any, client: Client
) -> None:
    proposal = _turn_item_into_hunter(owner, editor, game)
    proposal_revert(proposal=proposal, editor=editor)
    legal_deck.refresh_from_db()
    assert legal_deck.is_legal
    assert list(public_decks(game=game, legal_only=True)) == [legal_deck]
    assert LEGAL in _page(client, legal_deck)


def test_reverting_one_change_refreshes_the_decks_using_its_card(
    legal_deck: Deck, game: Game, owner: Any, editor: Any
) -> None:
    proposal = _turn_item_into_hunter(owner, editor, game)
    [change] = proposal.changes.filter(object_kind="card")
    change_revert(change=change, editor=editor)
    legal_deck.refresh_from_db()
    assert legal_deck.is_legal


def test_a_deck_not_using_the_corrected_card_keeps_its_stored_verdict(
    legal_deck: Deck, game: Game, owner: Any, editor: Any
) -> None:
    other = deck_create(
        owner=owner,
        game=game,
        name="Hunter alone",
        entries=[EntrySpec(Card.objects.get(code="T-001"), "hunter", 1)],
        default_printings=False,
    )
    Deck.objects.filter(pk=other.pk).update(is_legal=True)  # a verdict no change may touch
    _turn_item_into_hunter(owner, editor, game)
    other.refresh_from_db()
    assert other.is_legal
