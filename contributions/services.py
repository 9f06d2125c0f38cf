"""Proposals: submitted, reviewed, applied and reverted (the history's mechanics are in
contributions.history).

One validator: a payload is checked by the importer's ``validate_bundle`` and applied by its
``import_bundles`` (upsert by natural keys, catalog version moved on commit), so a proposal
obeys exactly the rules of a staff import. Merges of duplicate cards are not built yet.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import timezone

from catalog.importers.bundle import CatalogBundle, ImportProblem
from catalog.importers.validate import validate_bundle
from catalog.models import Card, CardSet, Game
from contributions import errors
from contributions.errors import NotAllowed, ProposalError, RateLimited
from contributions.history import history_apply, history_revert
from contributions.legality import decks_refresh_after
from contributions.models import (
    EDITORS_GROUP,
    CatalogChange,
    ObjectKind,
    Proposal,
    ProposalEvent,
    SetLock,
)
from contributions.payload import data_to_bundle
from decklab import safe_input

log = logging.getLogger(__name__)

#: proposals a player may send in an hour (setting CONTRIBUTIONS_PROPOSALS_PER_HOUR)
PROPOSALS_PER_HOUR = 30
WAITING = (Proposal.State.OPEN, Proposal.State.CHANGES_REQUESTED)


def proposals_per_hour() -> int:
    return int(getattr(settings, "CONTRIBUTIONS_PROPOSALS_PER_HOUR", PROPOSALS_PER_HOUR))


def is_editor(user: Any) -> bool:
    if not (user.is_authenticated and user.is_active):
        return False
    return bool(user.is_staff or user.groups.filter(name=EDITORS_GROUP).exists())


def require_editor(user: Any) -> None:
    if not is_editor(user):
        raise NotAllowed.of(errors.NOT_EDITOR)


def _clean_text(text: str) -> str:
    """Outside text as stored: no NUL (PostgreSQL refuses it), no edge spaces."""
    return safe_input.check_text(text).strip()


# --- checking a payload ----------------------------------------------------------------------


def payload_problems(*, game: Game, payload: Any) -> tuple[CatalogBundle, list[ImportProblem]]:
    """The payload parsed, and every problem with its place: the importer's validation (in a
    transaction rolled back, so nothing can be written), the game, locked sets and codes of
    players' own cards or sets."""
    try:
        safe_input.check(payload)
    except safe_input.UnsafeInput as exc:
        return CatalogBundle(game=game.slug, origin="payload"), [
            ImportProblem(errors.WHOLE, str(exc))
        ]
    if not isinstance(payload, dict):
        empty = CatalogBundle(game=game.slug, origin="payload")
        return empty, [ImportProblem(errors.WHOLE, str(errors.PAYLOAD_NOT_OBJECT))]
    bundle = data_to_bundle(payload, origin="payload")
    if bundle.game and bundle.game != game.slug:
        other = errors.OTHER_GAME % {"game": game.slug, "other": bundle.game}
        return bundle, [ImportProblem("payload: game", str(other))]
    with transaction.atomic():
        problems = validate_bundle(bundle)
        transaction.set_rollback(True)
    if not (bundle.sets or bundle.cards or bundle.products):
        problems.append(ImportProblem(errors.WHOLE, str(errors.PAYLOAD_EMPTY)))
    problems.extend(_locked_problems(game, bundle))
    problems.extend(_taken_problems(game, bundle))
    return bundle, problems


def _locked_problems(game: Game, bundle: CatalogBundle) -> list[ImportProblem]:
    places: list[tuple[str, str]] = [(row.where, row.code) for row in bundle.sets]
    places += [(p.where, p.set_code) for row in bundle.cards for p in row.printings]
    places += [(row.where, row.set_code) for row in bundle.products if row.set_code]
    locked = set(
        SetLock.objects.filter(
            card_set__game=game, card_set__code__in={code for _where, code in places}
        ).values_list("card_set__code", flat=True)
    )
    return [
        ImportProblem(where, str(errors.SET_LOCKED % {"set": code}))
        for where, code in places
        if code in locked
    ]


def _taken_problems(game: Game, bundle: CatalogBundle) -> list[ImportProblem]:
    """A player's own (custom) card or set shares the catalog's codes: never overwrite it."""
    private_cards = set(
        Card.objects.filter(
            game=game, owner__isnull=False, code__in=[row.code for row in bundle.cards]
        ).values_list("code", flat=True)
    )
    private_sets = set(
        CardSet.objects.filter(
            game=game, owner__isnull=False, code__in=[row.code for row in bundle.sets]
        ).values_list("code", flat=True)
    )
    rows = [(r.where, r.code) for r in bundle.cards if r.code in private_cards]
    rows += [(r.where, r.code) for r in bundle.sets if r.code in private_sets]
    return [ImportProblem(where, str(errors.CODE_TAKEN % {"code": code})) for where, code in rows]


def _check_payload(game: Game, payload: Any, kind: str) -> None:
    bundle, problems = payload_problems(game=game, payload=payload)
    problems.extend(_new_rows_problems(game, bundle, kind))
    if problems:
        raise ProposalError(problems)


#: the kinds that add rows: what they name must not be in the catalog yet, or the importer's
#: upsert would overwrite it (a change to an existing row is a correction, reviewed as one)
ADDS_CARDS = (Proposal.Kind.CARD, Proposal.Kind.SHEET)
ADDS_SETS = (Proposal.Kind.SET,)


def _new_rows_problems(game: Game, bundle: CatalogBundle, kind: str) -> list[ImportProblem]:
    """Rows a new-card, new-set or sheet proposal adds that the catalog has meanwhile (checked
    when proposed and again when approved: another proposal or an import may have taken the
    code in between)."""
    codes: set[str]
    if kind in ADDS_CARDS:
        rows = [(row.where, row.code) for row in bundle.cards]
        named = {code for _where, code in rows}
        cards = Card.objects.filter(game=game, owner=None, code__in=named)
        codes = set(cards.values_list("code", flat=True))
    elif kind in ADDS_SETS:
        rows = [(row.where, row.code) for row in bundle.sets]
        named = {code for _where, code in rows}
        sets = CardSet.objects.filter(game=game, owner=None, code__in=named)
        codes = set(sets.values_list("code", flat=True))
    else:
        return []
    return [
        ImportProblem(where, str(errors.CODE_TAKEN % {"code": code}))
        for where, code in rows
        if code in codes
    ]


def _check_source(source_kind: str, source_detail: str, source_url: str) -> None:
    problems: list[ImportProblem] = []
    if source_kind not in Proposal.SourceKind.values:
        known = ", ".join(Proposal.SourceKind.values)
        message = errors.UNKNOWN_CHOICE % {"value": source_kind, "known": known}
        problems.append(ImportProblem("source_kind", str(message)))
    if not source_detail:
        problems.append(ImportProblem("source_detail", str(errors.SOURCE_REQUIRED)))
    if source_url:
        try:
            URLValidator(schemes=["http", "https"])(source_url)
        except ValidationError:
            problems.append(ImportProblem("source_url", str(errors.SOURCE_URL_INVALID)))
    elif source_kind == Proposal.SourceKind.PUBLISHER_PAGE:
        problems.append(ImportProblem("source_url", str(errors.SOURCE_URL_REQUIRED)))
    if problems:
        raise ProposalError(problems)


# --- the proposal's life ---------------------------------------------------------------------


def proposal_submit(
    *,
    author: Any,
    game: Game,
    kind: str,
    payload: dict[str, Any],
    source_kind: str,
    source_detail: str,
    source_url: str = "",
    title: str = "",
    target_kind: str = "",
    target_code: str = "",
    reason: str = "",
) -> Proposal:
    """A player's proposal, open for review, once the payload passes the importer's checks."""
    source_detail, source_url = _clean_text(source_detail), _clean_text(source_url)
    title, reason = _clean_text(title), _clean_text(reason)
    if kind not in Proposal.Kind.values:
        message = errors.UNKNOWN_CHOICE % {"value": kind, "known": ", ".join(Proposal.Kind.values)}
        raise ProposalError([ImportProblem("kind", str(message))])
    if kind == Proposal.Kind.CORRECTION and not (
        target_kind in ObjectKind.values and target_code and reason
    ):
        raise ProposalError.of(errors.CORRECTION_TARGET, "reason")
    _check_source(source_kind, source_detail, source_url)
    with transaction.atomic():
        # the author's row serialises their submissions, so the hourly count is exact
        get_user_model().objects.select_for_update().filter(pk=author.pk).first()
        limit = proposals_per_hour()
        recent = Proposal.objects.filter(
            author=author, created_at__gte=timezone.now() - timedelta(hours=1)
        ).count()
        if recent >= limit:
            raise RateLimited.of(errors.RATE_LIMITED, max=limit)
        _check_payload(game, payload, kind)
        proposal = Proposal.objects.create(
            game=game,
            author=author,
            kind=kind,
            title=title,
            payload=payload,
            target_kind=target_kind,
            target_code=_clean_text(target_code),
            reason=reason,
            source_kind=source_kind,
            source_detail=source_detail,
            source_url=source_url,
        )
        ProposalEvent.objects.create(
            proposal=proposal, actor=author, action=ProposalEvent.Action.SUBMITTED
        )
    return proposal


def _locked(proposal: Proposal) -> Proposal:
    """The proposal's row locked for this transaction: two decisions at once are one after
    the other, and the second sees the first's state."""
    return Proposal.objects.select_for_update().get(pk=proposal.pk)


def _decide(proposal: Proposal, editor: Any) -> Proposal:
    require_editor(editor)
    if proposal.author_id == editor.pk:
        raise NotAllowed.of(errors.OWN_PROPOSAL)
    locked = _locked(proposal)
    if locked.state not in WAITING:
        raise ProposalError.of(errors.NOT_OPEN, state=locked.get_state_display())
    return locked


def _event(proposal: Proposal, actor: Any, action: str, note: str = "") -> None:
    ProposalEvent.objects.create(proposal=proposal, actor=actor, action=action, note=note)
    log.info("proposal %s %s by user %s", proposal.pk, action, actor.pk)


def proposal_ask(*, proposal: Proposal, editor: Any, note: str) -> Proposal:
    """The editor asks the contributor for a change; the proposal waits for them."""
    note = _clean_text(note)
    if not note:
        raise ProposalError.of(errors.NOTE_REQUIRED, "note")
    with transaction.atomic():
        locked = _decide(proposal, editor)
        if locked.state != Proposal.State.OPEN:
            raise ProposalError.of(errors.NOT_WAITING, state=locked.get_state_display())
        locked.state = Proposal.State.CHANGES_REQUESTED
        locked.decision_note = note
        locked.decided_by = editor
        locked.save(update_fields=["state", "decision_note", "decided_by", "updated_at"])
        _event(locked, editor, ProposalEvent.Action.ASKED, note)
    proposal.refresh_from_db()  # the caller's instance shows the new state
    return proposal


def proposal_resubmit(
    *, proposal: Proposal, author: Any, payload: dict[str, Any], note: str = ""
) -> Proposal:
    """The contributor's new payload (checked as at submission); open for review again."""
    if proposal.author_id != author.pk:
        raise NotAllowed.of(errors.NOT_AUTHOR)
    note = _clean_text(note)
    with transaction.atomic():
        locked = _locked(proposal)
        if locked.state not in WAITING:
            raise ProposalError.of(errors.NOT_WAITING, state=locked.get_state_display())
        _check_payload(locked.game, payload, locked.kind)
        locked.payload = payload
        locked.state = Proposal.State.OPEN
        locked.save(update_fields=["payload", "state", "updated_at"])
        _event(locked, author, ProposalEvent.Action.RESUBMITTED, note)
    proposal.refresh_from_db()  # the caller's instance shows the new state
    return proposal


def proposal_withdraw(*, proposal: Proposal, author: Any, note: str = "") -> Proposal:
    if proposal.author_id != author.pk:
        raise NotAllowed.of(errors.NOT_AUTHOR)
    with transaction.atomic():
        locked = _locked(proposal)
        if locked.state not in WAITING:
            raise ProposalError.of(errors.NOT_WAITING, state=locked.get_state_display())
        locked.state = Proposal.State.WITHDRAWN
        locked.save(update_fields=["state", "updated_at"])
        _event(locked, author, ProposalEvent.Action.WITHDRAWN, _clean_text(note))
    proposal.refresh_from_db()  # the caller's instance shows the new state
    return proposal


def proposal_reject(*, proposal: Proposal, editor: Any, note: str) -> Proposal:
    note = _clean_text(note)
    if not note:
        raise ProposalError.of(errors.NOTE_REQUIRED, "note")
    with transaction.atomic():
        locked = _decide(proposal, editor)
        locked.state = Proposal.State.REJECTED
        locked.decision_note = note
        locked.decided_by = editor
        locked.save(update_fields=["state", "decision_note", "decided_by", "updated_at"])
        _event(locked, editor, ProposalEvent.Action.REJECTED, note)
    proposal.refresh_from_db()  # the caller's instance shows the new state
    return proposal


def proposal_approve(*, proposal: Proposal, editor: Any, note: str = "") -> list[CatalogChange]:
    """Apply the proposal through the importer and record the history, in one transaction.

    Approving twice at once applies once: the second approval waits on the proposal's row
    lock and is then refused as already decided."""
    with transaction.atomic():
        locked = _decide(proposal, editor)
        if locked.state != Proposal.State.OPEN:
            raise ProposalError.of(errors.NOT_WAITING, state=locked.get_state_display())
        bundle, problems = payload_problems(game=locked.game, payload=locked.payload)
        problems.extend(_new_rows_problems(locked.game, bundle, locked.kind))
        if problems:
            raise ProposalError(problems)
        changes = history_apply(
            locked.game,
            bundle,
            proposal=locked,
            proposed_by=locked.author,
            approved_by=editor,
            source=_source_text(locked),
        )
        decks_refresh_after(changes, game=locked.game)  # stored verdicts of decks using them
        locked.state = Proposal.State.APPROVED
        locked.decided_by = editor
        locked.decision_note = _clean_text(note)
        locked.save(update_fields=["state", "decided_by", "decision_note", "updated_at"])
        _event(locked, editor, ProposalEvent.Action.APPROVED, locked.decision_note)
    proposal.refresh_from_db()  # the caller's instance shows the new state
    return changes


def _source_text(proposal: Proposal) -> str:
    """The history's source, in the contributor's words (the kind stays on the proposal, so
    each reader sees it in their own language)."""
    return " — ".join(part for part in (proposal.source_detail, proposal.source_url) if part)


# --- reverting a change ----------------------------------------------------------------------


def change_revert(*, change: CatalogChange, editor: Any) -> CatalogChange:
    """Put the row back as it was before ``change``, through the importer; a row the change
    created is removed, unless decks, collections or products use it. Recorded as a change."""
    require_editor(editor)
    with transaction.atomic():
        locked = (
            CatalogChange.objects.select_for_update(of=("self",))
            .select_related("game")
            .get(pk=change.pk)
        )
        from contributions.merge_revert import card_merge_revert, is_merge  # it imports this

        if is_merge(locked):  # a merge moved decks and collections: its own revert puts them back
            return card_merge_revert(change=change, editor=editor)
        [revert] = history_revert([locked], editor, where=lambda _change: errors.WHOLE)
        decks_refresh_after([locked], game=locked.game)
        if locked.proposal_id is not None:
            ProposalEvent.objects.create(
                proposal_id=locked.proposal_id,
                actor=editor,
                action=ProposalEvent.Action.REVERTED,
                note=f"{locked.object_kind} {locked.object_code}",
            )
    change.refresh_from_db()
    return revert


def proposal_revert(*, proposal: Proposal, editor: Any) -> list[CatalogChange]:
    """Revert every change an approved proposal made that no one reverted yet, all or
    nothing; every refusal is reported, each at its row ("card CODE")."""
    require_editor(editor)
    with transaction.atomic():
        locked = _locked(proposal)
        if locked.state != Proposal.State.APPROVED:
            raise ProposalError.of(errors.NOT_APPLIED)
        changes = list(
            CatalogChange.objects.select_for_update(of=("self",))
            .select_related("game")
            .filter(proposal=locked, reverted_by__isnull=True)
            .order_by("id")
        )
        reverts = history_revert(
            changes, editor, where=lambda change: f"{change.object_kind} {change.object_code}"
        )
        if changes:
            decks_refresh_after(changes, game=changes[0].game)
        _event(locked, editor, ProposalEvent.Action.REVERTED)
    return reverts


# --- locks -----------------------------------------------------------------------------------


def set_lock(*, card_set: CardSet, editor: Any, note: str = "") -> SetLock:
    """Lock a set: proposals touching it are refused (at submission and approval)."""
    require_editor(editor)
    lock, created = SetLock.objects.get_or_create(
        card_set=card_set, defaults={"locked_by": editor, "note": _clean_text(note)}
    )
    if not created:
        raise ProposalError.of(errors.ALREADY_LOCKED)
    log.info("set %s locked by user %s", card_set.pk, editor.pk)
    return lock


def set_unlock(*, card_set: CardSet, editor: Any) -> None:
    require_editor(editor)
    SetLock.objects.filter(card_set=card_set).delete()
    log.info("set %s unlocked by user %s", card_set.pk, editor.pk)
