"""What the collection refuses, as message constants the tests assert against."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

QUANTITY_BOUNDS = _("Give a whole number of copies from %(low)d to %(high)d.")
TRADE_ABOVE_QUANTITY = _("You cannot mark more copies for trade than you own.")
UNKNOWN_FINISH = _("%(game)s has no finish “%(finish)s”; its finishes are %(known)s.")
UNKNOWN_LANGUAGE = _("%(game)s was not printed in “%(language)s”; its languages are %(known)s.")
UNKNOWN_CONDITION = _("“%(condition)s” is not a condition; conditions are %(known)s.")
TOO_MANY_TAGS = _("At most %(max)d tags, each at most %(length)d characters.")
CURRENCY_FORMAT = _("Write a currency as its three-letter code, e.g. JPY, USD or EUR.")
PRICE_BOUNDS = _("Give a price from 0 with at most two decimals, below 100,000,000.")
RESERVED_COPIES = _(
    "%(count)d of these copies are reserved by the built deck “%(deck)s”: unmark it as built "
    "before removing or moving them."
)
NOT_BUILDABLE = _(
    "This deck cannot be marked as built: %(count)d cards are missing from your collection."
)
ALREADY_BUILT = _("This deck is already marked as built.")
NOT_BUILT = _("This deck is not marked as built.")
UNDO_NOT_COMMITTED = _("Only a committed import can be undone.")
UNDO_CHANGED_SINCE = _(
    "The import cannot be undone: %(name)s now has %(have)d copies in this place and the "
    "import added %(added)d. Change it back first, or remove the copies by hand."
)
COMMIT_NOT_PREVIEWED = _("This import was already committed or undone.")
IMPORT_REFUSED = _("The file could not be imported, so nothing was saved: see each problem.")
IMPORT_ABOVE_BOUND = _(
    "You have %(have)d copies of this item: with the file's you would have more than %(max)d."
)
NOT_YOUR_DECK = _("Only the deck's owner can mark it as built.")
PRODUCT_EMPTY = _("The catalog lists no contents for this product.")
WISH_BOUNDS = _("Wish for 1 to %(max)d copies.")
PRINTING_OF_OTHER_CARD = _("This printing is of another card.")
ITEM_GONE = _("This item no longer exists: it was removed or moved meanwhile. Reload the page.")


class CollectionError(Exception):
    """A refusal from a collection service: the field it concerns and a message."""

    def __init__(self, field: str, message: Any) -> None:
        super().__init__(str(message))
        self.field = field
        self.message = message


class CollectionConflict(CollectionError):
    """A refusal because a concurrent change got there first (409 in the API)."""
