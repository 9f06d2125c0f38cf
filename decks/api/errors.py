"""What the deck API says when it refuses a request: message constants tests assert against.

The deck services' own messages (``decks.errors``: the stale version, a card of another game, an
unknown zone…) are reused as they are; these are the API's additions.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# --- versions (optimistic concurrency) -------------------------------------------------------
VERSION_REQUIRED = _(
    "Say which version of the deck you are changing: send “version” in the body or an "
    'If-Match: "<version>" header (the version is in the deck you read).'
)
VERSION_INVALID = _("A version is a whole number from 1, as the deck's “version” gives it.")
IF_MATCH_INVALID = _('Write the If-Match header as "<version>", e.g. If-Match: "3".')
VERSIONS_DISAGREE = _("The If-Match header and the body's “version” name different versions.")

# --- access ----------------------------------------------------------------------------------
DECK_NOT_FOUND = _("No deck with this id.")
NOT_OWNER = _("Only the owner can change this deck.")
LOGIN_TO_LIST = _("Sign in to list your decks, or browse a game's public decks with public=1.")

# --- lists -----------------------------------------------------------------------------------
BAD_FLAG = _("Give 1 or 0 (or true or false).")
GAME_REQUIRED = _("Name the game whose public decks to browse.")
UNKNOWN_GAME = _("No game with this slug.")
PLAYER_NEEDS_PUBLIC = _("Browsing a player's decks needs public=1 (their public decks).")

# --- cards and entries -----------------------------------------------------------------------
UNKNOWN_CARD = _("%(game)s has no card with the code “%(code)s”.")
UNKNOWN_FOREIGN_GAME = _("No game with the slug “%(slug)s”.")
FOREIGN_CARD = _(
    "“%(code)s” is a card of %(game)s; this is a %(deck_game)s deck (a card of the deck's game "
    "is named by its code alone)."
)
UNKNOWN_PRINTING = _("%(card)s has no printing %(pin)s. Its printings: %(known)s.")
DID_YOU_MEAN = _("Did you mean %(names)s?")
FIX_UNKNOWN_CARD = _("Check the card's code in the game's card list, or remove the entry.")
FIX_UNKNOWN_PRINTING = _("Pick one of the card's printings, or leave the printing out.")
UNKNOWN_ZONE = _("%(game)s has no zone “%(zone)s”; its zones are %(zones)s.")
ENTRY_NOT_FOUND = _("This deck has no entry with this id.")
QUANTITY_OR_DELTA = _("Give either “quantity” (how many) or “delta” (how many to add), not both.")
NEED_QUANTITY = _("Give “quantity” (how many) or “delta” (how many to add or take away).")
DELTA_ZERO = _("A delta adds or takes away at least one copy.")
ENTRY_CHANGE_EMPTY = _("Change at least one of “quantity”, “zone” or “printing”.")
ENTRIES_NOT_PATCHABLE = _(
    "PATCH changes the deck's fields; replace the list with PUT or change one entry through "
    "the deck's entries."
)

# --- deck fields -----------------------------------------------------------------------------
NOTHING_TO_CHANGE = _("Send at least one field to change.")
GAME_FIXED = _("A deck's game cannot change; copy the list into a new deck of the other game.")
UNKNOWN_VARIANT = _("%(game)s has no rules variant “%(variant)s”; its variants are %(known)s.")
NO_VARIANTS = _("%(game)s has no rules variants.")
UNKNOWN_EXTRA = _("%(game)s decks have no extra “%(key)s”; their extras are %(known)s.")
NO_EXTRAS = _("%(game)s decks have no extras.")
EXTRAS_TOO_LARGE = _("The extras are larger than %(max)d bytes.")
UNKNOWN_PRODUCT = _("%(game)s has no product with the code “%(code)s”.")
PRODUCT_EMPTY = _("The catalog lists no contents for this product, so it cannot become a deck.")

# --- history ---------------------------------------------------------------------------------
REVISION_NOT_FOUND = _("This deck has no revision %(number)s.")
REVISION_NUMBER = _("Give a revision number from 1.")

# --- deck lists (text and JSON) --------------------------------------------------------------
TEXT_TOO_LONG = _("The list is longer than %(max)d KB.")
TEXT_OR_ENTRIES = _("Send the list either as “text” or as “entries”, not both.")
NEED_TEXT_OR_ENTRIES = _("Send the list as “text” (the DeckLab text format) or as “entries”.")
NEED_TEXT = _("The text format needs the list in “text”.")
NEED_DATA = _("A JSON format needs the deck JSON in “data”.")
DATA_NOT_FOR_TEXT = _("“data” is read only with a JSON format, not with format=text.")
TEXT_NOT_FOR_JSON = _("“text” is read only with format=text.")
IMPORT_REFUSED = _("The list could not be read, so nothing was saved: see each problem.")
EXPORT_FORMAT = _("Give one of the formats: %(formats)s.")
EXPORT_NAMES = _("Give the card names' language: %(languages)s.")
EXPORT_NOT_THIS_GAME = _("This deck's game is written in these formats: %(formats)s.")
