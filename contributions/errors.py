"""What contributions refuse: message constants (the tests assert against them) and the errors
that carry them, each problem with its place (the importer's ImportProblem)."""

from __future__ import annotations

from typing import Any, Self

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalog.importers.bundle import ImportProblem

NOT_EDITOR = _("Only catalog editors can review proposals and change the catalog's history.")
OWN_PROPOSAL = _("You cannot decide your own proposal: another editor reviews it.")
NOT_AUTHOR = _("Only the proposal's author can change or withdraw it.")
NOT_OPEN = _("This proposal is already decided (%(state)s).")
NOT_WAITING = _("This proposal cannot change now (%(state)s).")
NOTE_REQUIRED = _("Write a note for the contributor: say what to change or why not.")
RATE_LIMITED = _(
    "You have sent %(max)d proposals in the last hour, the most allowed. Try again later."
)
UNKNOWN_CHOICE = _("“%(value)s” is not one of %(known)s.")
SOURCE_REQUIRED = _("Say where these facts come from (the card in hand, a page, a rulebook…).")
SOURCE_URL_REQUIRED = _("Give the address of the publisher's page.")
SOURCE_URL_INVALID = _("This is not a web address.")
CORRECTION_TARGET = _("A correction names the row it corrects and the reason.")
PAYLOAD_NOT_OBJECT = _("The proposal's content is not a DeckLab catalog object.")
PAYLOAD_EMPTY = _("The proposal holds no set, card or product.")
OTHER_GAME = _("This proposal is for %(game)s; its content names %(other)s.")
SET_LOCKED = _("Set “%(set)s” is locked by an editor: proposals cannot change it for now.")
CODE_TAKEN = _("The code “%(code)s” is already taken: choose another one.")
NOT_APPLIED = _("Only an approved proposal can be reverted.")
ALREADY_REVERTED = _("This change was already reverted.")
CHANGED_SINCE = _(
    "This row changed again after this change: revert the later changes first, newest first."
)
ROW_HELD = _("“%(code)s” cannot be removed: it is used by %(holders)s.")
SET_NOT_EMPTY = _("Set “%(code)s” cannot be removed: it still holds %(holders)s.")
HOLDER_DECKS = ngettext_lazy("%(count)d deck", "%(count)d decks", "count")
HOLDER_COLLECTIONS = ngettext_lazy("%(count)d collection", "%(count)d collections", "count")
HOLDER_PRODUCTS = ngettext_lazy("%(count)d product", "%(count)d products", "count")
HOLDER_PRINTINGS = ngettext_lazy("%(count)d printing", "%(count)d printings", "count")
ALREADY_LOCKED = _("This set is already locked.")

#: where a problem that concerns the whole proposal is reported
WHOLE = "proposal"


class ProposalError(Exception):
    """A refusal; nothing was written. ``problems`` lists every reason with its place."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def of(cls, message: Any, where: str = WHOLE, **params: Any) -> Self:
        text = str(message % params) if params else str(message)
        return cls([ImportProblem(where, text)])


class NotAllowed(ProposalError):
    """The user may not do this (a 403 for the pages and the API)."""


class RateLimited(ProposalError):
    """Too many proposals in the last hour (a 429)."""
