"""The fake games the run tests register, and the decks they share."""

from __future__ import annotations

from contextlib import ContextDecorator
from typing import Any

from catalog.models import Card, Printing
from decks.models import Deck
from decks.services import deck_create
from decks.specs import EntrySpec
from games import registry
from tests.catalog.factories import CardFactory, GameFactory, PrintingFactory

#: the fake games' packages and slugs (tests/simulator/fake_games/<package>/)
PACKAGES = ("tests.simulator.fake_games.countdown", "tests.simulator.fake_games.engineless")
COUNTDOWN = "countdown"
ENGINELESS = "engineless"


class FakeGames(ContextDecorator):
    """Registers the fake games while a test runs (a ``with`` block or a decorator) and
    unregisters them after; a game already registered (``DECKLAB_EXTRA_GAMES``) stays."""

    def __init__(self, packages: tuple[str, ...] = PACKAGES) -> None:
        self.packages = packages
        self._added: list[list[str]] = []

    def __enter__(self) -> FakeGames:
        added = []
        for package in self.packages:
            before = set(registry.slugs())
            game = registry.register(package)
            if game.slug not in before:
                added.append(game.slug)
        self._added.append(added)
        return self

    def __exit__(self, *exc: object) -> None:
        for slug in self._added.pop():
            registry.unregister(slug)


#: the Countdown and Engineless games, registered like any game from outside
WITH_FAKE_GAMES = FakeGames()


def countdown_deck(
    owner: Any, *, cards: int = 10, hp: int = 3, visibility: str = Deck.Visibility.PRIVATE
) -> Deck:
    """A Countdown deck (the game must be registered: ``WITH_FAKE_GAMES``): ``cards`` units
    dealing 1..hp each."""
    game = GameFactory(slug=COUNTDOWN)
    entries = []
    for n in range(cards):
        card = CardFactory(game=game, card_type="unit", attributes={"hp": 1 + n % hp, "soul": 1})
        entries.append(EntrySpec(card, "main", 1, None))
    return deck_create(
        owner=owner, game=game, name="Countdown deck", visibility=visibility, entries=entries
    )


# (card type, value, boost, copies): 30 action cards, as an Unmatched deck has
UNMATCHED_ACTIONS = [
    ("attack", 4, 1, 3),
    ("attack", 3, 2, 6),
    ("attack", 2, 3, 4),
    ("versatile", 3, 1, 5),
    ("versatile", 2, 2, 3),
    ("defense", 3, 1, 5),
    ("scheme", None, 3, 4),
]


def unmatched_deck(owner: Any, *, visibility: str = Deck.Visibility.PRIVATE) -> Deck:
    """A legal-sized Unmatched deck: one hero (16 HP) and 30 action cards for any fighter."""
    game = GameFactory(slug="unmatched")
    hero = CardFactory(
        game=game,
        card_type="character",
        name_en="Test Hero",
        attributes={"hp": 16, "move": 2, "ranged": False, "hero_count": 1},
    )
    entries = [EntrySpec(hero, "hero", 1, _printing(hero, {"fighter": "any", "boost": 0}))]
    for card_type, value, boost, copies in UNMATCHED_ACTIONS:
        attributes = {"value": value} if value is not None else {}
        card = CardFactory(game=game, card_type=card_type, attributes=attributes)
        printing = _printing(card, {"fighter": "any", "boost": boost})
        entries.append(EntrySpec(card, "deck", copies, printing))
    return deck_create(
        owner=owner, game=game, name="Unmatched deck", visibility=visibility, entries=entries
    )


def _printing(card: Card, attributes: dict[str, Any]) -> Printing:
    printing: Printing = PrintingFactory(card=card, attributes=attributes)
    return printing
