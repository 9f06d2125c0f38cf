"""Deck services: stale edits refused, one immutable revision per save, clones and products."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.http import Http404

from catalog.models import Card, Product
from decks import errors
from decks.models import Deck, DeckEntry, DeckRevision
from decks.selectors import (
    deck_get_for_owner,
    deck_get_for_viewer,
    decks_of_player,
    public_decks,
)
from decks.services import (
    deck_clone,
    deck_create,
    deck_entry_add,
    deck_entry_set,
    deck_entry_update,
    deck_from_product,
    deck_restore,
    deck_update,
)
from decks.snapshots import diff_snapshots
from decks.specs import EntrySpec
from games import registry


@pytest.fixture
def catalog(db: None) -> None:
    for game in ("mattsan", "monster-hunter"):
        call_command("import_catalog", str(registry.get(game).catalog_file), verbosity=0)


@pytest.fixture
def mattsan_starter(catalog: None) -> Product:
    return Product.objects.get(game__slug="mattsan", code="MTD-ST1")


def test_a_deck_from_a_product_is_legal_and_has_its_first_revision(
    owner: Any, mattsan_starter: Product
) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    assert deck.is_legal
    assert deck.card_count == 30
    assert deck.source_product == mattsan_starter
    revision = DeckRevision.objects.get(deck=deck)
    assert revision.number == 1
    assert sum(e["quantity"] for e in revision.snapshot["entries"]) == 30


def test_every_save_adds_an_immutable_revision_with_a_summary(
    owner: Any, mattsan_starter: Product
) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    entry = DeckEntry.objects.filter(deck=deck).first()
    assert entry is not None
    card = entry.card
    deck_entry_add(
        deck=deck,
        user=owner,
        expected_version=deck.version,
        card=card,
        zone="main",
        delta=-1,
        printing=entry.printing,
    )
    deck.refresh_from_db()
    assert not deck.is_legal and deck.card_count == 29
    revisions = list(DeckRevision.objects.filter(deck=deck).order_by("number"))
    assert [r.number for r in revisions] == [1, 2]
    assert revisions[1].summary.startswith("−1 ")
    diff = diff_snapshots(revisions[0].snapshot, revisions[1].snapshot)
    assert [(c.card, c.delta) for c in diff.entries] == [(card.code, -1)]


def test_a_stale_edit_is_refused_and_changes_nothing(owner: Any, mattsan_starter: Product) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    stale_version = deck.version
    deck_update(deck=deck, user=owner, expected_version=stale_version, name="Mine")
    other = Deck.objects.get(pk=deck.pk)  # a second tab that read the old version
    card = DeckEntry.objects.filter(deck=deck).first().card  # type: ignore[union-attr]
    with pytest.raises(errors.StaleDeckError):
        deck_entry_set(
            deck=other,
            user=owner,
            expected_version=stale_version,
            card=card,
            zone="main",
            quantity=1,
        )
    deck.refresh_from_db()
    assert deck.name == "Mine"
    assert deck.card_count == 30
    assert DeckRevision.objects.filter(deck=deck).count() == 2


def test_moving_an_entry_onto_an_identical_one_merges_them(owner: Any, catalog: None) -> None:
    hunter = Card.objects.filter(game__slug="monster-hunter", card_type="hunter").first()
    assert hunter is not None
    deck = deck_create(
        owner=owner,
        game=hunter.game,
        name="t",
        entries=[EntrySpec(hunter, "main", 1), EntrySpec(hunter, "hunter", 1)],
    )
    moved = DeckEntry.objects.get(deck=deck, zone="main")
    deck_entry_update(
        deck=deck, user=owner, expected_version=deck.version, entry=moved, zone="hunter"
    )
    assert list(DeckEntry.objects.filter(deck=deck).values_list("zone", "quantity")) == [
        ("hunter", 2)
    ]


def test_services_refuse_bad_entries_with_the_field(owner: Any, catalog: None) -> None:
    hunter = Card.objects.filter(game__slug="monster-hunter", card_type="hunter").first()
    unit = Card.objects.filter(game__slug="mattsan").first()
    assert hunter is not None and unit is not None
    cases = [
        (EntrySpec(unit, "main", 1), "card"),
        (EntrySpec(hunter, "sideboard", 1), "zone"),
        (EntrySpec(hunter, "main", 0), "quantity"),
        (EntrySpec(hunter, "main", 100), "quantity"),
    ]
    for spec, field in cases:
        with pytest.raises(errors.DeckError) as caught:
            deck_create(owner=owner, game=hunter.game, name="t", entries=[spec])
        assert caught.value.field == field
    assert Deck.objects.count() == 0


def test_identical_lines_are_merged_into_one_entry(owner: Any, catalog: None) -> None:
    unit = Card.objects.filter(game__slug="mattsan", card_type="unit").first()
    assert unit is not None
    deck = deck_create(
        owner=owner,
        game=unit.game,
        name="t",
        entries=[EntrySpec(unit, "main", 2), EntrySpec(unit, "main", 1)],
    )
    assert list(DeckEntry.objects.filter(deck=deck).values_list("quantity", flat=True)) == [3]


def test_a_clone_is_a_private_copy_owned_by_the_cloner(
    owner: Any, stranger: Any, mattsan_starter: Product
) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    deck_update(
        deck=deck, user=owner, expected_version=deck.version, visibility=Deck.Visibility.PUBLIC
    )
    copy = deck_clone(deck=deck, user=stranger)
    assert copy.owner == stranger and copy.cloned_from == deck
    assert copy.visibility == Deck.Visibility.PRIVATE
    assert copy.card_count == deck.card_count and copy.public_id != deck.public_id
    assert copy.name == f"{deck.name} (copy)"
    assert deck_clone(deck=deck, user=stranger, name="Mine").name == "Mine"


def test_a_clone_of_a_long_name_still_says_copy_within_the_name_limit(
    owner: Any, mattsan_starter: Product
) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner, name="x" * 120)
    copy = deck_clone(deck=deck, user=owner)
    assert copy.name == "x" * 113 + " (copy)" and len(copy.name) == 120


def test_restoring_a_revision_brings_back_its_list_as_a_new_revision(
    owner: Any, mattsan_starter: Product
) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    first = DeckRevision.objects.get(deck=deck, number=1)
    entry = DeckEntry.objects.filter(deck=deck).first()
    assert entry is not None
    deck_entry_set(
        deck=deck,
        user=owner,
        expected_version=deck.version,
        card=entry.card,
        zone="main",
        quantity=0,
        printing=entry.printing,
    )
    deck_restore(deck=deck, user=owner, expected_version=deck.version, revision=first)
    deck.refresh_from_db()
    assert deck.card_count == 30 and deck.is_legal
    assert DeckRevision.objects.filter(deck=deck).count() == 3


@pytest.mark.parametrize(
    ("visibility", "friend_sees", "listed"),
    [
        (Deck.Visibility.PUBLIC, True, True),
        (Deck.Visibility.UNLISTED, True, False),
        (Deck.Visibility.PRIVATE, False, False),
    ],
)
def test_who_sees_a_deck_depends_on_its_visibility(
    owner: Any,
    friend: Any,
    stranger: Any,
    mattsan_starter: Product,
    visibility: str,
    friend_sees: bool,
    listed: bool,
) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    deck_update(deck=deck, user=owner, expected_version=deck.version, visibility=visibility)
    assert deck_get_for_viewer(public_id=deck.public_id, user=owner) == deck
    if friend_sees:
        assert deck_get_for_viewer(public_id=deck.public_id, user=friend) == deck
    else:
        with pytest.raises(Http404):
            deck_get_for_viewer(public_id=deck.public_id, user=friend)
    for other in (friend, stranger):
        with pytest.raises(Http404):
            deck_get_for_owner(public_id=deck.public_id, user=other)
        assert (deck in decks_of_player(owner=owner, viewer=other)) is listed
    assert (deck in public_decks(game=deck.game)) is listed
    assert deck in decks_of_player(owner=owner, viewer=owner)


def test_every_save_moves_the_decks_updated_time(owner: Any, mattsan_starter: Product) -> None:
    deck = deck_from_product(product=mattsan_starter, user=owner)
    created = Deck.objects.get(pk=deck.pk).updated_at
    deck_update(deck=deck, user=owner, expected_version=deck.version, name="Renamed")
    assert Deck.objects.get(pk=deck.pk).updated_at > created
