"""Marking strings for translation without importing Django.

``N_("Opponent HP")`` returns its argument unchanged; the project's ``makemessages`` command
(simulator/management/commands/makemessages.py) tells xgettext to extract ``N_`` too, and the
pages and the API translate the string with gettext when they show it.
"""

from __future__ import annotations


def N_(text: str) -> str:  # the conventional name of a no-op gettext marker
    return text
