"""Proposals to the catalog, their review, and the catalog's history of applied changes.

A proposal's payload is DeckLab catalog JSON (contributions.payload): the importer parses,
validates and writes it, so a proposal follows exactly the rules of a staff import.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.models import CardSet, Game

#: the group whose members review proposals (staff are editors too)
EDITORS_GROUP = "catalog-editors"


class ObjectKind(models.TextChoices):
    CARD = "card", _("card")
    SET = "set", _("set")
    PRINTING = "printing", _("printing")
    PRODUCT = "product", _("product")


class Proposal(models.Model):
    class Kind(models.TextChoices):
        CARD = "card", _("New card")
        SET = "set", _("New set")
        CORRECTION = "correction", _("Correction")
        SHEET = "sheet", _("Set sheet")
        NAMES = "names", _("Names in the other language")

    class State(models.TextChoices):
        OPEN = "open", _("Waiting for review")
        CHANGES_REQUESTED = "changes_requested", _("Changes requested")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class SourceKind(models.TextChoices):
        IN_HAND = "in_hand", _("A card in hand")
        PUBLISHER_PAGE = "publisher_page", _("The publisher's page")
        RULEBOOK = "rulebook", _("A rulebook")
        OTHER = "other", _("Other")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="proposals")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.OPEN)
    title = models.CharField(_("title"), max_length=200, blank=True)
    #: DeckLab catalog JSON of this game (docs/catalog-format.md)
    payload = models.JSONField(_("payload"))
    target_kind = models.CharField(
        _("corrected row"), max_length=10, choices=ObjectKind.choices, blank=True
    )
    target_code = models.CharField(_("corrected code"), max_length=300, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    source_kind = models.CharField(_("source"), max_length=20, choices=SourceKind.choices)
    source_detail = models.TextField(_("source details"))
    source_url = models.URLField(_("source address"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decision_note = models.TextField(_("editor's note"), blank=True)

    class Meta:
        indexes = [
            # review_queue: a game's open proposals, oldest first
            models.Index(fields=["game", "state", "created_at"], name="proposal_queue"),
            # proposals_of (newest first) and the hourly count of proposal_submit's rate limit
            models.Index(fields=["author", "-created_at"], name="proposal_author"),
        ]
        ordering = ["-created_at"]
        verbose_name = _("proposal")
        verbose_name_plural = _("proposals")

    def __str__(self) -> str:
        return self.title or f"{self.get_kind_display()} #{self.pk}"


class ProposalEvent(models.Model):
    """One step of a proposal's review, by whom and with what note."""

    class Action(models.TextChoices):
        SUBMITTED = "submitted", _("submitted")
        ASKED = "asked", _("asked for changes")
        RESUBMITTED = "resubmitted", _("resubmitted")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        WITHDRAWN = "withdrawn", _("withdrawn")
        REVERTED = "reverted", _("reverted")

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    note = models.TextField(_("note"), blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        # a proposal's page and proposals_of: its events in order
        indexes = [models.Index(fields=["proposal", "at"], name="proposal_event_order")]
        ordering = ["at", "id"]
        verbose_name = _("proposal event")
        verbose_name_plural = _("proposal events")

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.at:%Y-%m-%d %H:%M})"


class CatalogChange(models.Model):
    """One catalog row before and after an applied proposal or a revert: the history."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="catalog_changes")
    object_kind = models.CharField(_("row"), max_length=10, choices=ObjectKind.choices)
    #: the row's code; a printing's is "card/set/number[/variant]" (payload.printing_code)
    object_code = models.CharField(_("code"), max_length=300)
    #: the row as DeckLab catalog JSON before the change; null: the change created it
    before = models.JSONField(_("before"), null=True, blank=True)
    #: ... and after it; null: the change deleted it
    after = models.JSONField(_("after"), null=True, blank=True)
    proposal = models.ForeignKey(
        Proposal, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("approved by"),
    )
    source = models.TextField(_("source"), blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)
    reverts = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reverted_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        indexes = [
            # card_history: a card's changes (code =) and its printings' (code LIKE 'code/%'),
            # so the code's operator class serves a prefix match whatever the collation
            models.Index(
                fields=["game", "object_kind", "object_code"],
                name="change_object",
                opclasses=["int8_ops", "varchar_pattern_ops", "varchar_pattern_ops"],
            ),
        ]
        ordering = ["-at", "-id"]
        verbose_name = _("catalog change")
        verbose_name_plural = _("catalog changes")

    def __str__(self) -> str:
        return f"{self.object_kind} {self.object_code} ({self.at:%Y-%m-%d %H:%M})"


class SetLock(models.Model):
    """An editor's lock on a set: proposals touching it are refused until it is unlocked."""

    card_set = models.OneToOneField(CardSet, on_delete=models.CASCADE, related_name="lock")
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("locked by"),
    )
    note = models.TextField(_("note"), blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("set lock")
        verbose_name_plural = _("set locks")

    def __str__(self) -> str:
        return str(self.card_set)
