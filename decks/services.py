"""Writes to decks. Every save is checked against the version the writer read (a stale edit
is refused, never silently overwritten), re-checks legality, and records an immutable
revision. Keyword-only, typed, named <entity>_<action>."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from catalog.models import Card, Game, Printing, Product
from decks import errors
from decks.extras import ExtraError, clean_extras
from decks.game_rules import deck_rules
from decks.imports.snapshot import specs_from_snapshot
from decks.legality.check import check_deck
from decks.legality.facts import DeckFacts
from decks.legality.problems import Problem, is_legal
from decks.models import MAX_ENTRIES, MAX_QUANTITY, Deck, DeckEntry, DeckRevision
from decks.selectors import deck_entries, deck_facts, deck_snapshot
from decks.snapshots import diff_snapshots
from decks.specs import EntrySpec
from games import registry
from games.official import start_deck

META_FIELDS = ("name", "description", "visibility", "variant", "extras")


def _check_entry(deck_game: Game, spec: EntrySpec) -> None:
    if spec.card.game_id != deck_game.pk:
        raise errors.DeckError(errors.WRONG_GAME, "card")
    if deck_rules(deck_game.slug).zone(spec.zone) is None:
        raise errors.DeckError(errors.UNKNOWN_ZONE, "zone")
    if not 1 <= spec.quantity <= MAX_QUANTITY:
        raise errors.DeckError(errors.BAD_QUANTITY, "quantity")
    if spec.printing is not None and spec.printing.card_id != spec.card.pk:
        raise errors.DeckError(errors.PRINTING_NOT_OF_CARD, "printing")


def _check_meta(game: Game, fields: Mapping[str, Any]) -> None:
    variant = fields.get("variant")
    rules = deck_rules(game.slug)
    if variant and variant not in {v.code for v in rules.variants}:
        raise errors.DeckError(errors.UNKNOWN_VARIANT, "variant")


def _clean_extras(game: Game, extras: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every save holds the deck's extras to the game's schema (decks.extras), whoever sends
    them: the editor, the API or an import."""
    try:
        return clean_extras(game.slug, extras)
    except ExtraError as exc:
        raise errors.DeckError(exc.message, "extras") from exc


def _merge(specs: Iterable[EntrySpec]) -> list[EntrySpec]:
    """Identical lines (same zone, card and printing) are one entry with their quantities
    added: importers and clients must not create duplicates."""
    merged: dict[tuple[str, int, int | None], EntrySpec] = {}
    for spec in specs:
        key = (spec.zone, spec.card.pk, spec.printing.pk if spec.printing else None)
        if key in merged:
            old = merged[key]
            spec = EntrySpec(old.card, old.zone, old.quantity + spec.quantity, old.printing)
        merged[key] = spec
    return list(merged.values())


def _default_printing(deck: Deck, card: Card) -> Printing | None:
    """The printing the game pins a card to when it comes without one (e.g. the printing in
    the deck's character's own box); None when the game has no such
    rule or no printing fits. Decided here, so the editor, the API and imports pin alike."""
    return registry.get(deck.game.slug).default_printing(deck, card)


def _printing_or_default(
    deck: Deck, card: Card, zone: str, printing: Printing | None
) -> Printing | None:
    """An add or set without a printing goes to the zone's unpinned entry of the card if there
    is one (its + and − buttons), else to the game's default printing."""
    if printing is not None:
        return printing
    if DeckEntry.objects.filter(deck=deck, zone=zone, card=card, printing=None).exists():
        return None
    return _default_printing(deck, card)


def _pin_defaults(deck: Deck) -> None:
    """Entries just written without a printing take the game's default one, as each would
    have if added alone; one landing on an identical entry merges with it."""
    if not registry.get(deck.game.slug).pins_printings:
        return
    for entry in DeckEntry.objects.filter(deck=deck, printing=None).select_related("card"):
        printing = _default_printing(deck, entry.card)
        if printing is None:
            continue
        twin = DeckEntry.objects.filter(
            deck=deck, zone=entry.zone, card=entry.card, printing=printing
        ).first()
        if twin:
            twin.quantity = min(MAX_QUANTITY, twin.quantity + entry.quantity)
            twin.save(update_fields=["quantity"])
            entry.delete()
        else:
            entry.printing = printing
            entry.save(update_fields=["printing"])


def _claim_version(deck: Deck, expected_version: int) -> None:
    """Take the deck's next version, or refuse: the conditional UPDATE both detects a stale
    writer and row-locks the deck until the transaction ends."""
    claimed = Deck.objects.filter(pk=deck.pk, version=expected_version).update(
        version=F("version") + 1
    )
    if not claimed:
        raise errors.StaleDeckError
    deck.version = expected_version + 1


@dataclass(frozen=True)
class DeckComputed:
    """What a write has just computed of the deck, handed to the page that answers the write
    so it does not read and check the deck a second time."""

    version: int
    entries: list[DeckEntry]
    facts: DeckFacts
    problems: list[Problem]


def _record(deck: Deck, *, user: Any) -> DeckRevision:
    """Refresh the cached legality and size, and store a revision of the deck as it is now."""
    entries = deck_entries(deck=deck)
    facts = deck_facts(deck=deck, entries=entries)
    problems = check_deck(facts)
    deck.computed = DeckComputed(deck.version, entries, facts, problems)
    deck_zones = {z.code for z in deck_rules(deck.game.slug).deck_zones}
    deck.is_legal = is_legal(problems)
    deck.card_count = sum(e.quantity for e in entries if e.zone in deck_zones)
    # a queryset update skips auto_now: set the time of the change explicitly, so listings
    # sorted newest first see edits
    deck.updated_at = timezone.now()
    Deck.objects.filter(pk=deck.pk).update(
        is_legal=deck.is_legal,
        card_count=deck.card_count,
        updated_at=deck.updated_at,
        **{name: getattr(deck, name) for name in META_FIELDS},
    )
    snapshot = deck_snapshot(deck=deck, entries=entries)
    previous = DeckRevision.objects.filter(deck=deck).order_by("-number").first()
    author = user if getattr(user, "is_authenticated", False) else None
    if _continues_session(previous, author, deck.updated_at):
        assert previous is not None
        return _extend_session(previous, snapshot, deck.updated_at)
    diff = diff_snapshots(previous.snapshot if previous else None, snapshot)
    return DeckRevision.objects.create(
        deck=deck,
        number=(previous.number + 1) if previous else 1,
        author=author,
        summary=diff.summary() if previous else "created",
        changes=diff.as_dict() if previous else {},
        kind=REVISION_EDIT if _EDITING.get() else "",
        snapshot=snapshot,
    )


#: editor changes closer together than this are one editing session, so one revision
SESSION_GAP = dt.timedelta(minutes=10)
REVISION_EDIT = "edit"
_EDITING: ContextVar[bool] = ContextVar("decks_editing", default=False)


@contextmanager
def editing_session() -> Iterator[None]:
    """Saves made inside are editor clicks: each extends the author's open editing session
    (its latest revision, if made by the editor less than SESSION_GAP ago) instead of adding
    a revision. Explicit saves, imports and restores are made outside and stay distinct."""
    token = _EDITING.set(True)
    try:
        yield
    finally:
        _EDITING.reset(token)


def _continues_session(previous: DeckRevision | None, author: Any, now: dt.datetime) -> bool:
    return (
        _EDITING.get()
        and previous is not None
        and previous.number > 1  # the creation stays a revision of its own
        and previous.kind == REVISION_EDIT
        and author is not None
        and previous.author_id == author.pk
        and now - previous.created_at < SESSION_GAP
        and not _is_referenced(previous)
    )


def _is_referenced(revision: DeckRevision) -> bool:
    """Whether another app points at the revision (a simulation run plays it): such a
    revision must keep what it holds, so the next edit starts a new one."""
    return any(
        relation.related_model._default_manager.filter(**{relation.field.name: revision}).exists()
        for relation in DeckRevision._meta.related_objects
    )


def _extend_session(
    revision: DeckRevision, snapshot: dict[str, Any], now: dt.datetime
) -> DeckRevision:
    """The session's revision now holds the deck as it is; its changes are counted from the
    revision before the session began."""
    base = DeckRevision.objects.filter(deck=revision.deck, number=revision.number - 1).first()
    diff = diff_snapshots(base.snapshot if base else None, snapshot)
    revision.snapshot, revision.created_at = snapshot, now
    revision.summary, revision.changes = diff.summary(), diff.as_dict()
    revision.save(update_fields=["snapshot", "created_at", "summary", "changes"])
    return revision


def _write_entries(deck: Deck, specs: list[EntrySpec]) -> None:
    if len(specs) > MAX_ENTRIES:
        raise errors.DeckError(errors.TOO_MANY_ENTRIES, "entries")
    for spec in specs:
        _check_entry(deck.game, spec)
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=deck, card=s.card, printing=s.printing, zone=s.zone, quantity=s.quantity)
        for s in specs
    )


@transaction.atomic
def deck_create(
    *,
    owner: Any,
    game: Game,
    name: str,
    description: str = "",
    visibility: str = Deck.Visibility.PRIVATE,
    variant: str = "",
    extras: Mapping[str, Any] | None = None,
    entries: Iterable[EntrySpec] = (),
    cloned_from: Deck | None = None,
    source_product: Product | None = None,
    default_printings: bool = True,
) -> Deck:
    """A new deck. Entries without a printing take the game's default one unless
    ``default_printings`` is False (a clone keeps the original's entries as they are)."""
    meta = {"variant": variant}
    _check_meta(game, meta)
    extras = _clean_extras(game, extras)
    deck = Deck.objects.create(
        owner=owner,
        game=game,
        name=name,
        description=description,
        visibility=visibility,
        variant=variant or deck_rules(game.slug).default_variant,
        extras=dict(extras or {}),
        cloned_from=cloned_from,
        source_product=source_product,
    )
    _write_entries(deck, _merge(entries))
    if default_printings:
        _pin_defaults(deck)
    _record(deck, user=owner)
    return deck


@transaction.atomic
def deck_update(*, deck: Deck, user: Any, expected_version: int, **fields: Any) -> Deck:
    """Change the deck's name, description, visibility, variant or extras."""
    unknown = set(fields) - set(META_FIELDS)
    if unknown:
        raise TypeError(f"deck_update() got unexpected fields {sorted(unknown)}")
    _check_meta(deck.game, fields)
    if "extras" in fields:
        fields["extras"] = _clean_extras(deck.game, fields["extras"])
    _claim_version(deck, expected_version)
    for name, value in fields.items():
        setattr(deck, name, value)
    _record(deck, user=user)
    return deck


@transaction.atomic
def deck_entry_set(
    *,
    deck: Deck,
    user: Any,
    expected_version: int,
    card: Card,
    zone: str,
    quantity: int,
    printing: Printing | None = None,
) -> Deck:
    """Set how many of a card (and printing) a zone holds; 0 removes the entry. Without a
    printing: the zone's unpinned entry of the card, else the game's default printing."""
    printing = _printing_or_default(deck, card, zone, printing)
    return _entry_set(deck, user, expected_version, card, zone, quantity, printing)


def _entry_set(
    deck: Deck,
    user: Any,
    expected_version: int,
    card: Card,
    zone: str,
    quantity: int,
    printing: Printing | None,
) -> Deck:
    # the body of deck_entry_set, callable inside another service's transaction without a
    # savepoint (each savepoint costs two round trips on an editor change)
    if quantity:
        _check_entry(deck.game, EntrySpec(card, zone, quantity, printing))
    elif deck_rules(deck.game.slug).zone(zone) is None:
        raise errors.DeckError(errors.UNKNOWN_ZONE, "zone")
    _claim_version(deck, expected_version)
    existing = DeckEntry.objects.filter(deck=deck, zone=zone, card=card, printing=printing)
    if quantity == 0:
        existing.delete()
    elif not existing.update(quantity=quantity):
        if DeckEntry.objects.filter(deck=deck).count() >= MAX_ENTRIES:
            raise errors.DeckError(errors.TOO_MANY_ENTRIES, "entries")
        DeckEntry.objects.create(
            deck=deck, card=card, printing=printing, zone=zone, quantity=quantity
        )
    _record(deck, user=user)
    return deck


@transaction.atomic
def deck_entry_add(
    *,
    deck: Deck,
    user: Any,
    expected_version: int,
    card: Card,
    zone: str,
    delta: int = 1,
    printing: Printing | None = None,
) -> Deck:
    """Add (or with a negative delta, take away) copies; reaching 0 removes the entry. Without
    a printing: the zone's unpinned entry of the card, else the game's default printing."""
    printing = _printing_or_default(deck, card, zone, printing)
    current = (
        DeckEntry.objects.filter(deck=deck, zone=zone, card=card, printing=printing)
        .values_list("quantity", flat=True)
        .first()
        or 0
    )
    quantity = max(0, current + delta)
    if quantity > MAX_QUANTITY:
        raise errors.DeckError(errors.BAD_QUANTITY, "quantity")
    return _entry_set(deck, user, expected_version, card, zone, quantity, printing)


@transaction.atomic
def deck_entry_update(
    *,
    deck: Deck,
    user: Any,
    expected_version: int,
    entry: DeckEntry,
    zone: str | None = None,
    quantity: int | None = None,
    printing: Printing | bool | None = False,
) -> Deck:
    """Move an entry to another zone, change its quantity or (un)pin a printing; an entry
    that lands on an identical one merges with it. ``printing=False`` leaves it as is."""
    target_zone = zone if zone is not None else entry.zone
    target_quantity = quantity if quantity is not None else entry.quantity
    target_printing = entry.printing if printing is False else printing
    assert target_printing is None or isinstance(target_printing, Printing)
    if target_quantity:
        _check_entry(
            deck.game, EntrySpec(entry.card, target_zone, target_quantity, target_printing)
        )
    _claim_version(deck, expected_version)
    entry.delete()
    if target_quantity:
        twin = DeckEntry.objects.filter(
            deck=deck, zone=target_zone, card=entry.card, printing=target_printing
        ).first()
        if twin:
            twin.quantity = min(MAX_QUANTITY, twin.quantity + target_quantity)
            twin.save(update_fields=["quantity"])
        else:
            DeckEntry.objects.create(
                deck=deck,
                card=entry.card,
                printing=target_printing,
                zone=target_zone,
                quantity=target_quantity,
            )
    _record(deck, user=user)
    return deck


@transaction.atomic
def deck_replace(
    *,
    deck: Deck,
    user: Any,
    expected_version: int,
    entries: Iterable[EntrySpec],
    default_printings: bool = True,
    **fields: Any,
) -> Deck:
    """Replace the whole list (imports, API PUT) and optionally the deck's fields, at once.
    Entries without a printing take the game's default one unless ``default_printings`` is
    False (a restore brings back the entries exactly as they were)."""
    specs = _merge(entries)
    for spec in specs:
        _check_entry(deck.game, spec)
    _check_meta(deck.game, fields)
    if "extras" in fields:
        fields["extras"] = _clean_extras(deck.game, fields["extras"])
    _claim_version(deck, expected_version)
    for name, value in fields.items():
        if name not in META_FIELDS:
            raise TypeError(f"deck_replace() got an unexpected field {name!r}")
        setattr(deck, name, value)
    DeckEntry.objects.filter(deck=deck).delete()
    _write_entries(deck, specs)
    if default_printings:
        _pin_defaults(deck)
    _record(deck, user=user)
    return deck


def _specs_of(deck: Deck) -> list[EntrySpec]:
    return [EntrySpec(e.card, e.zone, e.quantity, e.printing) for e in deck_entries(deck=deck)]


def deck_clone(*, deck: Deck, user: Any, name: str | None = None) -> Deck:
    """A private copy owned by ``user`` (anyone's public or unlisted deck they can see),
    named "<name> (copy)" unless given a name, so the two are told apart in a listing."""
    return deck_create(
        owner=user,
        game=deck.game,
        name=name or copy_name(deck.name),
        description=deck.description,
        visibility=Deck.Visibility.PRIVATE,
        variant=deck.variant,
        extras=deck.extras,
        entries=_specs_of(deck),
        cloned_from=deck,
        source_product=deck.source_product,
        default_printings=False,
    )


def copy_name(name: str) -> str:
    """The name with " (copy)" after it ("Ember rush (copy)"), cut to fit 120 characters."""
    suffix = gettext("%(name)s (copy)") % {"name": ""}
    limit = Deck._meta.get_field("name").max_length or 120
    base = name[: max(1, limit - len(suffix))].rstrip()
    return gettext("%(name)s (copy)") % {"name": base}


def deck_from_product(*, product: Product, user: Any, name: str | None = None) -> Deck:
    """A new deck holding a product's contents (a starter or an official hero deck)."""
    items = product.items.select_related("printing__card")
    # the game applies the product's default choices (Buffy's sidekick): games.official
    entries, extras = start_deck(
        product.game.slug,
        product.code,
        [EntrySpec(i.printing.card, i.zone, i.quantity, i.printing) for i in items],
    )
    return deck_create(
        owner=user,
        game=product.game,
        name=name or product.name,
        extras=extras,
        entries=entries,
        source_product=product,
    )


@transaction.atomic
def deck_restore(*, deck: Deck, user: Any, expected_version: int, revision: DeckRevision) -> Deck:
    """Bring back the list and fields of an earlier revision, as a new revision."""
    snapshot = revision.snapshot
    return deck_replace(
        deck=deck,
        user=user,
        expected_version=expected_version,
        entries=specs_from_snapshot(deck.game, snapshot),
        default_printings=False,
        **{name: snapshot[name] for name in META_FIELDS if name in snapshot},
    )


def deck_delete(*, deck: Deck) -> None:
    deck.delete()
