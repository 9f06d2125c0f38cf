"""Django's makemessages, also extracting strings marked with ``N_``.

The engine core imports nothing from Django, so engines mark their parameter labels,
``not_modelled`` lines and deck problems with the no-op ``N_`` (simulator/engine/i18n.py) and
the pages translate them with gettext when they show them. xgettext only finds them when told
that ``N_`` (and ``NP_``, plurals) are keywords too; without this the translation check would
never see them.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        # NP_(singular, plural, count): a plural entry, as ngettext's
        "--keyword=NP_:1,2",
    ]
