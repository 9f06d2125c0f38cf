"""Proposals: submitted through the importer's checks, decided by editors, applied with their
history, reverted as recorded changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.cache import catalog_version
from catalog.models import Card, CardSet, Game, Printing, Product
from collection.models import CollectionItem
from contributions import errors
from contributions.errors import NotAllowed, ProposalError, RateLimited
from contributions.models import CatalogChange, Proposal, ProposalEvent
from contributions.services import (
    change_revert,
    proposal_approve,
    proposal_ask,
    proposal_reject,
    proposal_resubmit,
    proposal_revert,
    proposal_submit,
    proposal_withdraw,
    set_lock,
    set_unlock,
)
from decks.models import Deck, DeckEntry
from tests.conftest import _user
from tests.contributions.conftest import SOURCE, hunter, kind_of, payload


def submit(author: Any, game: Game, data: dict[str, Any], **extra: Any) -> Proposal:
    chosen = extra if "kind" in extra else {**kind_of(game, data), **extra}
    return proposal_submit(author=author, game=game, payload=data, **SOURCE, **chosen)


def messages(exc: pytest.ExceptionInfo[ProposalError]) -> list[tuple[str, str]]:
    return [(p.where, p.message) for p in exc.value.problems]


# --- submitting ------------------------------------------------------------------------------


def test_a_good_card_proposal_is_open_and_writes_nothing_to_the_catalog(
    owner: Any, game: Game
) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "New Hunter")]))
    assert proposal.state == Proposal.State.OPEN
    assert not Card.objects.filter(code="T-002").exists()
    assert list(proposal.events.values_list("action", flat=True)) == ["submitted"]


def test_every_problem_of_the_payload_is_reported_with_its_place(owner: Any, game: Game) -> None:
    bad = hunter("T-002", "")
    bad["attributes"]["attack"] = "many"
    bad["printings"][0]["set"] = "t11"
    with pytest.raises(ProposalError) as exc:
        submit(owner, game, payload(cards=[bad, {"code": "T-003", "name_en": "x"}]))
    wheres = [where for where, _message in messages(exc)]
    assert "payload: cards[0]" in wheres  # no name, bad attack
    assert "payload: cards[0].printings[0]" in wheres  # unknown set t11, did you mean t1
    assert "payload: cards[1].type" in wheres  # missing
    assert any("'t1'" in message for _where, message in messages(exc))
    assert not Proposal.objects.exists()


def test_a_payload_naming_another_game_is_refused(owner: Any, game: Game) -> None:
    data = payload(cards=[hunter("T-002", "x")]) | {"game": "mattsan"}
    with pytest.raises(ProposalError) as exc:
        submit(owner, game, data)
    expected = str(errors.OTHER_GAME % {"game": "monster-hunter", "other": "mattsan"})
    assert messages(exc) == [("payload: game", expected)]


def test_an_empty_payload_is_refused(owner: Any, game: Game) -> None:
    with pytest.raises(ProposalError) as exc:
        submit(owner, game, payload())
    assert messages(exc) == [(errors.WHOLE, str(errors.PAYLOAD_EMPTY))]


def test_a_publisher_page_needs_its_address(owner: Any, game: Game) -> None:
    with pytest.raises(ProposalError) as exc:
        proposal_submit(
            author=owner,
            game=game,
            kind="card",
            payload=payload(cards=[hunter("T-002", "x")]),
            source_kind="publisher_page",
            source_detail="the official list",
        )
    assert messages(exc) == [("source_url", str(errors.SOURCE_URL_REQUIRED))]


def test_a_correction_needs_its_target_and_reason(owner: Any, game: Game) -> None:
    with pytest.raises(ProposalError):
        submit(owner, game, payload(cards=[hunter("T-001", "Fixed")]), kind="correction")
    proposal = submit(
        owner,
        game,
        payload(cards=[hunter("T-001", "Fixed")]),
        kind="correction",
        target_kind="card",
        target_code="T-001",
        reason="the printed name",
    )
    assert proposal.target_code == "T-001"


def test_a_locked_set_refuses_proposals_touching_it_until_unlocked(
    owner: Any, editor: Any, game: Game
) -> None:
    card_set = CardSet.objects.get(code="t1")
    set_lock(card_set=card_set, editor=editor)
    with pytest.raises(ProposalError) as exc:
        submit(owner, game, payload(cards=[hunter("T-002", "x")]))
    assert messages(exc) == [
        ("payload: cards[0].printings[0]", str(errors.SET_LOCKED % {"set": "t1"}))
    ]
    set_unlock(card_set=card_set, editor=editor)
    assert submit(owner, game, payload(cards=[hunter("T-002", "x")])).pk


def test_a_player_cannot_lock_a_set(owner: Any, game: Game) -> None:
    with pytest.raises(NotAllowed):
        set_lock(card_set=CardSet.objects.get(code="t1"), editor=owner)


@pytest.mark.parametrize(
    ("already", "accepted"),
    [(28, True), (29, True), (30, False)],
    ids=["the 29th is accepted", "the 30th is accepted", "the 31st is refused"],
)
@override_settings(CONTRIBUTIONS_PROPOSALS_PER_HOUR=30)
def test_proposals_are_limited_per_player_and_hour(
    owner: Any, stranger: Any, game: Game, already: int, accepted: bool
) -> None:
    recent = timezone.now() - timedelta(minutes=59)
    old = timezone.now() - timedelta(minutes=61)

    def made(author: Any, at: Any, count: int) -> list[Proposal]:
        return [
            Proposal(game=game, author=author, kind="card", payload={}, created_at=at, **SOURCE)
            for _ in range(count)
        ]

    # older than an hour, or another player's: not counted
    Proposal.objects.bulk_create(
        made(owner, recent, already) + made(owner, old, 5) + made(stranger, recent, 40)
    )
    data = payload(cards=[hunter("T-002", "x")])
    if accepted:
        assert submit(owner, game, data).state == Proposal.State.OPEN
    else:
        with pytest.raises(RateLimited) as exc:
            submit(owner, game, data)
        assert messages(exc) == [(errors.WHOLE, str(errors.RATE_LIMITED % {"max": 30}))]
    assert Proposal.objects.filter(author=owner).count() == already + 5 + accepted


def test_a_custom_cards_code_is_never_overwritten(owner: Any, stranger: Any, game: Game) -> None:
    Card.objects.create(game=game, code="MY-1", card_type="hunter", name_en="Mine", owner=stranger)
    with pytest.raises(ProposalError) as exc:
        submit(owner, game, payload(cards=[hunter("MY-1", "Taken")]))
    assert messages(exc) == [("payload: cards[0]", str(errors.CODE_TAKEN % {"code": "MY-1"}))]


# --- deciding --------------------------------------------------------------------------------


def test_a_contributor_cannot_decide_their_own_proposal_even_as_an_editor(
    editor: Any, game: Game
) -> None:
    proposal = submit(editor, game, payload(cards=[hunter("T-002", "x")]))
    for decide in (proposal_approve, proposal_reject, proposal_ask):
        kwargs = {} if decide is proposal_approve else {"note": "no"}
        with pytest.raises(NotAllowed) as exc:
            decide(proposal=proposal, editor=editor, **kwargs)
        assert messages(exc) == [(errors.WHOLE, str(errors.OWN_PROPOSAL))]
    assert Proposal.objects.get().state == Proposal.State.OPEN


def test_a_player_who_is_not_an_editor_cannot_review(owner: Any, stranger: Any, game: Game) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "x")]))
    with pytest.raises(NotAllowed) as exc:
        proposal_approve(proposal=proposal, editor=stranger)
    assert messages(exc) == [(errors.WHOLE, str(errors.NOT_EDITOR))]
    assert not Card.objects.filter(code="T-002").exists()


def test_staff_are_editors(owner: Any, game: Game) -> None:
    staff = _user("staff")
    staff.is_staff = True
    staff.save()
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "x")]))
    assert len(proposal_approve(proposal=proposal, editor=staff)) == 2


def test_only_the_author_resubmits_or_withdraws(owner: Any, stranger: Any, game: Game) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "x")]))
    with pytest.raises(NotAllowed):
        proposal_resubmit(proposal=proposal, author=stranger, payload=proposal.payload)
    with pytest.raises(NotAllowed):
        proposal_withdraw(proposal=proposal, author=stranger)
    proposal_withdraw(proposal=proposal, author=owner)
    assert proposal.state == Proposal.State.WITHDRAWN


def test_asked_then_resubmitted_then_approved_keeps_every_step(
    owner: Any, editor: Any, game: Game
) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "Tpyo")]))
    with pytest.raises(ProposalError):
        proposal_ask(proposal=proposal, editor=editor, note="  ")
    proposal_ask(proposal=proposal, editor=editor, note="the name has a typo")
    assert proposal.state == Proposal.State.CHANGES_REQUESTED
    with pytest.raises(ProposalError):  # waits for the contributor
        proposal_approve(proposal=proposal, editor=editor)
    proposal_resubmit(
        proposal=proposal, author=owner, payload=payload(cards=[hunter("T-002", "Typo")])
    )
    proposal_approve(proposal=proposal, editor=editor)
    assert Card.objects.get(code="T-002").name_en == "Typo"
    actions = list(ProposalEvent.objects.filter(proposal=proposal).values_list("action", "note"))
    assert actions == [
        ("submitted", ""),
        ("asked", "the name has a typo"),
        ("resubmitted", ""),
        ("approved", ""),
    ]


def test_a_rejected_proposal_says_why_and_cannot_be_approved(
    owner: Any, editor: Any, second_editor: Any, game: Game
) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "x")]))
    proposal_reject(proposal=proposal, editor=editor, note="no source")
    assert (proposal.state, proposal.decision_note, proposal.decided_by) == (
        "rejected",
        "no source",
        editor,
    )
    with pytest.raises(ProposalError) as exc:
        proposal_approve(proposal=proposal, editor=second_editor)
    assert messages(exc) == [(errors.WHOLE, str(errors.NOT_OPEN % {"state": "Rejected"}))]


# --- applying --------------------------------------------------------------------------------


def test_approving_applies_through_the_importer_with_the_history_and_moves_the_version(
    owner: Any, editor: Any, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "New Hunter")]))
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        changes = proposal_approve(proposal=proposal, editor=editor)
    assert catalog_version() > version
    assert Printing.objects.filter(card__code="T-002", card_set__code="t1").exists()
    rows = CatalogChange.objects.order_by("id")
    assert [(c.object_kind, c.object_code, c.before) for c in rows] == [
        ("card", "T-002", None),
        ("printing", "T-002/t1/002", None),
    ]
    assert [c.pk for c in changes] == [c.pk for c in rows]
    card = rows[0]
    assert card.after is not None and card.after["name_en"] == "New Hunter"
    assert (card.proposal, card.proposed_by, card.approved_by) == (proposal, owner, editor)
    assert card.source == "my own copy of the starter"
    assert proposal.state == Proposal.State.APPROVED


def test_a_correction_records_the_fields_before_and_after(
    owner: Any, editor: Any, game: Game
) -> None:
    fixed = hunter("T-001", "Test Hunter", number="001") | {"name_ja": "テストハンター"}
    proposal = submit(owner, game, payload(cards=[fixed]), kind="names")
    [change] = proposal_approve(proposal=proposal, editor=editor)
    assert change.before is not None and change.after is not None
    assert (change.before["name_ja"], change.after["name_ja"]) == ("", "テストハンター")
    # the printing was named but did not change: no history for it
    assert CatalogChange.objects.count() == 1


def test_a_proposal_the_catalog_no_longer_accepts_is_refused_whole_at_approval(
    owner: Any, editor: Any, game: Game
) -> None:
    proposal = submit(owner, game, payload(cards=[hunter("T-002", "x")]))
    set_lock(card_set=CardSet.objects.get(code="t1"), editor=editor)
    with pytest.raises(ProposalError):
        proposal_approve(proposal=proposal, editor=editor)
    assert not Card.objects.filter(code="T-002").exists()
    assert not CatalogChange.objects.exists()
    assert Proposal.objects.get().state == Proposal.State.OPEN


@pytest.mark.parametrize("kind", ["card", "sheet"])
def test_a_new_card_whose_code_the_catalog_took_meanwhile_is_refused_not_overwritten(
    owner: Any, stranger: Any, editor: Any, game: Game, kind: str
) -> None:
    first = submit(owner, game, payload(cards=[hunter("T-009", "First")]), kind=kind)
    second = submit(stranger, game, payload(cards=[hunter("T-009", "Second")]), kind=kind)
    proposal_approve(proposal=first, editor=editor)
    with pytest.raises(ProposalError) as exc:
        proposal_approve(proposal=second, editor=editor)
    assert messages(exc) == [("payload: cards[0]", str(errors.CODE_TAKEN % {"code": "T-009"}))]
    assert Card.objects.get(code="T-009").name_en == "First"
    with pytest.raises(ProposalError):  # and a new proposal of it is refused at once
        submit(stranger, game, payload(cards=[hunter("T-009", "Third")]), kind=kind)


def test_a_new_set_whose_code_exists_is_refused(owner: Any, game: Game) -> None:
    taken = {"code": "t1", "name_en": "Again", "kind": "base"}
    with pytest.raises(ProposalError) as exc:
        submit(owner, game, payload(sets=[taken]), kind="set")
    assert messages(exc) == [("payload: sets[0]", str(errors.CODE_TAKEN % {"code": "t1"}))]


# --- reverting -------------------------------------------------------------------------------


def approved(owner: Any, editor: Any, game: Game, *cards: dict[str, Any]) -> list[CatalogChange]:
    return proposal_approve(proposal=submit(owner, game, payload(cards=list(cards))), editor=editor)


def test_reverting_a_correction_brings_the_field_back_and_is_itself_a_change(
    owner: Any, editor: Any, second_editor: Any, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    [change] = approved(owner, editor, game, hunter("T-001", "Renamed", number="001"))
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        revert = change_revert(change=change, editor=second_editor)
    assert catalog_version() > version
    assert Card.objects.get(code="T-001").name_en == "Test Hunter"
    assert (revert.before, revert.after) == (change.after, change.before)
    assert (revert.reverts, change.reverted_by) == (change, revert)
    assert revert.approved_by == second_editor
    with pytest.raises(ProposalError) as exc:
        change_revert(change=change, editor=second_editor)
    assert messages(exc) == [(errors.WHOLE, str(errors.ALREADY_REVERTED))]
    # the revert of the revert is the correction again
    change_revert(change=revert, editor=editor)
    assert Card.objects.get(code="T-001").name_en == "Renamed"


def test_a_change_overtaken_by_a_later_one_is_not_reverted(
    owner: Any, editor: Any, game: Game
) -> None:
    [first] = approved(owner, editor, game, hunter("T-001", "One", number="001"))
    approved(owner, editor, game, hunter("T-001", "Two", number="001"))
    with pytest.raises(ProposalError) as exc:
        change_revert(change=first, editor=editor)
    assert messages(exc) == [(errors.WHOLE, str(errors.CHANGED_SINCE))]
    assert Card.objects.get(code="T-001").name_en == "Two"


def test_reverting_a_created_card_removes_it_with_its_printings(
    owner: Any, editor: Any, game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    card_change, _printing = approved(owner, editor, game, hunter("T-002", "Gone soon"))
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        revert = change_revert(change=card_change, editor=editor)
    assert catalog_version() > version
    assert not Card.objects.filter(code="T-002").exists()
    assert not Printing.objects.filter(card__code="T-002").exists()
    assert (revert.object_kind, revert.after) == ("card", None)
    removed = CatalogChange.objects.filter(object_kind="printing", after__isnull=True).get()
    assert removed.before == {
        "card": "T-002",
        "set": "t1",
        "number": "002",
        "variant": "",
        "attributes": {},
    }


def test_a_created_card_held_by_decks_and_collections_is_withdrawn_not_removed(
    owner: Any, editor: Any, stranger: Any, friend: Any, game: Game
) -> None:
    card_change, _printing = approved(owner, editor, game, hunter("T-002", "Kept"))
    card = Card.objects.get(code="T-002")
    printing = card.printings.get()
    for player, name in ((stranger, "Secret plan"), (friend, "Other"), (stranger, "Third")):
        deck = Deck.objects.create(owner=player, game=game, name=name)
        DeckEntry.objects.create(deck=deck, card=card, zone="main", quantity=1)
    for player in (stranger, friend):
        CollectionItem.objects.create(owner=player, printing=printing, quantity=1, language="ja")
    revert = change_revert(change=card_change, editor=editor)
    # kept for the decks and collections, with its printing, out of the catalog
    card.refresh_from_db()
    assert card.withdrawn_at is not None
    assert (
        card.withdrawn_note
        == f"Proposal #{card_change.proposal_id} was reverted by a catalog editor."
    )
    assert list(card.printings.all()) == [printing]
    assert DeckEntry.objects.filter(card=card).count() == 3
    assert CollectionItem.objects.filter(printing=printing).count() == 2
    assert not Card.objects.listed().filter(code="T-002").exists()
    assert (revert.object_kind, revert.before, revert.after) == ("card", card_change.after, None)


def test_a_created_set_with_printings_in_it_is_not_removed(
    owner: Any, editor: Any, game: Game
) -> None:
    data = payload(
        sets=[{"code": "t2", "name_en": "Two"}], cards=[hunter("T-002", "x", set_code="t2")]
    )
    set_change, card_change, _p = proposal_approve(
        proposal=submit(owner, game, data, kind="set"), editor=editor
    )
    with pytest.raises(ProposalError) as exc:
        change_revert(change=set_change, editor=editor)
    expected = errors.SET_NOT_EMPTY % {"code": "t2", "holders": "1 printing"}
    assert messages(exc) == [(errors.WHOLE, str(expected))]
    change_revert(change=card_change, editor=editor)
    change_revert(change=set_change, editor=editor)
    assert not CardSet.objects.filter(code="t2").exists()


def test_only_editors_revert(owner: Any, editor: Any, game: Game) -> None:
    [change] = approved(owner, editor, game, hunter("T-001", "Renamed", number="001"))
    with pytest.raises(NotAllowed):
        change_revert(change=change, editor=owner)


def test_reverting_a_products_correction_brings_its_contents_back(
    owner: Any, editor: Any, game: Game
) -> None:
    starter = {"code": "t-starter", "kind": "starter", "set": "t1", "name_en": "Starter"}
    data = payload() | {"products": [starter | {"items": [{"card": "T-001", "quantity": 4}]}]}
    [created] = proposal_approve(proposal=submit(owner, game, data, kind="set"), editor=editor)
    fixed = payload() | {"products": [starter | {"items": [{"card": "T-001", "quantity": 3}]}]}
    [corrected] = proposal_approve(proposal=submit(owner, game, fixed), editor=editor)
    assert corrected.before == created.after
    assert corrected.after is not None and corrected.after["items"][0]["quantity"] == 3
    change_revert(change=corrected, editor=editor)
    product = Product.objects.get(code="t-starter")
    assert list(product.items.values_list("quantity", flat=True)) == [4]
    change_revert(change=corrected.reverted_by, editor=editor)  # type: ignore[arg-type]
    assert list(product.items.values_list("quantity", flat=True)) == [3]


def test_reverting_a_whole_set_proposal_takes_everything_away_or_nothing(
    owner: Any,
    editor: Any,
    stranger: Any,
    game: Game,
    django_capture_on_commit_callbacks: Any,
) -> None:
    cards = [hunter(f"T2-{n:03d}", f"Card {n}", set_code="t2") for n in range(1, 4)]
    starter = {"code": "t2-starter", "kind": "starter", "set": "t2", "name_en": "Starter"}
    items = [{"card": card["code"], "quantity": 2} for card in cards]
    data = payload(sets=[{"code": "t2", "name_en": "Two"}], cards=cards) | {
        "products": [starter | {"items": items}]
    }
    proposal = submit(owner, game, data, kind="sheet")
    with pytest.raises(ProposalError) as exc:  # not applied yet
        proposal_revert(proposal=proposal, editor=editor)
    assert messages(exc) == [(errors.WHOLE, str(errors.NOT_APPLIED))]
    assert len(proposal_approve(proposal=proposal, editor=editor)) == 8
    deck = Deck.objects.create(owner=stranger, game=game, name="Private")
    DeckEntry.objects.create(
        deck=deck, card=Card.objects.get(code="T2-002"), zone="main", quantity=1
    )
    # the card the deck holds would be withdrawn, kept with its printing: its set cannot go
    with pytest.raises(ProposalError) as exc:
        proposal_revert(proposal=proposal, editor=editor)
    held = errors.SET_NOT_EMPTY % {"code": "t2", "holders": "1 printing"}
    assert messages(exc) == [("set t2", str(held))]
    assert Card.objects.filter(code__startswith="T2-").count() == 3  # nothing reverted
    assert not CatalogChange.objects.filter(reverts__isnull=False).exists()
    deck.delete()
    version = catalog_version()
    with django_capture_on_commit_callbacks(execute=True):
        reverts = proposal_revert(proposal=proposal, editor=editor)
    assert catalog_version() > version
    assert [(r.object_kind, r.after) for r in reverts] == [
        ("product", None),
        ("printing", None),
        ("printing", None),
        ("printing", None),
        ("card", None),
        ("card", None),
        ("card", None),
        ("set", None),
    ]
    assert not Card.objects.filter(code__startswith="T2-").exists()
    assert not CardSet.objects.filter(code="t2").exists()
    assert not CatalogChange.objects.filter(proposal=proposal, reverted_by__isnull=True).exists()
    assert proposal.events.filter(action="reverted").count() == 1


def test_a_created_printing_a_deck_pins_is_not_removed(
    owner: Any, editor: Any, stranger: Any, game: Game
) -> None:
    promo = hunter("T-001", "Test Hunter", number="001")
    promo["printings"].append({"set": "t1", "number": "001-P"})
    [change] = approved(owner, editor, game, promo)
    assert change.object_code == "T-001/t1/001-P"
    card = Card.objects.get(code="T-001")
    deck = Deck.objects.create(owner=stranger, game=game, name="Pinned")
    DeckEntry.objects.create(
        deck=deck,
        card=card,
        printing=card.printings.get(collector_number="001-P"),
        zone="main",
        quantity=1,
    )
    with pytest.raises(ProposalError) as exc:
        change_revert(change=change, editor=editor)
    held = errors.ROW_HELD % {"code": "T-001/t1/001-P", "holders": "1 deck"}
    assert messages(exc) == [(errors.WHOLE, str(held))]
    DeckEntry.objects.filter(deck=deck).update(printing=None)
    change_revert(change=change, editor=editor)
    assert list(card.printings.values_list("collector_number", flat=True)) == ["001"]
    assert DeckEntry.objects.filter(deck=deck, card=card).exists()


def test_a_proposal_adding_a_new_card_to_a_product_reverts_both(
    owner: Any, editor: Any, game: Game
) -> None:
    starter = {"code": "t-starter", "kind": "starter", "set": "t1", "name_en": "Starter"}
    one = [{"card": "T-001", "quantity": 4}]
    base = payload() | {"products": [starter | {"items": one}]}
    proposal_approve(proposal=submit(owner, game, base, kind="set"), editor=editor)
    both = [*one, {"card": "T-002", "quantity": 1}]
    data = payload(cards=[hunter("T-002", "New")]) | {"products": [starter | {"items": both}]}
    proposal = submit(owner, game, data)
    assert len(proposal_approve(proposal=proposal, editor=editor)) == 3
    proposal_revert(proposal=proposal, editor=editor)
    assert not Card.objects.filter(code="T-002").exists()
    items = Product.objects.get(code="t-starter").items.values_list(
        "printing__card__code", "quantity"
    )
    assert list(items) == [("T-001", 4)]


@pytest.mark.parametrize("count", [3, 30])
def test_reverting_a_names_proposal_restores_every_card_in_a_fixed_number_of_queries(
    owner: Any, editor: Any, game: Game, count: int
) -> None:
    codes = [f"N-{n:03d}" for n in range(count)]
    approved(owner, editor, game, *(hunter(code, f"Name {code}") for code in codes))
    japanese = [hunter(code, f"Name {code}") | {"name_ja": f"名前{code}"} for code in codes]
    proposal = submit(owner, game, payload(cards=japanese), kind="names")
    assert len(proposal_approve(proposal=proposal, editor=editor)) == count
    with CaptureQueriesContext(connection) as queries:
        reverts = proposal_revert(proposal=proposal, editor=editor)
    assert len(reverts) == count
    assert set(Card.objects.filter(code__in=codes).values_list("name_ja", flat=True)) == {""}
    assert all(r.reverts is not None and r.reverts.proposal == proposal for r in reverts)
    assert len(queries) <= 25  # measured: 24 for 3 cards and for 30, +1 for the decks using them
