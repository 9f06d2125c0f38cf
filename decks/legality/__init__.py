"""Deck legality: construction rules as data, one checker, every problem as a record."""
