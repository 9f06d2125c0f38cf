"""A player's collection: items (a printing with a quantity and how the copies are), the
append-only log of every change, import batches, the wishlist and decks marked as built.

Identical items merge: (owner, printing, condition, finish, language, binder) is unique.
Nothing changes a quantity without a ``CollectionChange`` row saying so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from catalog.models import Card, CardSet, Printing
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
    """Per player: collections are private unless the player makes theirs public. Public
    shows others the trade list; ``shows_all_cards`` adds every card and its quantity. Notes,
    prices, binders, tags and acquisition dates are the owner's alone, public or not.

    The row is also the player's collection lock (``collection.services``)."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_settings"
    )
    is_public = models.BooleanField(_("public collection"), default=False)
    shows_all_cards = models.BooleanField(
        _("public collection shows every card and quantity"), default=False
    )

    class Meta:
        verbose_name = _("collection settings")
        verbose_name_plural = _("collection settings")

    def __str__(self) -> str:
        return f"{self.owner} ({'public' if self.is_public else 'private'})"


def fill_printing_columns(items: Iterable[CollectionItem]) -> None:
    """Copy each item's printing's card and set onto it, where not already there (one query
    for all the items that need it; none when every item has them)."""
    needing = [i for i in items if i.card_id is None or i.card_set_id is None]
    if not needing:
        return
    found = {
        pk: (card_id, set_id)
        for pk, card_id, set_id in Printing.objects.filter(
            pk__in={i.printing_id for i in needing}
        ).values_list("pk", "card_id", "card_set_id")
    }
    for item in needing:
        if item.printing_id in found:  # an unknown printing fails on its own foreign key
            item.card_id, item.card_set_id = found[item.printing_id]


class CollectionItemManager(models.Manager["CollectionItem"]):
    def bulk_create(
        self, objs: Iterable[CollectionItem], *args: Any, **kwargs: Any
    ) -> list[CollectionItem]:
        # bulk_create skips save(): the printing's card and set are filled here instead
        made = list(objs)
        fill_printing_columns(made)
        return super().bulk_create(made, *args, **kwargs)


class CollectionItem(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_items"
    )
    printing = models.ForeignKey(
        Printing, on_delete=models.PROTECT, related_name="collection_items"
    )
    # The printing's card and set, copied onto the item when it is made (``save``,
    # ``bulk_create``; ``collection.services`` passes them along) and kept in step when a
    # printing is moved (``collection.receivers``): the collection page's totals and set
    # completion count a player's items without joining each to its printing, which cost
    # 200 ms at 100,000 items (issue 19). No index of their own: a player's items are found by
    # the (owner, card_set, card) and (owner, card) indexes below; deleting a card or set is
    # rare. No database constraint either: the printing's own foreign key already holds its
    # card and set (PROTECT on both sides), and two more checks per item cost 0.6 s of a
    # 10,000-row import.
    card = models.ForeignKey(
        Card,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        db_index=False,
        db_constraint=False,
    )
    card_set = models.ForeignKey(
        CardSet,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        db_index=False,
        db_constraint=False,
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

    objects = CollectionItemManager()

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
            # set completion (distinct cards per set), the page's totals of a game (its sets)
            # or of one set, and a set's missing cards: read from the index alone
            models.Index(
                fields=["owner", "card_set", "card"],
                include=["quantity", "trade_quantity"],
                name="collection_owner_set_card",
            ),
            # the search's is:owned/is:free: a player's copies of one card, probed per card
            # (collection/search.py)
            models.Index(fields=["owner", "card"], name="collection_owner_card"),
        ]
        ordering = ["printing", "condition", "finish", "language", "binder"]
        verbose_name = _("collection item")
        verbose_name_plural = _("collection items")

    def __str__(self) -> str:
        return f"{self.quantity} × {self.printing_id} ({self.condition}, {self.finish})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        fill_printing_columns([self])
        super().save(*args, **kwargs)


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
    #: a file read with the player's column mapping: our field -> its column's index
    mapping = models.JSONField(_("column mapping"), default=dict, blank=True)
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


class ColumnMapping(models.Model):
    """A header a player mapped to our fields by hand, remembered: the next file with the same
    header (compared normalised, by its hash) is read the same way without asking."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_mappings"
    )
    header_hash = models.CharField(_("header hash"), max_length=64)
    header = models.JSONField(_("header"), default=list)
    #: our field -> the column's index in the header
    mapping = models.JSONField(_("column mapping"), default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "header_hash"], name="collection_mapping_per_header"
            )
        ]
        verbose_name = _("column mapping")
        verbose_name_plural = _("column mappings")

    def __str__(self) -> str:
        return f"{self.owner}: {', '.join(self.header)[:60]}"


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


class CollectionJob(models.Model):
    """A big preview, commit, undo or export run by a worker (``collection/jobs.py``): its
    progress for the page and the API, and its outcome (a summary, problems or the export)."""

    class Kind(models.TextChoices):
        PREVIEW = "preview", _("Import preview")
        COMMIT = "commit", _("Import")
        UNDO = "undo", _("Undo of an import")
        EXPORT = "export", _("Export")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Done")
        FAILED = "failed", _("Failed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_jobs"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(
        _("progress"), default=0, validators=[MaxValueValidator(100)]
    )
    #: the batch committed or undone, or the one a preview stored
    batch = models.ForeignKey(
        ImportBatch, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    #: what the job was asked: game, format, file name, typed list…
    params = models.JSONField(default=dict, blank=True)
    #: a preview's text (the batch keeps it once it is clean); an export's CSV once done
    content = models.TextField(blank=True)
    #: the outcome for the page and the API (counts, the first rows of a preview, warnings)
    result = models.JSONField(default=dict, blank=True)
    #: every problem as {"line", "column", "message"} (a refused file) or {"message"}
    problems = models.JSONField(default=list, blank=True)
    #: the requester's language: the worker writes problems in it
    language = models.CharField(max_length=10, default="en")
    #: deliveries claimed; a job whose worker was lost this many times fails plainly
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    #: queued: a worker should claim it by then; running: its worker renews it while alive
    lease_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="collection_job_progress_bounds"
            )
        ]
        indexes = [
            # the sweep: unfinished jobs whose lease lapsed
            models.Index(
                fields=["lease_until"],
                condition=models.Q(status__in=["queued", "running"]),
                name="collection_job_lease",
            ),
            # a player's jobs, newest first (the import page, the hourly import limit)
            models.Index(fields=["owner", "-created_at"], name="collection_job_recent"),
        ]
        ordering = ["-created_at"]
        verbose_name = _("collection job")
        verbose_name_plural = _("collection jobs")

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)
