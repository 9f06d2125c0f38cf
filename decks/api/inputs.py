"""Input serializers of the deck API: one per operation, checking shapes and bounds.

What depends on the game (zones, variants, extras, which cards exist) is checked after these,
by ``check_deck_fields`` and ``decks.api.cards``, and reported the same way: 400 with each bad
field and why, in DRF's format (``{"entries": [{}, {"quantity": ["…"]}]}``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from catalog.models import Game
from catalog.spec import all_games, get_game
from decks.api import errors
from decks.extras import ExtraError, clean_extras, extras_of
from decks.game_rules import deck_rules, has_deck_rules
from decks.imports.formats import format_choices
from decks.models import MAX_DESCRIPTION, MAX_ENTRIES, MAX_QUANTITY, Deck

NAME_MAX = 120
TEXT_MAX_BYTES = 100 * 1024
EXTRAS_MAX_BYTES = 10 * 1024
CARD_REF_MAX = 250

VERSION_HELP = _(
    "The deck's version you read. Required on every write, here or as an If-Match header."
)
CARD_HELP = _(
    "The card's code in the deck's game (e.g. MTD-001). A card of another game is "
    "“<game>/<code>”: refused when saving, reported as foreign-card by /validate/."
)


def deck_game_slugs() -> list[str]:
    return [spec.slug for spec in all_games() if has_deck_rules(spec.slug)]


def _version_field() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, required=False, help_text=VERSION_HELP)


class PrintingRefInputSerializer(serializers.Serializer[dict[str, Any]]):
    set = serializers.CharField(max_length=80, help_text=_("The set's code."))
    number = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text=_("Collector number; leave out when the set has one printing of the card."),
    )
    variant = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text=_("Printing variant (foil, parallel…); leave out for the plain printing."),
    )


class EntryInputSerializer(serializers.Serializer[dict[str, Any]]):
    card = serializers.CharField(max_length=CARD_REF_MAX, help_text=CARD_HELP)
    zone = serializers.SlugField(max_length=30, help_text=_("One of the game's zones."))
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)
    printing = PrintingRefInputSerializer(
        required=False, allow_null=True, help_text=_("Pin one printing of the card (optional).")
    )


def _entries(*, required: bool) -> Any:
    return serializers.ListSerializer(
        child=EntryInputSerializer(),
        required=required,
        max_length=MAX_ENTRIES,
        help_text=_("At most 500 entries; identical ones (zone, card, printing) are merged."),
    )


class GameSlugField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", _("The game's slug."))
        super().__init__(choices=deck_game_slugs(), **kwargs)


class DeckFieldsInputSerializer(serializers.Serializer[dict[str, Any]]):
    """The deck's own fields, with the defaults a new deck gets."""

    name = serializers.CharField(max_length=NAME_MAX)
    description = serializers.CharField(
        max_length=MAX_DESCRIPTION, allow_blank=True, default="", help_text=_("Markdown.")
    )
    visibility = serializers.ChoiceField(
        choices=Deck.Visibility.choices, default=Deck.Visibility.PRIVATE
    )
    variant = serializers.CharField(
        max_length=20,
        allow_blank=True,
        default="",
        help_text=_("A rules variant of the game; empty for the game's default."),
    )
    extras = serializers.DictField(
        default=dict, help_text=_('The game\'s deck extras by key, e.g. {"counters": [5, 5, 4]}.')
    )

    def validate_extras(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(json.dumps(value).encode()) > EXTRAS_MAX_BYTES:
            raise serializers.ValidationError(
                str(errors.EXTRAS_TOO_LARGE) % {"max": EXTRAS_MAX_BYTES}
            )
        return value


class DeckCreateInputSerializer(DeckFieldsInputSerializer):
    game = GameSlugField()
    entries = _entries(required=False)


class DeckReplaceInputSerializer(DeckFieldsInputSerializer):
    """PUT: the whole deck. Fields left out take the defaults a new deck gets."""

    entries = _entries(required=True)
    version = _version_field()


class DeckUpdateInputSerializer(serializers.Serializer[dict[str, Any]]):
    """PATCH: only the fields sent change; entries change through PUT or the entries."""

    name = serializers.CharField(max_length=NAME_MAX, required=False)
    description = serializers.CharField(
        max_length=MAX_DESCRIPTION, allow_blank=True, required=False
    )
    visibility = serializers.ChoiceField(choices=Deck.Visibility.choices, required=False)
    variant = serializers.CharField(max_length=20, allow_blank=True, required=False)
    extras = serializers.DictField(required=False)
    version = _version_field()

    validate_extras = DeckFieldsInputSerializer.validate_extras

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "entries" in self.initial_data:
            raise serializers.ValidationError({"entries": [errors.ENTRIES_NOT_PATCHABLE]})
        return attrs


def check_deck_fields(game: Game, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The variant and extras must be the game's: a 400 naming the field otherwise.

    Returns the fields with an empty variant replaced by the game's default one.
    """
    rules = deck_rules(game.slug)
    name = get_game(game.slug).name_en
    found: dict[str, list[str]] = {}
    checked = dict(fields)
    variant = fields.get("variant")
    known_variants = [v.code for v in rules.variants]
    if variant and variant not in known_variants:
        message = (
            str(errors.UNKNOWN_VARIANT)
            % {"game": name, "variant": variant, "known": ", ".join(known_variants)}
            if known_variants
            else str(errors.NO_VARIANTS) % {"game": name}
        )
        found["variant"] = [message]
    elif "variant" in fields and not variant:
        checked["variant"] = rules.default_variant
    keys = [extra.key for extra in extras_of(rules.game)]
    given = fields.get("extras")
    unknown = sorted(set(given) - set(keys)) if isinstance(given, dict) else []
    if unknown:
        found["extras"] = [
            str(errors.UNKNOWN_EXTRA) % {"game": name, "key": key, "known": ", ".join(keys)}
            if keys
            else str(errors.NO_EXTRAS) % {"game": name}
            for key in unknown
        ]
    elif given is not None:
        # the game's own schema for each value, as every save applies it
        try:
            checked["extras"] = clean_extras(rules.game, given)
        except ExtraError as exc:
            found["extras"] = [str(exc.message)]
    if found:
        raise serializers.ValidationError(found)
    return checked


# --- Entries --------------------------------------------------------------------------------


class EntryAddInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Set how many copies of a card (and printing) a zone holds, or add to it."""

    card = serializers.CharField(max_length=CARD_REF_MAX, help_text=CARD_HELP)
    zone = serializers.SlugField(max_length=30)
    printing = PrintingRefInputSerializer(required=False, allow_null=True)
    quantity = serializers.IntegerField(
        min_value=1,
        max_value=MAX_QUANTITY,
        required=False,
        help_text=_("Set the entry to this many copies."),
    )
    delta = serializers.IntegerField(
        min_value=-MAX_QUANTITY,
        max_value=MAX_QUANTITY,
        required=False,
        help_text=_("Add this many copies (negative: take away; reaching 0 removes the entry)."),
    )
    version = _version_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "quantity" in attrs and "delta" in attrs:
            raise serializers.ValidationError({"delta": [errors.QUANTITY_OR_DELTA]})
        if "quantity" not in attrs and "delta" not in attrs:
            raise serializers.ValidationError({"quantity": [errors.NEED_QUANTITY]})
        if attrs.get("delta") == 0:
            raise serializers.ValidationError({"delta": [errors.DELTA_ZERO]})
        return attrs


class EntryUpdateInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Change one entry: its quantity, its zone, or its printing (null unpins it)."""

    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY, required=False)
    zone = serializers.SlugField(max_length=30, required=False)
    printing = PrintingRefInputSerializer(
        required=False, allow_null=True, help_text=_("null: no pinned printing.")
    )
    version = _version_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not set(attrs) & {"quantity", "zone", "printing"}:
            raise serializers.ValidationError({"non_field_errors": [errors.ENTRY_CHANGE_EMPTY]})
        return attrs


# --- Copies, products, history --------------------------------------------------------------


class CloneInputSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(
        max_length=NAME_MAX, required=False, help_text=_("Defaults to the original's name.")
    )


class FromProductInputSerializer(serializers.Serializer[dict[str, Any]]):
    game = GameSlugField()
    product = serializers.SlugField(max_length=80, help_text=_("The product's code in the game."))
    name = serializers.CharField(
        max_length=NAME_MAX, required=False, help_text=_("Defaults to the product's name.")
    )


class RestoreInputSerializer(serializers.Serializer[dict[str, Any]]):
    revision = serializers.IntegerField(min_value=1, help_text=_("The revision to bring back."))
    version = _version_field()


# --- Lists in and out -----------------------------------------------------------------------


def _check_text_size(value: str) -> str:
    if len(value.encode("utf-8")) > TEXT_MAX_BYTES:
        raise serializers.ValidationError(
            str(errors.TEXT_TOO_LONG) % {"max": TEXT_MAX_BYTES // 1024}
        )
    return value


class ListInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A deck list to read: ``text`` for format=text, ``data`` for a game's JSON format."""

    format = serializers.ChoiceField(choices=format_choices(), default="text")
    text = serializers.CharField(
        required=False,
        trim_whitespace=False,
        help_text=_("The list in the DeckLab text format (at most 100 KB)."),
    )
    # popped off the class by the serializer metaclass, which the stubs do not know
    data = serializers.JSONField(  # type: ignore[assignment]
        required=False,
        help_text=_("The deck JSON of a game's own format (format=<that format's key>)."),
    )
    name = serializers.CharField(
        max_length=NAME_MAX, required=False, help_text=_("Overrides the list's own name.")
    )

    def validate_text(self, value: str) -> str:
        return _check_text_size(value)

    def validate_data(self, value: Any) -> Any:
        if len(json.dumps(value).encode()) > TEXT_MAX_BYTES:
            raise serializers.ValidationError(
                str(errors.TEXT_TOO_LONG) % {"max": TEXT_MAX_BYTES // 1024}
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["format"] == "text":
            if "data" in attrs:
                raise serializers.ValidationError({"data": [errors.DATA_NOT_FOR_TEXT]})
            if not attrs.get("text", "").strip():
                raise serializers.ValidationError({"text": [errors.NEED_TEXT]})
        else:
            if "text" in attrs:
                raise serializers.ValidationError({"text": [errors.TEXT_NOT_FOR_JSON]})
            if attrs.get("data") in (None, "", [], {}):
                raise serializers.ValidationError({"data": [errors.NEED_DATA]})
        return attrs


class ImportInputSerializer(ListInputSerializer):
    """A new deck from a list."""

    game = GameSlugField()
    description = serializers.CharField(
        max_length=MAX_DESCRIPTION, allow_blank=True, default="", help_text=_("Markdown.")
    )
    visibility = serializers.ChoiceField(
        choices=Deck.Visibility.choices, default=Deck.Visibility.PRIVATE
    )


class ImportIntoInputSerializer(ListInputSerializer):
    """A deck's whole list replaced by a list (and the name, rules and extras it gives)."""

    version = _version_field()


class ValidateInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A list to check without saving: ``text`` (DeckLab text format) or ``entries``."""

    game = GameSlugField()
    text = serializers.CharField(
        required=False,
        trim_whitespace=False,
        help_text=_("The list in the DeckLab text format (at most 100 KB)."),
    )
    entries = _entries(required=False)
    variant = serializers.CharField(max_length=20, allow_blank=True, required=False)
    extras = serializers.DictField(required=False)

    validate_extras = DeckFieldsInputSerializer.validate_extras

    def validate_text(self, value: str) -> str:
        return _check_text_size(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "text" in attrs and "entries" in attrs:
            raise serializers.ValidationError({"non_field_errors": [errors.TEXT_OR_ENTRIES]})
        if "text" not in attrs and "entries" not in attrs:
            raise serializers.ValidationError({"non_field_errors": [errors.NEED_TEXT_OR_ENTRIES]})
        return attrs
