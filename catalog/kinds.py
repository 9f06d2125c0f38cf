"""The kinds of set and product a game publishes: data each game declares on its GameSpec
(``set_kinds``, ``product_kinds``: (code, label) pairs), not a closed list in the database, so
a new game's own kind (a box built around one character, say) needs no shared code and no migration.

The kinds most games share are named here once, as the defaults a GameSpec starts from and as
the constants code writes (``CardSet.Kind.BASE``, ``Product.Kind.STARTER``). The importers
and the admin refuse a kind the row's game does not declare; pages and the API show the
game's own label for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: what a game declares: (code, label) pairs, in the order its pages list them
Kinds = tuple[tuple[str, Promise | str], ...]


class SetKind(models.TextChoices):
    """The set kinds most games share."""

    BASE = "base", _("Base set")
    EXPANSION = "expansion", _("Expansion")
    BOX = "box", _("Boxed set")
    PREBUILT = "prebuilt", _("Prebuilt decks")
    PROMO = "promo", _("Promotional")


class ProductKind(models.TextChoices):
    """The product kinds most games share."""

    STARTER = "starter", _("Starter deck")
    PREBUILT = "prebuilt", _("Prebuilt deck")
    BOOSTER = "booster", _("Booster pack")


SET_KINDS: Kinds = tuple((kind.value, kind.label) for kind in SetKind)
PRODUCT_KINDS: Kinds = tuple((kind.value, kind.label) for kind in ProductKind)


def kind_codes(kinds: Sequence[tuple[str, Promise | str]]) -> tuple[str, ...]:
    return tuple(code for code, _label in kinds)


def kind_label(kinds: Sequence[tuple[str, Promise | str]], code: str) -> str:
    """The label a game gives ``code``, in the active language; the code itself when the game
    no longer declares it (a row written before the game dropped the kind still shows)."""
    return str(next((label for known, label in kinds if known == code), code))
