"""The catalog: games, sets, cards (the card itself), printings and products.

The card and its printings are kept apart (as Forge and Cockatrice do): a deck points at a
card, optionally pinning a printing; a collection points at printings.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from catalog.attributes import AttributeErrors
from catalog.kinds import Kinds, ProductKind, SetKind, kind_codes, kind_label
from catalog.search import search_key
from catalog.spec import GameSpec, get_game, is_game

MAX_PRODUCT_QUANTITY = 99
UNKNOWN_KIND = _("Not a kind of this game: %(kinds)s")


class Bilingual(models.Model):
    """Names in Japanese and English; either may be missing where it is not known."""

    name_en = models.CharField(_("English name"), max_length=200, blank=True)
    name_ja = models.CharField(_("Japanese name"), max_length=200, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The name in the active language, falling back to the other one."""
        if (get_language() or "en").startswith("ja"):
            return self.name_ja or self.name_en
        return self.name_en or self.name_ja

    @property
    def other_name(self) -> str:
        """The name in the other language, when it differs."""
        other = self.name_en if self.name == self.name_ja else self.name_ja
        return other if other and other != self.name else ""

    def clean(self) -> None:
        if not (self.name_en or self.name_ja):
            raise ValidationError({"name_en": _("Give a name in English or Japanese.")})


class Provenance(models.Model):
    """Where a row comes from, and whether it was invented for demonstration."""

    source = models.CharField(_("source"), max_length=300, blank=True)
    is_demo = models.BooleanField(_("demo"), default=False, db_index=True)

    class Meta:
        abstract = True


class Game(Bilingual):
    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    sort_order = models.PositiveSmallIntegerField(default=100)

    class Meta:
        ordering = ["sort_order", "slug"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def get_absolute_url(self) -> str:
        return reverse("catalog:game", args=[self.slug])

    @property
    def spec(self) -> GameSpec:
        return get_game(self.slug)


def _kind_label(game: Game, kind: str, declared: Callable[[GameSpec], Kinds]) -> str:
    """A set or product kind in its game's own words (the code, for a game gone missing)."""
    return kind_label(declared(game.spec), kind) if is_game(game.slug) else kind


def _check_kind(row: CardSet | Product, declared: Callable[[GameSpec], Kinds]) -> None:
    """Refuse a kind the row's game does not declare (catalog.kinds: kinds are data, kept as
    plain codes, so the database cannot refuse one)."""
    try:
        game = row.game
    except ObjectDoesNotExist:
        return  # the form reports the missing game itself
    if not is_game(game.slug):
        return
    codes = kind_codes(declared(game.spec))
    if row.kind not in codes:
        raise ValidationError({"kind": UNKNOWN_KIND % {"kinds": ", ".join(codes)}})


class CardSet(Bilingual, Provenance):
    #: the shared kinds' codes; a game may declare others (GameSpec.set_kinds)
    Kind = SetKind

    class Precision(models.TextChoices):
        DAY = "day", _("day")
        MONTH = "month", _("month")
        YEAR = "year", _("year")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sets")
    code = models.SlugField(_("code"), max_length=80)
    kind = models.CharField(_("kind"), max_length=20, default=SetKind.EXPANSION)
    release_date = models.DateField(_("release date"), null=True, blank=True)
    release_precision = models.CharField(
        max_length=5, choices=Precision.choices, default=Precision.DAY
    )
    official_size = models.PositiveIntegerField(
        _("official size"), null=True, blank=True, help_text=_("Distinct cards, as published.")
    )
    # A player's own set (custom cards from an imported fan-made deck): never in the public
    # catalog, visible to its owner only.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="custom_sets",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="set_code_per_game")]
        # game page: a game's sets in release order
        indexes = [models.Index(fields=["game", "release_date"], name="set_game_released")]
        ordering = ["game", "release_date", "code"]
        verbose_name = _("set")
        verbose_name_plural = _("sets")

    def get_absolute_url(self) -> str:
        return reverse("catalog:set", args=[self.game.slug, self.code])

    def get_kind_display(self) -> str:
        return _kind_label(self.game, self.kind, attrgetter("set_kinds"))

    def clean(self) -> None:
        super().clean()
        _check_kind(self, attrgetter("set_kinds"))

    @property
    def released(self) -> str:
        """The release date at the precision it is known."""
        if self.release_date is None:
            return ""
        if self.release_precision == self.Precision.YEAR:
            return f"{self.release_date:%Y}"
        if self.release_precision == self.Precision.MONTH:
            return f"{self.release_date:%Y-%m}"
        return self.release_date.isoformat()


def listed(prefix: str = "") -> models.Q:
    """The condition of a card the public catalog lists (``prefix`` reaches it from another
    row, ``"card__"`` from a printing): not a player's own card, not withdrawn."""
    return models.Q(**{f"{prefix}owner__isnull": True, f"{prefix}withdrawn_at__isnull": True})


class CardQuerySet(models.QuerySet["Card"]):
    def listed(self) -> CardQuerySet:
        """The cards a player browses: every catalog read path starts here."""
        return self.filter(listed())


class Card(Bilingual, Provenance):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards")
    code = models.SlugField(_("code"), max_length=120)
    card_type = models.CharField(_("type"), max_length=40)
    attributes = models.JSONField(_("attributes"), default=dict, blank=True)
    copy_limit = models.PositiveSmallIntegerField(
        _("copy limit"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_("Only where the card's own text changes the game's copy limit."),
    )
    search_key = models.TextField(editable=False, default="")
    # A player's own card (from a custom deck import): kept out of the public catalog.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="custom_cards",
    )
    # Taken out of the catalog (the revert of its creation while decks or collections use it):
    # hidden from every list a player browses, kept for the decks and collections that hold it.
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # why, in both languages as the names are (written by whoever withdraws it); a default in
    # the database too: the importer's bulk path inserts rows in raw SQL
    withdrawn_note = models.CharField(
        _("why it was withdrawn"), max_length=300, blank=True, db_default=""
    )
    withdrawn_note_ja = models.CharField(
        _("why it was withdrawn (Japanese)"), max_length=300, blank=True, db_default=""
    )

    objects = CardQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="card_code_per_game")]
        indexes = [
            # set and game pages filter a game's cards by type
            models.Index(fields=["game", "card_type"], name="card_game_type"),
            # name-sorted lists and the name search
            models.Index(fields=["game", "name_en"], name="card_game_name_en"),
        ]
        ordering = ["game", "name_en", "name_ja"]
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_key = search_key(self.name_en, self.name_ja)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("catalog:card", args=[self.game.slug, self.code])

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game.slug)

    @property
    def withdrawn_reason(self) -> str:
        """Why it was withdrawn, in the active language where written in it (as ``name``)."""
        if (get_language() or "en").startswith("ja"):
            return self.withdrawn_note_ja or self.withdrawn_note
        return self.withdrawn_note or self.withdrawn_note_ja

    @property
    def type_label(self) -> str:
        return self.spec.card_type_label(self.card_type)

    def clean(self) -> None:
        super().clean()
        try:
            self.game  # noqa: B018 -- raises when no game is set
        except ObjectDoesNotExist:
            return  # the form reports the missing game itself
        if not is_game(self.game.slug):
            raise ValidationError({"game": _("This game has no catalog module.")})
        spec = self.spec
        if self.card_type not in spec.card_type_codes:
            raise ValidationError(
                {
                    "card_type": _("Not a card type of this game: %(types)s")
                    % {"types": ", ".join(spec.card_type_codes)}
                }
            )
        try:
            self.attributes = spec.validate_card_attributes(self.card_type, self.attributes)
        except AttributeErrors as exc:
            raise ValidationError({"attributes": [str(exc)]}) from exc


class Printing(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="printings")
    collector_number = models.CharField(_("collector number"), max_length=40, blank=True)
    variant = models.CharField(_("variant"), max_length=40, blank=True)
    attributes = models.JSONField(_("attributes"), default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["card", "card_set", "collector_number", "variant"],
                name="printing_identity",
            )
        ]
        # set page: a set's printings in number order
        indexes = [models.Index(fields=["card_set", "collector_number"], name="printing_set_no")]
        ordering = ["card_set", "collector_number", "variant"]
        verbose_name = _("printing")
        verbose_name_plural = _("printings")

    def __str__(self) -> str:
        parts = [str(self.card), f"({self.card_set.code})"]
        if self.collector_number:
            parts.append(self.collector_number)
        if self.variant:
            parts.append(f"[{self.variant}]")
        return " ".join(parts)

    @property
    def is_demo(self) -> bool:
        return self.card.is_demo or self.card_set.is_demo

    def clean(self) -> None:
        try:
            # in an admin inline the card may be attached but not saved yet: still validate
            card, card_set = self.card, self.card_set
        except ObjectDoesNotExist:
            return  # the form reports the missing card or set itself
        if card.game_id != card_set.game_id:
            raise ValidationError({"card_set": _("The set belongs to another game.")})
        spec = self.card.spec
        if self.variant and self.variant not in dict(spec.variants):
            raise ValidationError({"variant": _("Not a variant of this game.")})
        try:
            self.attributes = spec.validate_printing_attributes(
                self.attributes, self.card.card_type
            )
        except AttributeErrors as exc:
            raise ValidationError({"attributes": [str(exc)]}) from exc


class Product(Bilingual, Provenance):
    #: the shared kinds' codes; a game may declare others (GameSpec.product_kinds)
    Kind = ProductKind

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="products")
    card_set = models.ForeignKey(
        CardSet, on_delete=models.CASCADE, related_name="products", null=True, blank=True
    )
    code = models.SlugField(_("code"), max_length=80)
    kind = models.CharField(_("kind"), max_length=20)
    release_date = models.DateField(_("release date"), null=True, blank=True)
    card_count = models.PositiveIntegerField(
        _("cards per product"), null=True, blank=True, help_text=_("As published.")
    )
    price_yen = models.PositiveIntegerField(_("price (yen)"), null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="product_code_per_game")
        ]
        ordering = ["game", "release_date", "code"]
        verbose_name = _("product")
        verbose_name_plural = _("products")

    def get_absolute_url(self) -> str:
        return reverse("catalog:product", args=[self.game.slug, self.code])

    def get_kind_display(self) -> str:
        return _kind_label(self.game, self.kind, attrgetter("product_kinds"))

    def clean(self) -> None:
        super().clean()
        _check_kind(self, attrgetter("product_kinds"))


class ProductItem(models.Model):
    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="items")
    printing = models.ForeignKey(Printing, on_delete=models.CASCADE, related_name="product_items")
    zone = models.SlugField(_("zone"), max_length=30, default="main")
    quantity = models.PositiveSmallIntegerField(
        _("quantity"), validators=[MinValueValidator(1), MaxValueValidator(MAX_PRODUCT_QUANTITY)]
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["product", "printing", "zone"], name="product_item_identity"
            ),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1, quantity__lte=MAX_PRODUCT_QUANTITY),
                name="product_item_quantity_bounds",
            ),
        ]
        ordering = ["product", "zone", "id"]
        verbose_name = _("product item")
        verbose_name_plural = _("product items")

    def __str__(self) -> str:
        return f"{self.quantity} × {self.printing}"


# === Catalog import jobs (staff uploads run by a Celery task) ================================
# Kept at the end of the module so the upload work touches nothing above this line.


class CatalogImportJob(models.Model):
    """One uploaded catalog file and the progress and outcome of its import."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    class Stage(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        PARSING = "parsing", _("Reading the file")
        VALIDATING = "validating", _("Checking every row")
        WRITING = "writing", _("Writing the catalog")
        DONE = "done", _("Done")

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="catalog_import_jobs",
        verbose_name=_("uploaded by"),
    )
    file_name = models.CharField(_("file name"), max_length=255)
    # The text itself, so a worker on another machine needs no shared disk; the upload form
    # bounds it by CATALOG_UPLOAD_MAX_BYTES.
    content = models.TextField(_("content"))
    game = models.SlugField(_("game"), max_length=40, blank=True)
    #: the uploader's language when the job was created: the worker reports problems in it
    language = models.CharField(_("language"), max_length=10, default="en")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices, default=Stage.QUEUED)
    progress = models.PositiveSmallIntegerField(
        _("progress"), default=0, validators=[MaxValueValidator(100)]
    )
    summary = models.TextField(_("summary"), blank=True)
    #: every problem as {"where": ..., "message": ...}, in file order
    problems = models.JSONField(_("problems"), default=list, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="import_job_progress_bounds"
            )
        ]
        # the upload page's "recent imports" list, newest first
        indexes = [models.Index(fields=["-created_at"], name="import_job_recent")]
        ordering = ["-created_at"]
        verbose_name = _("catalog import")
        verbose_name_plural = _("catalog imports")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:upload-status", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)
