"""Decks, their entries and their immutable revisions.

A deck points at cards (optionally pinning a printing); zones are the game's, declared as
data in decks/games/. Decks are addressed by an unguessable ``public_id`` so an unlisted deck
is reachable only by its link; private decks are 404 to everyone but their owner.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from catalog.models import Card, Game, Printing, Product

MAX_QUANTITY = 99
MAX_ENTRIES = 500
MAX_DESCRIPTION = 20_000


def new_public_id() -> str:
    return secrets.token_urlsafe(12)


class Deck(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        UNLISTED = "unlisted", _("Unlisted (only by its link)")
        PRIVATE = "private", _("Private")

    public_id = models.CharField(max_length=24, unique=True, default=new_public_id, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="decks")
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(
        _("description (Markdown)"), blank=True, max_length=MAX_DESCRIPTION
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    variant = models.CharField(_("rules variant"), max_length=20, blank=True)
    extras = models.JSONField(_("game extras"), default=dict, blank=True)
    # Optimistic concurrency: every write names the version it read; a stale one is refused.
    version = models.PositiveIntegerField(default=1)
    # Kept current by the services so listings filter on legality without re-checking decks.
    is_legal = models.BooleanField(default=False)
    card_count = models.PositiveIntegerField(default=0)
    cloned_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="clones"
    )
    source_product = models.ForeignKey(
        Product, on_delete=models.SET_NULL, null=True, blank=True, related_name="decks"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: set by a service write: what it computed of the deck (decks.services.DeckComputed)
    computed: Any = None

    class Meta:
        indexes = [
            # public deck browser: a game's public decks, newest first
            models.Index(fields=["game", "visibility", "-updated_at"], name="deck_browse"),
            # profile page: a player's decks, newest first
            models.Index(fields=["owner", "-updated_at"], name="deck_owner"),
        ]
        ordering = ["-updated_at"]
        verbose_name = _("deck")
        verbose_name_plural = _("decks")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.public_id])


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    printing = models.ForeignKey(
        Printing, on_delete=models.SET_NULL, null=True, blank=True, related_name="deck_entries"
    )
    zone = models.SlugField(_("zone"), max_length=30)
    quantity = models.PositiveSmallIntegerField(
        _("quantity"), validators=[MinValueValidator(1), MaxValueValidator(MAX_QUANTITY)]
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["deck", "zone", "card", "printing"],
                name="deck_entry_identity",
                nulls_distinct=False,
            ),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1, quantity__lte=MAX_QUANTITY),
                name="deck_entry_quantity_bounds",
            ),
        ]
        ordering = ["zone", "id"]
        verbose_name = _("deck entry")
        verbose_name_plural = _("deck entries")

    def __str__(self) -> str:
        return f"{self.quantity} × {self.card}"


class DeckRevision(models.Model):
    """An immutable snapshot of a deck after a save: history and diffs read these."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=300, blank=True)
    snapshot = models.JSONField()
    #: what changed since the revision before, as data (decks.snapshots.SnapshotDiff.as_dict),
    #: so the history is written in each reader's language; empty for the first revision
    changes = models.JSONField(default=dict, blank=True)
    #: how it was made: "edit" (editor clicks, one revision per editing session), or "" for an
    #: explicit save, an import, a restore or a creation, which always stay revisions of their own
    kind = models.CharField(max_length=12, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="revision_number_per_deck")
        ]
        ordering = ["deck", "-number"]
        verbose_name = _("deck revision")
        verbose_name_plural = _("deck revisions")

    def __str__(self) -> str:
        return f"{self.deck} r{self.number}"
