"""What the contributions API reads (input serializers) and answers (output serializers).

Inputs only check shapes and choices; the rules of the catalog (the importer's validation,
locked sets, the hourly limit) are the services'. Outputs read rows the selectors fetched with
their users and events already joined, so a page of proposals is a fixed number of queries.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from contributions.merge_revert import public_before
from contributions.models import CatalogChange, ObjectKind, Proposal, ProposalEvent

#: a sheet (CSV text) is at most this long, as the pages accept (contributions.sheet checks it)
SHEET_MAX_CHARS = 2_000_000

SHEET_KINDS = (Proposal.Kind.SHEET, Proposal.Kind.NAMES)

PAYLOAD_OR_SHEET = _("Send the proposal's content either as “payload” or as “sheet”, not both.")
NEED_PAYLOAD = _("Send the proposal's content as “payload” (DeckLab catalog JSON).")
NEED_PAYLOAD_OR_SHEET = _(
    "Send the proposal's content as “payload” (DeckLab catalog JSON) or, for a sheet, as "
    "“sheet” (its CSV text)."
)
SHEET_ONLY_FOR_SHEETS = _("A “sheet” is read only with kind “sheet” or “names”.")
TEXT_OR_FILE = _("Send the sheet either as “file” or as “text”, not both.")
NEED_TEXT_OR_FILE = _("Send the sheet as “file” (a CSV upload) or as “text”.")


def _choice(choices: Any, help_text: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=choices, help_text=help_text)


class _ContentInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A proposal's content: catalog JSON, or a sheet's text to be checked and turned into it."""

    payload = serializers.JSONField(
        required=False,
        help_text=_("The proposal's content as DeckLab catalog JSON (docs/catalog-format.md)."),
    )
    sheet = serializers.CharField(
        required=False,
        trim_whitespace=False,
        max_length=SHEET_MAX_CHARS,
        help_text=_(
            "Instead of `payload`, for kind `sheet` (a card sheet) or `names` (a names sheet): "
            "the sheet's CSV text. It must be clean (see sheet-check); its cards become the "
            "payload."
        ),
    )


class ProposalCreateInputSerializer(_ContentInputSerializer):
    kind = _choice(Proposal.Kind.choices, _("What is proposed."))
    game = serializers.SlugField(help_text=_("The game's slug."))
    source_kind = _choice(Proposal.SourceKind.choices, _("Where the facts come from."))
    source_detail = serializers.CharField(
        max_length=5000, help_text=_("Which card, page or rulebook, in your words.")
    )
    source_url = serializers.URLField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text=_("The page's address (required when the source is the publisher's page)."),
    )
    title = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text=_("A short title.")
    )
    target_kind = serializers.ChoiceField(
        choices=ObjectKind.choices,
        required=False,
        allow_blank=True,
        help_text=_("A correction: the kind of row it corrects."),
    )
    target_code = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text=_("A correction: the code of the row it corrects."),
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=5000,
        help_text=_("A correction: why the catalog is wrong."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        has_payload, has_sheet = "payload" in attrs, "sheet" in attrs
        if has_payload and has_sheet:
            raise serializers.ValidationError({"sheet": [PAYLOAD_OR_SHEET]})
        if has_sheet and attrs.get("kind") not in SHEET_KINDS:
            raise serializers.ValidationError({"sheet": [SHEET_ONLY_FOR_SHEETS]})
        if not (has_payload or has_sheet):
            missing = NEED_PAYLOAD_OR_SHEET if attrs.get("kind") in SHEET_KINDS else NEED_PAYLOAD
            raise serializers.ValidationError({"payload": [missing]})
        return attrs


class ProposalResubmitInputSerializer(_ContentInputSerializer):
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=5000,
        help_text=_("What you changed, for the editor."),
    )


class NoteInputSerializer(serializers.Serializer[dict[str, Any]]):
    note = serializers.CharField(
        required=False, allow_blank=True, max_length=5000, help_text=_("A note.")
    )


class DecisionNoteInputSerializer(serializers.Serializer[dict[str, Any]]):
    note = serializers.CharField(
        allow_blank=True,
        max_length=5000,
        help_text=_("For the contributor: what to change, or why not."),
    )


class SheetCheckInputSerializer(serializers.Serializer[dict[str, Any]]):
    file = serializers.FileField(
        required=False, help_text=_("The sheet as a CSV file (UTF-8 or Shift_JIS).")
    )
    text = serializers.CharField(
        required=False,
        trim_whitespace=False,
        max_length=SHEET_MAX_CHARS,
        help_text=_("The sheet's CSV text, instead of a file."),
    )
    kind = serializers.ChoiceField(
        choices=[("sheet", _("card sheet")), ("names", _("names sheet"))],
        required=False,
        default="sheet",
        help_text=_("sheet (cards, the default) or names (a set's names)."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "file" in attrs and "text" in attrs:
            raise serializers.ValidationError({"text": [TEXT_OR_FILE]})
        if "file" not in attrs and "text" not in attrs:
            raise serializers.ValidationError({"text": [NEED_TEXT_OR_FILE]})
        return attrs


# --- outputs ---------------------------------------------------------------------------------


class ProblemOutputSerializer(serializers.Serializer[Any]):
    where = serializers.CharField(help_text=_("The field, or the place in the payload."))
    message = serializers.CharField()


class SheetProblemOutputSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(help_text=_("The sheet's line (the header is 1; 0: all)."))
    column = serializers.CharField(help_text=_("The column's header (empty: the whole row)."))
    reason = serializers.CharField()
    did_you_mean = serializers.ListField(child=serializers.CharField())


class SheetCheckOutputSerializer(serializers.Serializer[Any]):
    clean = serializers.BooleanField(help_text=_("True when the sheet can be proposed."))
    status = serializers.CharField()
    problems = SheetProblemOutputSerializer(many=True)
    payload = serializers.JSONField(
        allow_null=True,
        help_text=_("When clean: the sheet as DeckLab catalog JSON (what a proposal carries)."),
    )


class EventOutputSerializer(serializers.Serializer[ProposalEvent]):
    action = serializers.CharField()
    action_display = serializers.CharField(source="get_action_display")
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    note = serializers.CharField()
    at = serializers.DateTimeField()


class ProposalSummaryOutputSerializer(serializers.Serializer[Proposal]):
    """A proposal as listed: what it is and where it stands, without its content."""

    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    game = serializers.CharField(source="game.slug")
    kind = serializers.CharField()
    kind_display = serializers.CharField(source="get_kind_display")
    state = serializers.CharField()
    state_display = serializers.CharField(source="get_state_display")
    title = serializers.CharField()
    author = serializers.CharField(source="author.username")
    source_kind = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, proposal: Proposal) -> str:
        path = reverse("contributions-api:proposal-detail", args=[proposal.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class ProposalOutputSerializer(ProposalSummaryOutputSerializer):
    """A proposal with its content, its source and what the editors said."""

    payload = serializers.JSONField()
    target_kind = serializers.CharField()
    target_code = serializers.CharField()
    reason = serializers.CharField()
    source_detail = serializers.CharField()
    source_url = serializers.CharField()
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)
    decision_note = serializers.CharField()
    events = EventOutputSerializer(many=True, source="events.all")


class ChangeOutputSerializer(serializers.Serializer[CatalogChange]):
    """One catalog row before and after an applied proposal or a revert."""

    id = serializers.IntegerField()
    object_kind = serializers.CharField()
    object_code = serializers.CharField()
    before = serializers.JSONField(allow_null=True, help_text=_("Null: the change created it."))
    after = serializers.JSONField(allow_null=True, help_text=_("Null: the change removed it."))
    proposal = serializers.IntegerField(source="proposal_id", allow_null=True)
    proposed_by = serializers.CharField(
        source="proposed_by.username", allow_null=True, default=None
    )
    approved_by = serializers.CharField(
        source="approved_by.username", allow_null=True, default=None
    )
    # declared fields leave the class (DRF's metaclass): this does not shadow Field.source
    source = serializers.CharField()  # type: ignore[assignment]
    at = serializers.DateTimeField()
    reverts = serializers.IntegerField(source="reverts_id", allow_null=True)
    reverted_by = serializers.IntegerField(source="reverted_by_id", allow_null=True)

    def to_representation(self, instance: CatalogChange) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        data["before"] = public_before(data["before"])  # never a merge's moved rows
        return data


class ApprovalOutputSerializer(serializers.Serializer[Any]):
    proposal = ProposalOutputSerializer()
    changes = ChangeOutputSerializer(many=True)
