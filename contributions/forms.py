"""The forms a player fills to propose catalog facts (issue 21), generated from the game's own
declaration (``catalog.spec.GameSpec``), so a new game gets them with no shared edit.

- ``card_proposal_form(game_slug, card_type)``: a new card with one printing;
- ``set_proposal_form(game_slug)``: a new set;
- ``correction_form(card)``: any of a card's facts and its printings' attributes;
- ``names_form(card)``: the name a card lacks in the other language.

A card type's attributes are its schema's own fields (copied: same bounds, choices, required
flags and translated labels; only a yes/no field gets a select instead of a text box), and so
are the printing schema's. There is one set of rules, the importer's: a form is valid only
when ``catalog.importers.validate.validate_bundle`` finds nothing wrong with its ``bundle()``,
nor ``proposal_submit`` (``contributions.services.payload_problems``: a locked set, a
player's own code); the form runs the schema's own checks first, so most problems show
beside their field.

``bundle()`` is the DeckLab catalog JSON dict (docs/catalog-format.md) that
``contributions.services.proposal_submit`` takes as its payload, and ``proposal_fields()``
the rest of its keyword arguments (kind, source, title, target, reason).

A new card's code may be left blank: it is then made from the printing's set code and
collector number (``MTD`` + ``046`` -> ``MTD-046``, the catalogs' usual shape), or, with no
number, from the English name (``Doc Grocer`` -> ``doc-grocer``, as some catalogs' codes are). A
code that is already a card of the game is refused (a proposal adds a card; it never
overwrites one: that is a correction).

The forms live in modules named for what they hold, and every public name is importable from
here: ``contributions.form_fields`` (messages, labels, bounds and shared fields),
``contributions.proposal_form`` (``ProposalForm``, the base), ``contributions.card_forms``
(new cards and sets) and ``contributions.correction_forms`` (corrections and names).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalog.models import Card
from catalog.spec import get_game
from contributions.card_forms import CardProposalForm, SetProposalForm
from contributions.correction_forms import Change, CorrectionForm, NamesForm, printing_code
from contributions.form_fields import (
    BAD_CODE,
    CARD_ATTR,
    CARD_CODE_TAKEN,
    CODE_CANNOT_BE_MADE,
    HELP_CARD_CODE,
    HELP_COPY_LIMIT,
    HELP_SOURCE_DETAIL,
    LABEL_CARD_CODE,
    LABEL_CARD_TYPE,
    LABEL_COPY_LIMIT,
    LABEL_KIND,
    LABEL_NAME_EN,
    LABEL_NAME_JA,
    LABEL_NUMBER,
    LABEL_OFFICIAL_SIZE,
    LABEL_PRECISION,
    LABEL_PRINTING_FIELD,
    LABEL_REASON,
    LABEL_REGULAR,
    LABEL_RELEASED,
    LABEL_SET,
    LABEL_SET_CODE,
    LABEL_SOURCE_DETAIL,
    LABEL_SOURCE_KIND,
    LABEL_SOURCE_URL,
    LABEL_VARIANT,
    MAX_OFFICIAL_SIZE,
    MAX_SOURCE,
    NAMES_COMPLETE,
    NEEDS_A_NAME,
    NO,
    NOT_A_DATE,
    NOTHING_CHANGED,
    ORIGIN,
    PRINTING_ATTR,
    PUBLISHER_PAGE,
    SET_CODE_TAKEN,
    SOURCE_KINDS,
    SOURCE_TOO_LONG,
    URL_NEEDED,
    YES,
    allows_copy_limit,
)
from contributions.proposal_form import ProposalForm

__all__ = [
    "BAD_CODE",
    "CARD_ATTR",
    "CARD_CODE_TAKEN",
    "CODE_CANNOT_BE_MADE",
    "HELP_CARD_CODE",
    "HELP_COPY_LIMIT",
    "HELP_SOURCE_DETAIL",
    "LABEL_CARD_CODE",
    "LABEL_CARD_TYPE",
    "LABEL_COPY_LIMIT",
    "LABEL_KIND",
    "LABEL_NAME_EN",
    "LABEL_NAME_JA",
    "LABEL_NUMBER",
    "LABEL_OFFICIAL_SIZE",
    "LABEL_PRECISION",
    "LABEL_PRINTING_FIELD",
    "LABEL_REASON",
    "LABEL_REGULAR",
    "LABEL_RELEASED",
    "LABEL_SET",
    "LABEL_SET_CODE",
    "LABEL_SOURCE_DETAIL",
    "LABEL_SOURCE_KIND",
    "LABEL_SOURCE_URL",
    "LABEL_VARIANT",
    "MAX_OFFICIAL_SIZE",
    "MAX_SOURCE",
    "NAMES_COMPLETE",
    "NEEDS_A_NAME",
    "NO",
    "NOTHING_CHANGED",
    "NOT_A_DATE",
    "ORIGIN",
    "PRINTING_ATTR",
    "PUBLISHER_PAGE",
    "SET_CODE_TAKEN",
    "SOURCE_KINDS",
    "SOURCE_TOO_LONG",
    "URL_NEEDED",
    "YES",
    "CardProposalForm",
    "Change",
    "CorrectionForm",
    "NamesForm",
    "ProposalForm",
    "SetProposalForm",
    "allows_copy_limit",
    "card_proposal_form",
    "correction_form",
    "names_form",
    "printing_code",
    "set_proposal_form",
]


def card_proposal_form(
    game_slug: str, card_type: str, data: Mapping[str, Any] | None = None
) -> CardProposalForm:
    """A new card of ``card_type`` with one printing; LookupError for an unknown game or type."""
    return CardProposalForm(get_game(game_slug), card_type, data)


def set_proposal_form(game_slug: str, data: Mapping[str, Any] | None = None) -> SetProposalForm:
    return SetProposalForm(get_game(game_slug), data)


def correction_form(card: Card, data: Mapping[str, Any] | None = None) -> CorrectionForm:
    return CorrectionForm(card, data)


def names_form(card: Card, data: Mapping[str, Any] | None = None) -> NamesForm:
    return NamesForm(card, data)
