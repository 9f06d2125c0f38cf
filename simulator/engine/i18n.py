"""Marking strings for translation without importing Django.

``N_("Opponent HP")`` returns its argument unchanged; the project's ``makemessages`` command
(simulator/management/commands/makemessages.py) tells xgettext to extract ``N_`` too, and the
pages and the API translate the string with gettext when they show it. A sentence with a
number of things in it is marked with ``NP_`` (singular, plural, the value holding the number),
and shown with ngettext, so "1 maneuver" is never "1 maneuvers".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


def N_(text: str) -> str:  # the conventional name of a no-op gettext marker
    return text


@dataclass(frozen=True)
class Plural:
    """A sentence with a singular and a plural form, picked by the number under ``count`` in
    the values it is filled with ("1 maneuver a turn is", "2 maneuvers a turn are")."""

    singular: str
    plural: str
    count: str

    def render(self, values: Mapping[str, object], ngettext: Callable[[str, str, int], str]) -> str:
        """The sentence in the reader's language (``ngettext`` is Django's), filled in."""
        number = values[self.count]
        assert isinstance(number, int)
        return ngettext(self.singular, self.plural, number) % dict(values)


def NP_(singular: str, plural: str, count: str) -> Plural:  # the plural twin of N_
    return Plural(singular, plural, count)


#: an engine's translatable text: a plain N_ template, or a Plural
Text = str | Plural


def render(
    text: Text,
    values: Mapping[str, object],
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
) -> str:
    """``text`` translated and filled with ``values`` (none: translated only)."""
    if isinstance(text, Plural):
        return text.render(values, ngettext)
    translated = gettext(text)
    return str(translated) % dict(values) if values else str(translated)


def in_english(text: Text, values: Mapping[str, object]) -> str:
    """``text`` filled in, untranslated (English's two forms: one, and every other number)."""
    return render(text, values, str, lambda one, other, n: one if n == 1 else other)
