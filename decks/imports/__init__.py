"""Deck list formats: the DeckLab text format, the games' own JSON formats, revision snapshots."""
