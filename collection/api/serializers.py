"""Input and output serializers of the collection API, one per operation.

Cards are named by their code, printings by ``{game, set, number, variant}`` as in the deck
API; an item's ``id`` is its only name (items have no other)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from collection.interchange.dialects import MAPPABLE, dialect_codes
from collection.interchange.read import MAX_BYTES
from collection.models import (
    MAX_BINDER,
    MAX_NOTE,
    MAX_QUANTITY,
    MAX_TAG_LENGTH,
    MAX_TAGS,
    MAX_WISH_QUANTITY,
    CollectionItem,
    ImportBatch,
    WishlistItem,
)
from collection.vocab import Condition

MAX_BULK = 500


class CollectionPrintingRefInputSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.SlugField(max_length=40, help_text=_("The game's slug."))
    set = serializers.CharField(max_length=80, help_text=_("The set's code."))
    card = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        help_text=_("The card's code; needed when the number does not say which card."),
    )
    number = serializers.CharField(
        max_length=40, required=False, allow_blank=True, help_text=_("Collector number.")
    )
    variant = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text=_("Printing variant; leave out for the plain printing."),
    )


class CollectionItemFieldsSerializer(serializers.Serializer[dict[str, Any]]):
    trade_quantity = serializers.IntegerField(min_value=0, max_value=MAX_QUANTITY, required=False)
    condition = serializers.ChoiceField(choices=Condition.choices, required=False)
    finish = serializers.SlugField(
        max_length=30, required=False, help_text=_("One of the game's finishes.")
    )
    language = serializers.SlugField(
        max_length=10, required=False, help_text=_("A language the game was printed in (ja, en…).")
    )
    binder = serializers.CharField(max_length=MAX_BINDER, required=False, allow_blank=True)
    tags = serializers.ListField(
        child=serializers.CharField(max_length=MAX_TAG_LENGTH), max_length=MAX_TAGS, required=False
    )
    acquired_on = serializers.DateField(required=False, allow_null=True)
    price = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    currency = serializers.RegexField(r"^[A-Z]{3}$", required=False, allow_blank=True)
    note = serializers.CharField(max_length=MAX_NOTE, required=False, allow_blank=True)


class CollectionItemCreateInputSerializer(
    CollectionPrintingRefInputSerializer, CollectionItemFieldsSerializer
):
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)


class CollectionBulkAddInputSerializer(serializers.Serializer[dict[str, Any]]):
    items = serializers.ListField(
        child=CollectionItemCreateInputSerializer(),
        min_length=1,
        max_length=MAX_BULK,
        help_text=_("At most 500 items; identical ones are merged."),
    )


class CollectionItemUpdateInputSerializer(CollectionItemFieldsSerializer):
    quantity = serializers.IntegerField(
        min_value=0,
        max_value=MAX_QUANTITY,
        required=False,
        help_text=_("How many copies now; 0 removes the item."),
    )


class CollectionItemOutputSerializer(serializers.ModelSerializer[CollectionItem]):
    game = serializers.CharField(source="printing.card.game.slug", read_only=True)
    card = serializers.CharField(source="printing.card.code", read_only=True)
    name = serializers.CharField(source="printing.card.name", read_only=True)
    set = serializers.CharField(source="printing.card_set.code", read_only=True)
    number = serializers.CharField(source="printing.collector_number", read_only=True)
    variant = serializers.CharField(source="printing.variant", read_only=True)

    class Meta:
        model = CollectionItem
        fields = [
            "id",
            "game",
            "card",
            "name",
            "set",
            "number",
            "variant",
            "quantity",
            "trade_quantity",
            "condition",
            "finish",
            "language",
            "binder",
            "tags",
            "acquired_on",
            "price",
            "currency",
            "note",
            "updated_at",
        ]
        read_only_fields = fields


class CollectionItemPublicOutputSerializer(serializers.ModelSerializer[CollectionItem]):
    """An item of another player's public collection: never their notes, prices, binders, tags,
    acquisition dates or when they changed it."""

    game = serializers.CharField(source="printing.card.game.slug", read_only=True)
    card = serializers.CharField(source="printing.card.code", read_only=True)
    name = serializers.CharField(source="printing.card.name", read_only=True)
    set = serializers.CharField(source="printing.card_set.code", read_only=True)
    number = serializers.CharField(source="printing.collector_number", read_only=True)
    variant = serializers.CharField(source="printing.variant", read_only=True)
    quantity = serializers.IntegerField(
        source="shown_quantity",
        read_only=True,
        help_text=_(
            "Copies the player shows: all of them when they show every card, else those "
            "offered for trade."
        ),
    )

    class Meta:
        model = CollectionItem
        fields = [
            "id",
            "game",
            "card",
            "name",
            "set",
            "number",
            "variant",
            "quantity",
            "trade_quantity",
            "condition",
            "finish",
            "language",
        ]
        read_only_fields = fields


class ImportTextField(serializers.CharField):
    """A file's text (up to 16 MB): DRF's surrogate check walks it in Python (seconds for a
    200,000-row file); encoding it finds the same characters at C speed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitSurrogateCharactersValidator)
        ]

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            found = ord(text[exc.start])
            message = ProhibitSurrogateCharactersValidator.message.format(code_point=found)
            raise serializers.ValidationError(message) from None
        return text


class CollectionImportInputSerializer(serializers.Serializer[dict[str, Any]]):
    content = ImportTextField(
        max_length=MAX_BYTES, trim_whitespace=False, help_text=_("The CSV file's text.")
    )
    game = serializers.SlugField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text=_("The game of the file's cards (DeckLab CSV names it on each row)."),
    )
    format = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        help_text=_(
            "decklab, deckbox, moxfield, manabox, dragonshield, archidekt or tcgplayer; leave "
            "out to recognise the format by its header row. generic: a spreadsheet read by its "
            "column names. list: a typed list, “3 Flame Fox (MT1) 001” per line."
        ),
    )
    mapping = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text=_(
            "For a header that cannot be read: which column holds each of our fields, as the "
            "column's 0-based index or its header text, e.g. {“quantity”: 0, “name”: “Card”}. "
            "Needs the quantity and the name (or card code). Remembered for that header."
        ),
    )

    def validate_mapping(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > len(MAPPABLE):
            raise serializers.ValidationError(_("Map each field at most once."))
        for name, where in value.items():
            if name not in MAPPABLE:
                raise serializers.ValidationError(
                    _("“%(field)s” is not a field; fields are %(fields)s.")
                    % {"field": name[:40], "fields": ", ".join(MAPPABLE)}
                )
            readable = (isinstance(where, int) and not isinstance(where, bool)) or (
                isinstance(where, str) and len(where) <= 200
            )
            if not readable:
                raise serializers.ValidationError(
                    _("Give the column of “%(field)s” as its index or its header text.")
                    % {"field": name}
                )
        return value

    def validate_format(self, value: str) -> str:
        codes = [*dialect_codes(), "generic", "list"]
        if value and value not in codes:
            raise serializers.ValidationError(
                _("Give one of the formats: %(formats)s.") % {"formats": ", ".join(codes)}
            )
        return value

    file_name = serializers.CharField(max_length=255, required=False, allow_blank=True)


class CollectionProblemOutputSerializer(serializers.Serializer[dict[str, Any]]):
    line = serializers.IntegerField()
    column = serializers.CharField()
    message = serializers.CharField()


class CollectionImportProblemsOutputSerializer(serializers.Serializer[dict[str, Any]]):
    detail = serializers.CharField()
    problems = CollectionProblemOutputSerializer(many=True)
    header = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=_("A header that needs a mapping: its cells, to send a “mapping” for."),
    )
    rows = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text=_("The file's first rows, with the header."),
    )
    mappable = serializers.ListField(
        child=serializers.CharField(), required=False, help_text=_("Fields a column can hold.")
    )
    formats = serializers.CharField(
        required=False, help_text=_("The collection format page: every format and its header.")
    )


class CollectionPlannedItemOutputSerializer(serializers.Serializer[dict[str, Any]]):
    printing = serializers.CharField()
    condition = serializers.CharField()
    finish = serializers.CharField()
    language = serializers.CharField()
    binder = serializers.CharField()
    quantity = serializers.IntegerField(help_text=_("Copies the file adds."))
    before = serializers.IntegerField(help_text=_("Copies you have now."))
    after = serializers.IntegerField()
    merged = serializers.BooleanField(help_text=_("Added to an item you already have."))


class CollectionImportOutputSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    format = serializers.CharField()
    rows = serializers.IntegerField(help_text=_("Rows read."))
    merged_rows = serializers.IntegerField(help_text=_("Rows that repeated an earlier row."))
    new_items = serializers.IntegerField()
    merged_items = serializers.IntegerField()
    copies = serializers.IntegerField()
    items = CollectionPlannedItemOutputSerializer(many=True, help_text=_("The first 200 items."))


class CollectionBatchOutputSerializer(serializers.Serializer[ImportBatch]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    format = serializers.CharField(source="dialect")
    row_count = serializers.IntegerField()
    copy_count = serializers.IntegerField()
    committed_at = serializers.DateTimeField(allow_null=True)
    undone_at = serializers.DateTimeField(allow_null=True)


class CollectionExportOutputSerializer(serializers.Serializer[dict[str, Any]]):
    format = serializers.CharField()
    rows = serializers.IntegerField()
    content = serializers.CharField()
    warnings = serializers.ListField(
        child=serializers.CharField(), help_text=_("What the format could not carry.")
    )


class CollectionWishInputSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.SlugField(max_length=40)
    card = serializers.CharField(max_length=120)
    set = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        help_text=_("Pin a printing: its set's code (leave out for any printing)."),
    )
    number = serializers.CharField(max_length=40, required=False, allow_blank=True)
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True)
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_WISH_QUANTITY, default=1)


class CollectionWishUpdateInputSerializer(serializers.Serializer[dict[str, Any]]):
    quantity = serializers.IntegerField(
        min_value=0, max_value=MAX_WISH_QUANTITY, help_text=_("0 removes the wish.")
    )


class CollectionWishOutputSerializer(serializers.ModelSerializer[WishlistItem]):
    game = serializers.CharField(source="card.game.slug", read_only=True)
    card = serializers.CharField(source="card.code", read_only=True)
    name = serializers.CharField(source="card.name", read_only=True)
    set = serializers.SerializerMethodField()
    number = serializers.SerializerMethodField()

    class Meta:
        model = WishlistItem
        fields = ["id", "game", "card", "name", "set", "number", "quantity"]
        read_only_fields = fields

    def get_set(self, wish: WishlistItem) -> str:
        return wish.printing.card_set.code if wish.printing else ""

    def get_number(self, wish: WishlistItem) -> str:
        return wish.printing.collector_number if wish.printing else ""


class CollectionSettingsSerializer(serializers.Serializer[dict[str, Any]]):
    is_public = serializers.BooleanField(
        required=False,
        help_text=_(
            "Anyone may read a public collection (never change it): the cards you mark for "
            "trade, with their set, condition, finish, language and the copies offered."
        ),
    )
    shows_all_cards = serializers.BooleanField(
        required=False,
        help_text=_(
            "A public collection also shows every card you own and how many copies. Notes, "
            "prices paid, binders, tags and acquisition dates are never shown to others."
        ),
    )


class CollectionHeldByOutputSerializer(serializers.Serializer[dict[str, Any]]):
    deck_name = serializers.CharField()
    public_id = serializers.CharField()
    quantity = serializers.IntegerField()


class CollectionReportEntryOutputSerializer(serializers.Serializer[dict[str, Any]]):
    entry_id = serializers.IntegerField()
    zone = serializers.CharField()
    card = serializers.CharField()
    printing = serializers.CharField(allow_blank=True)
    needed = serializers.IntegerField()
    owned = serializers.IntegerField()
    missing = serializers.IntegerField()
    held_by = CollectionHeldByOutputSerializer(many=True)


class CollectionDeckReportOutputSerializer(serializers.Serializer[dict[str, Any]]):
    buildable = serializers.BooleanField()
    is_built = serializers.BooleanField()
    needed = serializers.IntegerField()
    owned = serializers.IntegerField()
    missing = serializers.IntegerField()
    entries = CollectionReportEntryOutputSerializer(many=True)


class CollectionWishlistAddedOutputSerializer(serializers.Serializer[dict[str, Any]]):
    added = serializers.IntegerField(help_text=_("Copies added to your wishlist."))
