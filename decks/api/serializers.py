"""Output serializers of the deck API: one per operation (a list and its detail may share).

Decks are addressed by ``public_id``, cards by their code within the game, printings by
``{set, number, variant}``: never database ids, except an entry's ``id`` (entries have no other
name inside a deck). Legality problems are the checker's records (``Problem.as_dict()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalog.api.serializers import DataNoteSerializer
from decks.api.reads import DeckReading, read_deck
from decks.legality.problems import Severity
from decks.models import Deck, DeckEntry, DeckRevision
from games.links import rule_path, rule_titles
from games.official import official_product

NAME_HELP = _("The card's name in the request's language (Accept-Language), else the other one.")
VERSION_HELP = _(
    "Bumped by every change. Send it back with your next write (`version` or If-Match)."
)


def _absolute(serializer: serializers.BaseSerializer[Any], path: str) -> str:
    request = serializer.context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


def deck_api_path(deck: Deck) -> str:
    return reverse("decks-api:deck-detail", args=[deck.public_id])


# --- Legality problems ----------------------------------------------------------------------


class LanguagesSerializer(serializers.Serializer[dict[str, str]]):
    en = serializers.CharField(read_only=True)
    ja = serializers.CharField(read_only=True)


class ProblemCardSerializer(serializers.Serializer[dict[str, str]]):
    code = serializers.CharField(read_only=True)
    name_en = serializers.CharField(read_only=True)
    name_ja = serializers.CharField(read_only=True)


class ProblemSerializer(serializers.Serializer[dict[str, Any]]):
    """One legality problem, as the checker records it."""

    code = serializers.CharField(
        read_only=True, help_text=_("What kind of problem: zone-size, copy-limit, foreign-card…")
    )
    severity = serializers.ChoiceField(
        choices=[s.value for s in Severity],
        read_only=True,
        help_text=_("error makes the deck illegal; warning and info do not."),
    )
    rule = serializers.CharField(
        read_only=True, help_text=_("The rules digest line applied (file:line); empty for a list.")
    )
    rule_url = serializers.SerializerMethodField(
        help_text=_(
            "The rule on the game's rules reference page (/rules/<game>/#<anchor>), absolute; "
            "null when the problem cites no rule of the reference."
        )
    )
    rule_title = serializers.SerializerMethodField(
        help_text=_("The rule's title on that page, in English and Japanese; null without one.")
    )
    zone = serializers.CharField(read_only=True, allow_null=True)
    expected = serializers.JSONField(read_only=True, allow_null=True)
    actual = serializers.JSONField(read_only=True, allow_null=True)
    message = LanguagesSerializer(read_only=True)
    fix = LanguagesSerializer(read_only=True, allow_null=True)
    cards = ProblemCardSerializer(many=True, read_only=True)

    @extend_schema_field({"type": "string", "format": "uri", "nullable": True})
    def get_rule_url(self, problem: dict[str, Any]) -> str | None:
        path = rule_path(problem.get("rule", ""))
        return _absolute(self, path) if path else None

    @extend_schema_field(LanguagesSerializer(allow_null=True))
    def get_rule_title(self, problem: dict[str, Any]) -> dict[str, str] | None:
        return rule_titles(problem.get("rule", ""))


def problem_records(
    problems: list[dict[str, Any]], context: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Problem records (``Problem.as_dict()``) as the API writes them: with the rule's link
    and title."""
    serializer = ProblemSerializer(context=dict(context))
    return [dict(serializer.to_representation(problem)) for problem in problems]


class ListProblemSerializer(ProblemSerializer):
    """A problem of a posted list: a legality problem, or a line/entry that could not be read."""

    line = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text=_("The line of a text list (from 1); 0 for the list as a whole."),
    )
    text = serializers.CharField(
        read_only=True, allow_null=True, help_text=_("That line, or the entry's card reference.")
    )
    path = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text=_("Where in a JSON list, e.g. entries[3].card."),
    )


class LegalitySerializer(serializers.Serializer[dict[str, Any]]):
    legal = serializers.BooleanField(read_only=True, help_text=_("No problem is an error."))
    problems = ProblemSerializer(many=True, read_only=True)


# --- Decks ----------------------------------------------------------------------------------


class PrintingRefOutputSerializer(serializers.Serializer[Any]):
    set = serializers.SlugField(source="card_set.code", read_only=True)
    number = serializers.CharField(source="collector_number", read_only=True)
    variant = serializers.CharField(read_only=True)


class DeckEntryOutputSerializer(serializers.Serializer[DeckEntry]):
    id = serializers.IntegerField(
        read_only=True, help_text=_("Names the entry in the deck's entries endpoints.")
    )
    card = serializers.SlugField(source="card.code", read_only=True)
    name = serializers.CharField(source="card.name", read_only=True, help_text=NAME_HELP)
    name_en = serializers.CharField(source="card.name_en", read_only=True)
    name_ja = serializers.CharField(source="card.name_ja", read_only=True)
    type = serializers.CharField(source="card.card_type", read_only=True)
    zone = serializers.SlugField(read_only=True)
    quantity = serializers.IntegerField(read_only=True)
    printing = PrintingRefOutputSerializer(read_only=True, allow_null=True)


class DeckOutputSerializer(serializers.Serializer[Deck]):
    public_id = serializers.CharField(read_only=True, help_text=_("The deck's id in every URL."))
    url = serializers.SerializerMethodField()
    game = serializers.SlugField(source="game.slug", read_only=True)
    name = serializers.CharField(read_only=True)
    owner = serializers.CharField(source="owner.username", read_only=True)
    visibility = serializers.ChoiceField(choices=Deck.Visibility.choices, read_only=True)
    variant = serializers.CharField(read_only=True, help_text=_("The rules variant, if any."))
    card_count = serializers.IntegerField(
        read_only=True,
        help_text=_("Cards in the deck's deck zones (not the zones beside the deck)."),
    )
    is_legal = serializers.BooleanField(read_only=True)
    version = serializers.IntegerField(read_only=True, help_text=VERSION_HELP)
    created_at = serializers.DateTimeField(read_only=True)
    updated_at = serializers.DateTimeField(read_only=True)

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, deck: Deck) -> str:
        return _absolute(self, deck_api_path(deck))


class DeckDetailOutputSerializer(DeckOutputSerializer):
    """A deck with its entries and its legality, checked as it is now."""

    description = serializers.CharField(read_only=True, help_text=_("Markdown."))
    extras = serializers.DictField(read_only=True, help_text=_("The game's deck extras, by key."))
    cloned_from = serializers.SerializerMethodField(
        help_text=_("The deck this one was copied from, when the caller may see it.")
    )
    source_product = serializers.SlugField(
        source="source_product.code", read_only=True, allow_null=True, default=None
    )
    data_notes = serializers.SerializerMethodField(
        help_text=_(
            "Where the catalog's list of the product the deck started from differs from the "
            "product as published, and who says so."
        )
    )
    entries = serializers.SerializerMethodField()
    legality = serializers.SerializerMethodField()

    # the same list of notes as the product's (it was documented as an object, and is a list)
    @extend_schema_field(DataNoteSerializer(many=True))
    def get_data_notes(self, deck: Deck) -> list[dict[str, str]]:
        product = deck.source_product
        official = official_product(deck.game.slug, product.code) if product else None
        return [n.as_dict() for n in official.notes] if official else []

    def _reading(self, deck: Deck) -> DeckReading:
        # Entries and problems are read once per deck, for both fields (three queries in all).
        if not hasattr(self, "_readings"):
            self._readings: dict[int, DeckReading] = {}
        if deck.pk not in self._readings:
            self._readings[deck.pk] = read_deck(deck=deck)
        return self._readings[deck.pk]

    def get_cloned_from(self, deck: Deck) -> str | None:
        origin = deck.cloned_from
        if origin is None:
            return None
        request = self.context.get("request")
        viewer = getattr(request, "user", None)
        mine = viewer is not None and viewer.is_authenticated and origin.owner_id == viewer.pk
        if origin.visibility == Deck.Visibility.PRIVATE and not mine:
            return None  # never hand out the link of someone's private deck
        return origin.public_id

    @extend_schema_field(DeckEntryOutputSerializer(many=True))
    def get_entries(self, deck: Deck) -> Any:
        return [
            DeckEntryOutputSerializer(entry, context=self.context).data
            for entry in self._reading(deck).entries
        ]

    @extend_schema_field(LegalitySerializer)
    def get_legality(self, deck: Deck) -> dict[str, Any]:
        reading = self._reading(deck)
        problems = [p.as_dict() for p in reading.problems]
        return {"legal": reading.legal, "problems": problem_records(problems, self.context)}


# --- Validation -----------------------------------------------------------------------------


class ValidationOutputSerializer(serializers.Serializer[dict[str, Any]]):
    legal = serializers.BooleanField(
        read_only=True, help_text=_("Every line was read and no problem is an error.")
    )
    card_count = serializers.IntegerField(
        read_only=True, help_text=_("Cards read into the deck's deck zones.")
    )
    problems = ListProblemSerializer(many=True, read_only=True)


class LineProblemOutputSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(
        read_only=True, help_text=_("The line (from 1); 0 for the list as a whole or for JSON.")
    )
    text = serializers.CharField(read_only=True, help_text=_("The line, or a JSON path."))
    message = serializers.CharField(read_only=True)
    code = serializers.CharField(read_only=True)


class ImportRefusedSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(read_only=True)
    problems = LineProblemOutputSerializer(many=True, read_only=True)


# --- History --------------------------------------------------------------------------------


class RevisionOutputSerializer(serializers.Serializer[DeckRevision]):
    number = serializers.IntegerField(read_only=True)
    author = serializers.CharField(source="author.username", read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)
    summary = serializers.CharField(read_only=True, help_text=_("A short English line."))
    changes = serializers.DictField(
        read_only=True,
        help_text=_(
            "What changed since the revision before, as data (entries with both names, and "
            "fields before and after); empty for the first revision and for revisions stored "
            "before changes were kept."
        ),
    )
    url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, revision: DeckRevision) -> str:
        path = reverse(
            "decks-api:revision-detail", args=[self.context["public_id"], revision.number]
        )
        return _absolute(self, path)


class RevisionDetailOutputSerializer(RevisionOutputSerializer):
    snapshot = serializers.DictField(
        read_only=True,
        help_text=_("The deck as saved: fields and entries (card codes and names)."),
    )


class EntryChangeSerializer(serializers.Serializer[dict[str, Any]]):
    zone = serializers.CharField(read_only=True)
    card = serializers.CharField(read_only=True)
    name_en = serializers.CharField(read_only=True)
    name_ja = serializers.CharField(read_only=True)
    printing = serializers.CharField(read_only=True)
    before = serializers.IntegerField(read_only=True)
    after = serializers.IntegerField(read_only=True)
    delta = serializers.IntegerField(read_only=True)


class FieldChangeSerializer(serializers.Serializer[dict[str, Any]]):
    before = serializers.JSONField(read_only=True, allow_null=True)
    after = serializers.JSONField(read_only=True, allow_null=True)


class DiffOutputSerializer(serializers.Serializer[dict[str, Any]]):
    """From one revision to another: changed entries, changed fields, and a short summary."""

    def get_fields(self) -> dict[str, Any]:
        # "from" is a keyword and "fields" a Serializer property: not declarable on the class.
        return {
            "from": serializers.IntegerField(read_only=True, help_text=_("The older revision.")),
            "to": serializers.IntegerField(read_only=True, help_text=_("The newer revision.")),
            "entries": EntryChangeSerializer(many=True, read_only=True),
            "fields": serializers.DictField(
                child=FieldChangeSerializer(),
                read_only=True,
                help_text=_("Each deck field that changed, by name."),
            ),
            "summary": serializers.CharField(read_only=True),
        }
