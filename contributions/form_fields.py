"""The words, bounds and field builders every proposal form shares (``contributions.forms``):
its messages and labels as module constants (the tests assert against them), the catalog's
bounds a form repeats, and the fields more than one form has."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from catalog.importers.validate import CODE_RE
from catalog.spec import GameSpec
from contributions.models import Proposal
from decks.game_rules import deck_rules, has_deck_rules
from decks.legality.rules import CopyLimit

# --- messages -------------------------------------------------------------------------------
NEEDS_A_NAME = _("Give the name in English or in Japanese (or both).")
BAD_CODE = _("Use letters, digits, '-' and '_' only.")
CARD_CODE_TAKEN = _(
    "The card %(code)s is already in the catalog: propose a correction to it instead."
)
SET_CODE_TAKEN = _("The set %(code)s is already in the catalog.")
CODE_CANNOT_BE_MADE = _(
    "Give a card code: none can be made from the set, the collector number or the English name."
)
URL_NEEDED = _("Give the address of the publisher's page.")
SOURCE_TOO_LONG = _("The source and its address are at most %(max)d characters together.")
NOTHING_CHANGED = _("Nothing changed: change at least one value.")
NAMES_COMPLETE = _("This card already has its name in both languages.")
NOT_A_DATE = _("Enter a valid date.")

# --- labels (those already in the catalog's words reuse them) -------------------------------
LABEL_NAME_EN = _("English name")
LABEL_NAME_JA = _("Japanese name")
LABEL_CARD_CODE = _("Card code")
LABEL_SET_CODE = _("Set code")
LABEL_CARD_TYPE = _("Card type")
LABEL_SET = _("Set")
LABEL_NUMBER = _("Collector number")
LABEL_VARIANT = _("Variant")
LABEL_COPY_LIMIT = _("Copy limit")
LABEL_KIND = _("Kind")
LABEL_RELEASED = _("Release date")
LABEL_PRECISION = _("How exact the release date is")
LABEL_OFFICIAL_SIZE = _("Official size")
LABEL_SOURCE_KIND = _("Where the facts come from")
LABEL_SOURCE_DETAIL = _("Source")
LABEL_SOURCE_URL = _("Address of the page")
LABEL_REASON = _("Why this change")
LABEL_REGULAR = _("Regular printing")
LABEL_PRINTING_FIELD = _("%(printing)s: %(field)s")
HELP_CARD_CODE = _(
    "Leave blank to make it from the set code and the collector number "
    "(or, with no number, from the English name)."
)
HELP_SOURCE_DETAIL = _("Which card, page or rule: enough for an editor to check it.")
HELP_COPY_LIMIT = _("Only where the card's own text changes the game's copy limit.")
YES = _("yes")
NO = _("no")

#: what a proposal is based on: the proposal's own choices
SOURCE_KINDS = Proposal.SourceKind.choices
PUBLISHER_PAGE = Proposal.SourceKind.PUBLISHER_PAGE

#: a catalog row's ``source`` column (catalog.models.Provenance): the importer does not bound
#: it, the database does
MAX_SOURCE = 300
#: a set's official size: the database's positive integer
MAX_OFFICIAL_SIZE = 2_147_483_647
#: where a form's bundle says its problems come from (never shown: the form shows messages)
ORIGIN = "proposal"
#: form field names of attributes: ``attr_hp`` on the card, ``printing_attr_rarity`` on the
#: printing of a new card, ``p0_attr_rarity`` on a card's first printing in a correction
CARD_ATTR = "attr_"
PRINTING_ATTR = "printing_attr_"


def allows_copy_limit(spec: GameSpec) -> bool:
    """Whether a card's own copy limit means anything in the game: its deck rules have a copy
    limit a card may override (decks.legality.rules.CopyLimit)."""
    if not has_deck_rules(spec.slug):
        return False
    return any(
        isinstance(rule, CopyLimit) and rule.honour_card_override
        for rule in deck_rules(spec.slug).rules
    )


def none_if_empty(value: Any) -> Any:
    """None for a blank value (none, an empty text or list), so "no value" compares equal."""
    return None if value in (None, "", []) else value


def code_field(label: Any, max_length: int, *, required: bool) -> forms.CharField:
    """A card's or a set's code, with the importer's pattern."""
    return forms.CharField(
        label=label,
        max_length=max_length,
        required=required,
        validators=[RegexValidator(CODE_RE, BAD_CODE)],
    )


def name_fields(*, required: bool = False) -> dict[str, forms.Field]:
    """A fresh English and Japanese name field (each form owns its fields)."""
    # the importer's bound on a name (catalog.importers.validate._Checker.names)
    return {
        "name_en": forms.CharField(label=LABEL_NAME_EN, max_length=200, required=required),
        "name_ja": forms.CharField(label=LABEL_NAME_JA, max_length=200, required=required),
    }
