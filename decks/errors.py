"""Error messages as constants, so tests assert against the same words users read."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

STALE_DECK = _(
    "This deck was changed elsewhere since you opened it; reload to see the latest version "
    "before saving again."
)
WRONG_GAME = _("That card belongs to another game.")
UNKNOWN_ZONE = _("This game has no such zone.")
BAD_QUANTITY = _("A quantity is a whole number from 1 to 99.")
TOO_MANY_ENTRIES = _("A deck has at most 500 different entries.")
PRINTING_NOT_OF_CARD = _("That printing is not a printing of this card.")
UNKNOWN_VARIANT = _("This game has no such rules variant.")
NOT_OWNER = _("Only the owner can change this deck.")
CARD_NOT_VISIBLE = _("No such card.")


class DeckError(Exception):
    """A refused change; ``field`` names what was wrong for forms and the API."""

    def __init__(self, message: object, field: str = "non_field_errors") -> None:
        self.message = message
        self.field = field
        super().__init__(str(message))


class StaleDeckError(DeckError):
    def __init__(self) -> None:
        super().__init__(STALE_DECK, "version")
