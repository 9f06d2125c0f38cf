"""A player's collection: items (a printing with a quantity and how the copies are), the
append-only log of every change, import batches, the wishlist and decks marked as built.

Identical items merge: (owner, printing, condition, finish, language, binder) is unique.
Nothing changes a quantity without a ``CollectionChange`` row saying so.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from catalog.models import Card, Printing
from collection.vocab import Condition
from decks.models import Deck

MAX_QUANTITY = 9_999
MAX_WISH_QUANTITY = 999
MAX_TAGS = 20
MAX_TAG_LENGTH = 40
MAX_BINDER = 80
MAX_NOTE = 500
MAX_PRICE_DIGITS = 10


class CollectionSettings(models.Model):
    """Per player: collections are private unless the player makes theirs public."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_settings"
    )
    is_public = models.BooleanField(_("public collection"), default=False)

    class Meta:
        verbose_name = _("collection settings")
        verbose_name_plural = _("collection settings")

    def __str__(self) -> str:
        return f"{self.owner} ({'public' if self.is_public else 'private'})"


class CollectionItem(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_items"
    )
    printing = models.ForeignKey(
        Printing, on_delete=models.PROTECT, related_name="collection_items"
    )
    quantity = models.PositiveIntegerField(
        _("quantity"), validators=[MinValueValidator(1), MaxValueValidator(MAX_QUANTITY)]
    )
    trade_quantity = models.PositiveIntegerField(
        _("for trade"), default=0, validators=[MaxValueValidator(MAX_QUANTITY)]
    )
    condition = models.CharField(
        _("condition"), max_length=20, choices=Condition.choices, default=Condition.NEAR_MINT
    )
    finish = models.SlugField(_("finish"), max_length=30, default="normal")
    language = models.SlugField(_("language"), max_length=10)
    binder = models.CharField(_("binder"), max_length=MAX_BINDER, blank=True)
    tags = models.JSONField(_("tags"), default=list, blank=True)
    acquired_on = models.DateField(_("acquired on"), null=True, blank=True)
    price = models.DecimalField(
        _("price paid (each)"), max_digits=MAX_PRICE_DIGITS, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(_("currency"), max_length=3, blank=True)
    note = models.CharField(_("note"), max_length=MAX_NOTE, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "printing", "condition", "finish", "language", "binder"],
                name="collection_item_identity",
            ),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1, quantity__lte=MAX_QUANTITY),
                name="collection_item_quantity_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(trade_quantity__lte=models.F("quantity")),
                name="collection_item_trade_within_quantity",
            ),
        ]
        indexes = [
            # the deck report and the card page: a player's copies of some printings
            models.Index(fields=["owner", "printing"], name="collection_owner_printing"),
            # the collection page filtered by binder, and its list of binders
            models.Index(fields=["owner", "binder"], name="collection_owner_binder"),
            # the collection page's default order: recently changed first
            models.Index(fields=["owner", "-updated_at", "-id"], name="collection_owner_recent"),
        ]
        ordering = ["printing", "condition", "finish", "language", "binder"]
        verbose_name = _("collection item")
        verbose_name_plural = _("collection items")

    def __str__(self) -> str:
        return f"{self.quantity} × {self.printing_id} ({self.condition}, {self.finish})"


class ImportBatch(models.Model):
    """One CSV import: previewed, then committed (or not), then perhaps undone."""

    class Status(models.TextChoices):
        PREVIEWED = "previewed", _("Previewed")
        COMMITTED = "committed", _("Committed")
        UNDONE = "undone", _("Undone")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_imports"
    )
    game = models.SlugField(_("game"), max_length=40, blank=True)
    dialect = models.SlugField(_("format"), max_length=20)
    file_name = models.CharField(_("file name"), max_length=255, blank=True)
    # the text itself, bounded by the import's size limit, so commit re-reads what was shown
    content = models.TextField(_("content"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PREVIEWED
    )
    row_count = models.PositiveIntegerField(_("rows"), default=0)
    copy_count = models.PositiveIntegerField(_("copies"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    committed_at = models.DateTimeField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # the import page's "your imports", newest first
        indexes = [models.Index(fields=["owner", "-created_at"], name="collection_import_recent")]
        ordering = ["-created_at"]
        verbose_name = _("collection import")
        verbose_name_plural = _("collection imports")

    def __str__(self) -> str:
        return f"{self.file_name or self.dialect} ({self.status})"


class CollectionChange(models.Model):
    """Append-only: one row per change of one item's quantity, never updated or deleted."""

    class Action(models.TextChoices):
        ADD = "add", _("Added")
        CHANGE = "change", _("Quantity changed")
        REMOVE = "remove", _("Removed")
        MOVE_OUT = "move-out", _("Moved to another binder")
        MOVE_IN = "move-in", _("Moved from another binder")
        IMPORT = "import", _("Imported")
        UNDO = "undo", _("Import undone")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_changes"
    )
    item = models.ForeignKey(
        CollectionItem, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    printing = models.ForeignKey(Printing, on_delete=models.PROTECT, related_name="+")
    condition = models.CharField(max_length=20)
    finish = models.SlugField(max_length=30)
    language = models.SlugField(max_length=10)
    binder = models.CharField(max_length=MAX_BINDER, blank=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    quantity_before = models.PositiveIntegerField()
    quantity_after = models.PositiveIntegerField()
    batch = models.ForeignKey(
        ImportBatch, on_delete=models.PROTECT, null=True, blank=True, related_name="changes"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # the history page and an import's undo: a player's changes, newest first
        indexes = [models.Index(fields=["owner", "-created_at"], name="collection_change_recent")]
        ordering = ["-created_at", "-id"]
        verbose_name = _("collection change")
        verbose_name_plural = _("collection changes")

    def __str__(self) -> str:
        return f"{self.action} {self.quantity_before}→{self.quantity_after}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("The collection's change log is append-only.")
        super().save(*args, **kwargs)

    @property
    def delta(self) -> int:
        return self.quantity_after - self.quantity_before


class WishlistItem(models.Model):
    """A card wished for: any printing (``printing`` empty) or a pinned one."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wishlist_items"
    )
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="wishlist_items")
    printing = models.ForeignKey(
        Printing, on_delete=models.CASCADE, null=True, blank=True, related_name="wishlist_items"
    )
    quantity = models.PositiveIntegerField(
        _("quantity"), validators=[MinValueValidator(1), MaxValueValidator(MAX_WISH_QUANTITY)]
    )
    note = models.CharField(_("note"), max_length=MAX_NOTE, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "card", "printing"],
                name="wishlist_item_identity",
                nulls_distinct=False,
            ),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1, quantity__lte=MAX_WISH_QUANTITY),
                name="wishlist_quantity_bounds",
            ),
        ]
        ordering = ["card__name_en", "id"]
        verbose_name = _("wishlist item")
        verbose_name_plural = _("wishlist items")

    def __str__(self) -> str:
        return f"{self.quantity} × {self.card_id}"


class DeckBuild(models.Model):
    """A deck marked as built: the copies it holds are reserved for it."""

    deck = models.OneToOneField(Deck, on_delete=models.CASCADE, related_name="build")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deck_builds"
    )
    built_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("built deck")
        verbose_name_plural = _("built decks")

    def __str__(self) -> str:
        return f"built {self.deck_id}"


class Reservation(models.Model):
    """Copies of one item held by one built deck."""

    build = models.ForeignKey(DeckBuild, on_delete=models.CASCADE, related_name="reservations")
    item = models.ForeignKey(
        # RESTRICT: deleting a player deletes their builds too; deleting only the item is refused
        CollectionItem,
        on_delete=models.RESTRICT,
        related_name="reservations",
    )
    quantity = models.PositiveIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["build", "item"], name="reservation_identity"),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1), name="reservation_quantity_positive"
            ),
        ]
        verbose_name = _("reservation")
        verbose_name_plural = _("reservations")

    def __str__(self) -> str:
        return f"{self.quantity} of {self.item_id} for {self.build_id}"
