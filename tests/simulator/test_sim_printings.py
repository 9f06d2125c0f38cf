"""Where a card was printed reaches the engines as plain facts; Unmatched reads them itself."""

from __future__ import annotations

from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts
from games.unmatched.engine import ENGINE, printed_in
from simulator.decks import sim_deck_from_facts
from simulator.engine.cards import SimCard, SimDeck, SimPrinting
from simulator.serialise import sim_deck_from_json, sim_deck_to_json


def _deadpool_deck(
    *, odd: SimCard, foreign: SimCard, hero_printings: tuple[SimPrinting, ...]
) -> SimDeck:
    hero = SimCard(
        0,
        "character-deadpool",
        "Deadpool",
        "character",
        {"hp": 10, "move": 2, "ranged": False, "hero_count": 1},
        printings=hero_printings,
    )
    return SimDeck(
        "unmatched", (hero, odd, foreign), {"hero": ((0, 1),), "deck": ((1, 15), (2, 15))}, "deck"
    )


def test_the_shared_loader_passes_printings_as_facts_and_no_game_attribute() -> None:
    card = CardFacts(
        code="x",
        game="unmatched",
        card_type="attack",
        name_en="Odd",
        attributes={"value": 3},
        printings=(
            PrintingFacts("deadpool-set", "deadpool", "", {"fighter": "Dp", "boost": 1}),
            PrintingFacts("promo", "", "foil", {"fighter": "Dp"}),
        ),
    )
    facts = DeckFacts(game="unmatched", entries=(EntryFacts(card=card, zone="deck", quantity=1),))
    (sim,) = sim_deck_from_facts(facts).cards
    assert "printed_in" not in sim.attributes
    assert sim.attributes == {"value": 3, "fighter": "Dp", "boost": 1}
    assert sim.printings == (
        SimPrinting("deadpool-set", "deadpool", "", {"fighter": "Dp", "boost": 1}),
        SimPrinting("promo", "", "foil", {"fighter": "Dp"}),
    )
    assert printed_in(sim) == {"deadpool"}


def test_unmatched_reads_the_heros_own_deck_from_the_printings() -> None:
    odd = SimCard(
        1,
        "x",
        "Odd",
        "attack",
        {"value": 3, "boost": 1, "fighter": "Dp"},
        printings=(SimPrinting("dp", "deadpool"),),
    )
    foreign = SimCard(
        2,
        "y",
        "Foreign",
        "attack",
        {"value": 3, "boost": 1, "fighter": "Medusa"},
        printings=(SimPrinting("bg", "medusa"),),
    )
    deck = _deadpool_deck(odd=odd, foreign=foreign, hero_printings=(SimPrinting("dp", "deadpool"),))
    prepared = ENGINE.prepare(deck, ENGINE.params.clean({}))
    assert prepared.can_attack[1] and not prepared.can_attack[2]


def test_a_frozen_deck_keeps_its_printings_and_an_older_one_still_plays_the_same() -> None:
    odd = SimCard(
        1,
        "x",
        "Odd",
        "attack",
        {"value": 3, "boost": 1, "fighter": "Dp"},
        printings=(SimPrinting("dp", "deadpool", "", {"boost": 1}),),
    )
    foreign = SimCard(2, "y", "Foreign", "attack", {"value": 3, "boost": 1, "fighter": "Medusa"})
    deck = _deadpool_deck(odd=odd, foreign=foreign, hero_printings=(SimPrinting("dp", "deadpool"),))
    data = sim_deck_to_json(deck)
    assert data["format"] == 2
    assert sim_deck_from_json(data) == deck
    # a run frozen before printings were: the loader wrote where each card was printed into
    # its attributes, and the run must replay exactly as it was played
    old = {
        **data,
        "format": 1,
        "cards": [
            {
                **{k: v for k, v in card.items() if k != "printings"},
                "attributes": {
                    **card["attributes"],
                    "printed_in": sorted(
                        {number for _s, number, _v, _a in card["printings"] if number}
                    ),
                },
            }
            for card in data["cards"]
        ],
    }
    replayed = sim_deck_from_json(old)
    assert all(card.printings == () for card in replayed.cards)
    new, before = (ENGINE.prepare(d, ENGINE.params.clean({})) for d in (deck, replayed))
    assert new.can_attack == before.can_attack == (False, True, False, False)
