"""Unmatched's own file formats: unmatched.cards deck JSON, as a catalog source (one hero deck,
or the whole shared folder with its SQL seed) and as a deck list players import and export."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from catalog.importers.formats import CatalogFormat
from decks.imports.formats import DeckFormat
from games.unmatched import catalog_format, deck_json

CATALOG_FORMATS = (
    CatalogFormat(
        name="unmatched.cards deck JSON",
        recognises=catalog_format.looks_like_unmatched_deck,
        read=catalog_format.bundle_from_unmatched_deck,
        recognises_folder=catalog_format.is_unmatched_folder,
        read_folder=catalog_format.bundle_from_unmatched_folder,
    ),
)

DECK_FORMATS = (
    DeckFormat(
        code="unmatched-json",
        label=_("unmatched.cards deck JSON"),
        parse=deck_json.parse_unmatched_json,
        export=deck_json.export_unmatched_json,
        extension="json",
        recognises=deck_json.recognises,
    ),
)
