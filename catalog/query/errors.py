"""What can be wrong with a search, as module constants the tests assert against.

A ``QueryError`` carries the position (0-based, in the text the player typed) and, where a
close match exists, the field or value meant; ``str()`` renders it in the active language.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from catalog.importers.validate import did_you_mean

UNEXPECTED = _("Unexpected “%(token)s”.")
UNCLOSED_QUOTE = _("This quote is never closed.")
UNCLOSED_GROUP = _("This parenthesis is never closed.")
UNOPENED_GROUP = _("This parenthesis closes nothing.")
EMPTY_GROUP = _("Empty parentheses: put a search inside them.")
MISSING_VALUE = _("“%(token)s” needs a value after it.")
UNKNOWN_FIELD = _("No search field “%(token)s” in this game.")
UNKNOWN_VALUE = _("“%(token)s” is not a value of %(field)s.")
NOT_A_NUMBER = _("%(field)s compares numbers: “%(token)s” is not one.")
BAD_OPERATOR = _("%(field)s takes “:” (or “=”, “!=”), not “%(token)s”.")
NEEDS_SIGN_IN = _("Sign in to search your collection (%(token)s).")
NOT_HERE = _("%(token)s works only in the deck editor.")
# Translators: a hint after a problem; names are the close codes or names, quoted.
DID_YOU_MEAN = _("Did you mean %(names)s?")
AT_POSITION = _("At character %(position)s: %(message)s")


class QueryError(ValueError):
    def __init__(
        self,
        message: Promise | str,
        position: int,
        *,
        known: Iterable[str] = (),
        suggestions: Iterable[str] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(message)
        self.template = message
        self.position = position
        self.params = params
        word = str(params.get("token", ""))
        known = list(known)
        #: the close field names or values, best first (the API returns them)
        if suggestions is not None:
            # the caller knows better than spelling alone (a value typed as its label)
            self.suggestions = list(suggestions)
            names = ", ".join(repr(name) for name in self.suggestions)
            self._hint = " " + str(DID_YOU_MEAN % {"names": names}) if self.suggestions else ""
        else:
            self.suggestions = difflib.get_close_matches(word.casefold(), known, n=3, cutoff=0.6)
            self._hint = did_you_mean(word.casefold(), known) if self.suggestions else ""

    @property
    def message(self) -> str:
        """The problem alone (no position), with its "did you mean" when there is one."""
        text = str(self.template) % self.params if self.params else str(self.template)
        return text + self._hint

    def __str__(self) -> str:
        # Positions are shown counting from 1, as a player counts characters.
        return str(AT_POSITION % {"position": self.position + 1, "message": self.message})

    def parts(self, text: str) -> tuple[str, str, str]:
        """``text`` cut around the position (before, the character at it, after), to mark it."""
        at = min(self.position, len(text))
        return text[:at], text[at : at + 1], text[at + 1 :]

    def as_dict(self) -> dict[str, Any]:
        """The API's shape: the message, the 0-based position, the close matches."""
        return {"message": self.message, "position": self.position, "suggestions": self.suggestions}
