"""The catalog's history: a bundle applied through the importer with a before/after snapshot
of every row it changed, and one change reverted (restored through the importer, or a created
row removed when nothing uses it, or a created card withdrawn when decks or collections use
it). Callers (contributions.services) check the editor and hold the transaction and the row
locks.

A withdrawn card (``Card.withdrawn_at``) stays in the database for the decks and collections
that hold it, and is absent from the catalog: the history's snapshots see it, and its
printings, as absent too (contributions.payload.snapshots), so the withdrawal is recorded as a
removal and reverting it writes the card back through the importer, which lists it again."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from catalog.cache import catalog_version_bump
from catalog.importers.bundle import CatalogBundle, CatalogImportError, ImportProblem
from catalog.importers.service import import_bundles
from catalog.models import Card, CardSet, Game, Printing, Product, ProductItem
from collection.models import CollectionChange, CollectionItem
from contributions import errors
from contributions.errors import ProposalError
from contributions.models import CatalogChange, ObjectKind, Proposal
from contributions.payload import (
    PrintingKey,
    Snapshot,
    bundle_keys,
    data_to_bundle,
    restore_data,
    snapshot_key,
    snapshots,
)
from decks.models import DeckEntry

#: why a card was withdrawn (``Card.withdrawn_note`` and ``withdrawn_note_ja``), written in
#: both languages: the note is data shown beside the card, as its names are
WITHDRAWN_BY_PROPOSAL = _("Proposal #%(number)d was reverted by a catalog editor.")
WITHDRAWN_BY_CHANGE = _("Change #%(number)d was reverted by a catalog editor.")

#: the order rows are written in (a card needs its set, a product its printings)
APPLY_ORDER = ("set", "card", "printing", "product")
#: ... and removed in
REMOVE_ORDER = tuple(reversed(APPLY_ORDER))


def history_apply(
    game: Game,
    bundle: CatalogBundle,
    *,
    proposal: Proposal | None,
    proposed_by: Any,
    approved_by: Any,
    source: str | None,
    reverts: Mapping[tuple[str, str], CatalogChange] | None = None,
    relist: Collection[str] = (),
) -> list[CatalogChange]:
    """Write ``bundle`` through ``import_bundles`` and record each row it changed. The caller
    holds the transaction: a refusal raises and nothing stays written.

    A revert names the change it reverts for each row (``reverts``, by kind and code); its
    rows keep that change's source (``source`` None). ``relist``: the codes of cards withdrawn
    from the catalog that the bundle puts back in it."""
    keys = bundle_keys(bundle)
    before = snapshots(game, keys)
    try:
        import_bundles([bundle])
    except CatalogImportError as exc:
        raise ProposalError(exc.problems) from exc
    if relist:
        # the revert of a withdrawal: the importer wrote the card's facts back, this lists it
        Card.objects.filter(game=game, code__in=relist).update(
            withdrawn_at=None, withdrawn_note="", withdrawn_note_ja=""
        )
    after = snapshots(game, keys)
    now = timezone.now()
    changes = []
    for kind in APPLY_ORDER:
        for key in keys[kind]:
            code = snapshot_key(kind, key)
            old, new = before.get(code), after.get(code)
            if old == new:
                continue  # named by the payload but unchanged: no history to keep
            reverted = (reverts or {}).get(code)
            changes.append(
                CatalogChange(
                    game=game,
                    object_kind=kind,
                    object_code=code[1],
                    before=old,
                    after=new,
                    proposal=proposal,
                    proposed_by=proposed_by,
                    approved_by=approved_by,
                    source=source if source is not None else (reverted.source if reverted else ""),
                    at=now,
                    reverts=reverted,
                )
            )
    return CatalogChange.objects.bulk_create(changes)


def history_revert(
    changes: list[CatalogChange], editor: Any, *, where: Callable[[CatalogChange], str]
) -> list[CatalogChange]:
    """Revert ``changes`` (of one game; the caller holds their row locks), all or nothing:
    each row is restored through the importer, or removed when the change created it. Every
    refusal is raised at once, each at ``where(change)``."""
    if not changes:
        return []
    game = changes[0].game
    current = snapshots(game, _keys(changes))
    problems: list[ImportProblem] = []
    for change in changes:
        if change.reverted_by_id is not None:
            problems.append(ImportProblem(where(change), str(errors.ALREADY_REVERTED)))
        elif current.get((change.object_kind, change.object_code)) != change.after:
            problems.append(ImportProblem(where(change), str(errors.CHANGED_SINCE)))
    if problems:
        raise ProposalError(problems)
    ordered = sorted(changes, key=lambda c: REMOVE_ORDER.index(c.object_kind))
    reverts: list[CatalogChange] = []
    # restored first: a restored product no longer lists the printings removed after it
    restores = [change for change in ordered if change.before is not None]
    if restores:
        try:
            reverts += _restore(game, restores, editor)
        except ProposalError as exc:
            problems += exc.problems
    removals = [change for change in ordered if change.before is None]
    try:
        reverts += _remove(game, removals, editor, where=where)
    except ProposalError as exc:
        problems += exc.problems
    if problems:
        raise ProposalError(problems)
    by_reverted = {revert.reverts_id: revert for revert in reverts}
    for change in changes:
        change.reverted_by = by_reverted[change.pk]
    CatalogChange.objects.bulk_update(changes, ["reverted_by"])
    return reverts


def _keys(changes: list[CatalogChange]) -> dict[str, list[Any]]:
    """The rows ``changes`` are about, as ``snapshots`` takes them."""
    keys: dict[str, list[Any]] = {kind: [] for kind in APPLY_ORDER}
    for change in changes:
        row = change.after if change.after is not None else change.before
        assert row is not None
        if change.object_kind == ObjectKind.PRINTING:
            keys["printing"].append(_printing_key(row))
        else:
            keys[change.object_kind].append(row["code"])
    return keys


def _printing_key(row: Snapshot) -> PrintingKey:
    return (row["card"], row["set"], row["number"], row["variant"])


def _restore(game: Game, changes: list[CatalogChange], editor: Any) -> list[CatalogChange]:
    """Write the ``before`` of every change back, in one import."""
    data = restore_data(game, [(c.object_kind, c.before) for c in changes if c.before])
    by_code = {(c.object_kind, c.object_code): c for c in changes}
    # a row this restores that the catalog lacked: a removed one, or a withdrawn card's
    relist = [
        c.before["code"] if c.object_kind == ObjectKind.CARD else c.before["card"]
        for c in changes
        if c.after is None and c.before and c.object_kind in (ObjectKind.CARD, ObjectKind.PRINTING)
    ]
    return history_apply(
        game,
        data_to_bundle(data, "revert"),
        proposal=None,
        proposed_by=editor,
        approved_by=editor,
        source=None,
        reverts=by_code,
        relist=relist,
    )


def _counts(**counts: int) -> str:
    """Who uses a row, as counts only: another player's private deck is never named."""
    messages = {
        "decks": errors.HOLDER_DECKS,
        "collections": errors.HOLDER_COLLECTIONS,
        "products": errors.HOLDER_PRODUCTS,
        "printings": errors.HOLDER_PRINTINGS,
    }
    return ", ".join(str(messages[name] % {"count": n}) for name, n in counts.items() if n)


def _withdrawn_notes(changes: list[CatalogChange]) -> dict[str, str]:
    """Why the cards were withdrawn: the proposal reverted (one revert is one proposal's
    changes, or one change), in English and in Japanese (the card's two note fields)."""
    first = changes[0]
    if first.proposal_id is not None:
        message, number = WITHDRAWN_BY_PROPOSAL, first.proposal_id
    else:
        message, number = WITHDRAWN_BY_CHANGE, first.pk
    notes = {}
    for field, language in (("withdrawn_note", "en"), ("withdrawn_note_ja", "ja")):
        with translation.override(language):
            notes[field] = str(message % {"number": number})
    return notes


def _remove(
    game: Game,
    changes: list[CatalogChange],
    editor: Any,
    *,
    where: Callable[[CatalogChange], str],
) -> list[CatalogChange]:
    """Delete the rows ``changes`` created (a card with all its printings), unless other
    products use them, decks or collections (their items or their history) use a printing
    whose card stays, or a set still holds other rows; a refusal names what uses each row. A
    card that decks or collections use is withdrawn instead (kept for them with its printings,
    out of the catalog). A fixed number of queries, whatever the number of rows. A wish for a
    removed card goes with it: it holds nothing; a wish for a withdrawn one stays."""
    if not changes:
        return []
    named = _keys(changes)
    products = {p.code: p.pk for p in Product.objects.filter(game=game, code__in=named["product"])}
    cards = {
        c.code: c.pk
        for c in Card.objects.filter(game=game, owner__isnull=True, code__in=named["card"])
    }
    sets = {
        s.code: s.pk
        for s in CardSet.objects.filter(game=game, owner__isnull=True, code__in=named["set"])
    }
    wanted = set(named["printing"])
    card_ids = set(cards.values())
    # every printing that goes: those named, and all the printings of the cards that go
    going: dict[int, tuple[int, PrintingKey]] = {}
    printing_ids: dict[PrintingKey, int] = {}
    rows = Printing.objects.filter(
        Q(card__game=game, card__code__in={key[0] for key in wanted}) | Q(card_id__in=card_ids)
    ).values_list("pk", "card_id", "card__code", "card_set__code", "collector_number", "variant")
    for pk, card_id, *rest in rows:
        key = (rest[0], rest[1], rest[2], rest[3])
        if key in wanted:
            printing_ids[key] = pk
        if key in wanted or card_id in card_ids:
            going[pk] = (card_id, key)
    card_of = {pk: card_id for pk, (card_id, _key) in going.items()}
    going_ids = list(going)
    entries = list(
        DeckEntry.objects.filter(
            Q(card_id__in=card_ids) | Q(printing_id__in=going_ids)
        ).values_list("deck_id", "card_id", "printing_id")
    )
    owners = {
        *CollectionItem.objects.filter(printing_id__in=going_ids).values_list(
            "owner_id", "printing_id"
        ),
        *CollectionChange.objects.filter(printing_id__in=going_ids).values_list(
            "owner_id", "printing_id"
        ),
    }
    lines = list(
        ProductItem.objects.filter(printing_id__in=going_ids)
        .exclude(product_id__in=products.values())
        .values_list("product_id", "printing_id")
    )
    # a card that decks or collections hold is withdrawn, not deleted: it keeps its printings
    withdrawn = {card for _deck, card, _p in entries if card in card_ids} | {
        card_of[p] for _o, p in owners if card_of[p] in card_ids
    }
    deleted_ids = [pk for pk, card_id in card_of.items() if card_id not in withdrawn]
    left_printings = dict(
        Printing.objects.filter(card_set_id__in=sets.values())
        .exclude(pk__in=deleted_ids)
        .values("card_set_id")
        .annotate(n=Count("pk"))
        .values_list("card_set_id", "n")
    )
    left_products = dict(
        Product.objects.filter(card_set_id__in=sets.values())
        .exclude(pk__in=products.values())
        .values("card_set_id")
        .annotate(n=Count("pk"))
        .values_list("card_set_id", "n")
    )

    problems: list[ImportProblem] = []
    for change in changes:
        row = change.after
        assert row is not None
        held = ""
        if change.object_kind == ObjectKind.CARD:
            card_id = cards[row["code"]]
            products_holding = len({prod for prod, p in lines if card_of[p] == card_id})
            if products_holding:  # a product is the catalog's own: it must change first
                held = _counts(
                    decks=len({deck for deck, card, _p in entries if card == card_id}),
                    collections=len({o for o, p in owners if card_of[p] == card_id}),
                    products=products_holding,
                )
        elif change.object_kind == ObjectKind.PRINTING:
            pk = printing_ids[_printing_key(row)]
            if card_of[pk] not in card_ids:  # else its card answers for it
                held = _counts(
                    decks=len({deck for deck, _c, p in entries if p == pk}),
                    collections=len({o for o, p in owners if p == pk}),
                    products=len({prod for prod, p in lines if p == pk}),
                )
        elif change.object_kind == ObjectKind.SET:
            set_id = sets[row["code"]]
            inside = _counts(
                printings=left_printings.get(set_id, 0), products=left_products.get(set_id, 0)
            )
            if inside:
                message = errors.SET_NOT_EMPTY % {"code": row["code"], "holders": inside}
                problems.append(ImportProblem(where(change), str(message)))
        if held:
            message = errors.ROW_HELD % {"code": change.object_code, "holders": held}
            problems.append(ImportProblem(where(change), str(message)))
    if problems:
        raise ProposalError(problems)

    # the printings that go with their card and no change of this revert names (a withdrawn
    # card's stay with it, unrecorded: they come back when it does)
    unnamed = [going[pk][1] for pk in deleted_ids if going[pk][1] not in wanted]
    gone = snapshots(game, {"printing": unnamed}) if unnamed else {}
    Product.objects.filter(pk__in=products.values()).delete()
    Printing.objects.filter(pk__in=deleted_ids).delete()
    Card.objects.filter(pk__in=set(cards.values()) - withdrawn).delete()
    if withdrawn:
        Card.objects.filter(pk__in=withdrawn).update(
            withdrawn_at=timezone.now(), **_withdrawn_notes(changes)
        )
    CardSet.objects.filter(pk__in=sets.values()).delete()
    # the importer moves the version on its own writes; a removal is this module's own write
    transaction.on_commit(catalog_version_bump)
    recorded: dict[str, Any] = {
        "game": game,
        "after": None,
        "proposed_by": editor,
        "approved_by": editor,
        "at": timezone.now(),
    }
    reverts = [
        CatalogChange(
            object_kind=change.object_kind,
            object_code=change.object_code,
            before=change.after,
            source=change.source,
            reverts=change,
            **recorded,
        )
        for change in changes
    ]
    # a printing removed with its card keeps its own history whole
    along = [
        CatalogChange(object_kind=ObjectKind.PRINTING, object_code=code, before=snap, **recorded)
        for (_kind, code), snap in gone.items()
    ]
    CatalogChange.objects.bulk_create(reverts + along)
    return reverts
