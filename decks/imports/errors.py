"""What a refused deck import reports: every bad line, with its number and a reason.

Messages are module constants (lazy, translated when rendered) so tests assert against the
same words players read; ``code`` names the kind of problem for the API and the UI.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

# --- the text format -------------------------------------------------------------------------
TOO_LONG = _("The list is longer than %(max)d KB; split it or remove comments.")
LINE_TOO_LONG = _("This line is longer than %(max)d characters.")
TOO_MANY_LINES = _("A deck list has at most %(max)d card lines.")
BAD_QUANTITY = _("“%(quantity)s” is not a quantity: write a whole number from 1 to 99.")
MISSING_QUANTITY = _("Start a card line with how many copies, e.g. “1 %(name)s”.")
OVER_99 = _("With the same card on line %(first)d this makes %(total)d copies; at most 99.")
UNKNOWN_CARD = _("No card named “%(name)s” in %(game)s.")
UNKNOWN_CODE = _("No card with the code #%(code)s in %(game)s.")
AMBIGUOUS_NAME = _("Several cards are named “%(name)s”; write one of %(codes)s instead.")
UNKNOWN_VARIANT = _("“%(variant)s” is not a printing variant of %(game)s (%(known)s).")
NO_VARIANTS = _("%(game)s has no printing variants.")
NO_PRINTING = _("%(card)s has no printing %(pin)s. Its printings: %(known)s.")
AMBIGUOUS_PRINTING = _("%(card)s has %(count)d printings %(pin)s; add the collector number.")
EMPTY_NAME = _("The card's name is missing.")
NOT_A_ZONE = _("“%(text)s” is not a zone of %(game)s; its zones are %(zones)s.")
NOT_A_LINE = _(
    "Cannot read this line. A card line starts with its quantity (“2 Card Name”); a zone "
    "header names one of %(zones)s."
)
WRONG_GAME = _("This list is for %(listed)s, but the deck is a %(game)s deck.")
UNKNOWN_GAME = _("“%(text)s” is not a game DeckLab knows.")
NO_RULES_VARIANTS = _("%(game)s has no rules variants.")
UNKNOWN_RULES = _("“%(text)s” is not a rules variant of %(game)s (%(known)s).")
NO_SUCH_EXTRA = _("%(game)s decks have no “%(key)s” line.")
EMPTY_DECK_NAME = _("The deck's name is empty.")
NAME_TOO_LONG = _("A deck's name is at most %(max)d characters.")
REPEATED_META = _("“%(key)s:” is given twice (first on line %(first)d).")
DID_YOU_MEAN = _("Did you mean %(names)s?")

# --- a game's own deck JSON -----------------------------------------------------------------
NOT_THIS_GAMES_FORMAT = _("%(format)s is not a format of %(game)s decks.")
NOT_JSON = _("This is not a deck JSON file: it could not be read as JSON.")
CUSTOM_NEEDS_ACCOUNT = _("Sign in to import a deck with cards that are not in the catalog.")
BAD_CARD_VALUE = _("%(field)s: %(messages)s")
TITLE_TOO_LONG = _("A card's title is at most %(max)d characters.")
ABOUT_CARD = _("“%(card)s”: %(message)s")

# --- services --------------------------------------------------------------------------------
UNKNOWN_FORMAT = _("Unknown deck list format “%(fmt)s”.")
UNKNOWN_NAMES_LANGUAGE = _("Card names are written in one of: %(languages)s.")
NOTHING_TO_IMPORT = _("There is nothing to import.")
REFUSED = _("The deck could not be saved: %(reason)s")


@dataclass(frozen=True)
class LineProblem:
    """One line (or, for JSON, one path) that could not be read, and why.

    ``line`` counts from 1 in a text list; it is 0 for the list as a whole and for JSON,
    where ``text`` holds the path instead (``cards[3].value``).
    """

    line: int
    text: str
    message: str
    code: str = ""

    def __str__(self) -> str:
        where = f"{self.line}: " if self.line else (f"{self.text}: " if self.text else "")
        return f"{where}{self.message}"


class DeckImportError(Exception):
    """The import was refused and nothing was saved; ``problems`` lists every reason."""

    def __init__(self, problems: list[LineProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
