"""A player's collection: printings they own, import batches, wishlist, built decks."""

from __future__ import annotations
