"""Deck list formats: the DeckLab text format, unmatched.cards JSON, revision snapshots."""
