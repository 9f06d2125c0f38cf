"""The Unmatched goldfish engine (games/unmatched/engine.py) against the rules digest
shared/rules/unmatched.md: each rule at its boundary, the fast loop against the state API,
determinism, copies, random play-outs, golden transcripts, and the real Medusa deck.

Decks are built by hand as SimDecks; ``InOrder`` is a generator whose shuffle leaves the deck
as built, so a test decides exactly which cards are drawn when."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import registry
from games.unmatched import golden as unmatched_golden
from games.unmatched import schedule as unmatched_schedule
from games.unmatched.engine import (
    ENGINE,
    UnmatchedPrepared,
    UnmatchedState,
    best_attack,
)
from games.unmatched.rules import fighter_names, may_use
from simulator.engine import golden
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, run_games, transcript_of
from simulator.engine.metrics import Metrics, summarise
from simulator.engine.params import ParamErrors
from simulator.engine.rng import GameRng, game_rng
from simulator.engine.schedule import DrawSchedule

GAME = registry.get("unmatched")
GOLDEN_DECK = unmatched_golden.GOLDEN_DECK
CATALOG = GAME.directory / "catalog.json"
STORED_GOLDEN = GAME.directory / "golden"


class InOrder(GameRng):
    """A rigged chance step: the deck stays in the order the test built it."""

    def __init__(self) -> None:
        super().__init__(0, 0)

    def order(self, size: int) -> list[int]:
        return list(range(size))


# --- building decks --------------------------------------------------------------------------

#: name -> (type, value or None, fighter or None, boost)
CARDS: dict[str, tuple[str, int | None, str | None, int]] = {
    "Gaze": ("attack", 2, "Medusa", 4),
    "Shot": ("attack", 3, "Medusa", 1),
    "Shot+": ("attack", 3, "Medusa", 3),  # same value as Shot, higher boost
    "Claws": ("versatile", 3, "Harpy", 2),  # the sidekick's
    "Dash": ("versatile", 4, "any", 1),
    "Jab": ("versatile", 1, "any", 1),
    "Bare": ("attack", 2, None, 1),  # no fighter printed: restricts no one
    "Spear": ("attack", 5, "Achilles", 0),  # another hero's fighter: dead
    "Empty": ("attack", 0, "any", 1),  # value 0: never worth an action
    "Guard": ("defense", 4, "Medusa", 0),
    "Parry": ("defense", 2, "any", 2),
    "Plan": ("scheme", None, "Medusa", 3),
    "Trick": ("scheme", None, "Achilles", 1),  # another hero's scheme
}


def hero_card(
    name: str = "Medusa", sidekick: str = "Harpies", hp: int = 16, code: str = ""
) -> SimCard:
    code = code or "character-" + "-".join(name.lower().replace(".", "").split())
    return SimCard(0, code, name, "character", {"hp": hp, "sidekick": sidekick})


def deck_of(order: Sequence[str], hero: SimCard | None = None) -> SimDeck:
    """The draw pile in exactly this order (top first), one zone line per copy."""
    names = sorted(set(order))
    cards = [hero or hero_card()]
    for index, name in enumerate(names, start=1):
        card_type, value, fighter, boost = CARDS[name]
        attributes: dict[str, Any] = {"boost": boost}
        if value is not None:
            attributes["value"] = value
        if fighter is not None:
            attributes["fighter"] = fighter
        cards.append(SimCard(index, name.lower(), name, card_type, attributes))
    index_of = {name: i for i, name in enumerate(names, start=1)}
    return SimDeck(
        game="unmatched",
        cards=tuple(cards),
        zones={"hero": ((0, 1),), "deck": tuple((index_of[n], 1) for n in order)},
        draw_zone="deck",
    )


def prepared(deck: SimDeck, **params: Any) -> UnmatchedPrepared:
    return ENGINE.prepare(deck, params)


def game(deck: SimDeck, **params: Any) -> UnmatchedState:
    return ENGINE.new_game(prepared(deck, **params), {}, InOrder())


def play_in_order(deck: SimDeck, **params: Any) -> tuple[list[str], Metrics]:
    """The fast loop's game with the deck as built: its transcript and metrics."""
    lines: list[str] = []
    metrics = Metrics()
    ENGINE.play(prepared(deck, **params), {}, InOrder(), metrics, lines)
    return lines, metrics


def names_in(state: UnmatchedState, cards: Sequence[int]) -> list[str]:
    return [state.prepared.names[c] for c in cards]


def index(deck: SimDeck, name: str) -> int:
    (card,) = (c for c in deck.cards if c.name == name)
    return card.index


# --- the module ------------------------------------------------------------------------------


def test_the_game_package_registers_the_engine_and_its_draw_schedule() -> None:
    assert ENGINE.slug == "unmatched"
    assert GAME.engine is ENGINE
    assert registry.engines()["unmatched"] is ENGINE
    assert golden.golden_deck(GAME) is GOLDEN_DECK
    assert GAME.catalog_file == CATALOG
    # unmatched.md:23 opening 5; one maneuver draw a turn is the odds default (line 27)
    assert GAME.setup.schedule == DrawSchedule(5, 1, draws_on_first_turn=True)
    assert ENGINE.schedule == unmatched_schedule.SCHEDULE == GAME.setup.schedule
    # unmatched.md:37: 2 damage for each card not drawn, so a test hand goes past the deck
    assert GAME.setup.damage_per_missing_card == 2


def test_the_engine_cites_the_digest_lines_it_plays() -> None:
    cited = {int(c.split(":")[1]) for c in ENGINE.cites}
    assert {23, 26, 27, 30, 31, 32, 34, 36, 37, 38, 41} == cited
    assert all(c.startswith("unmatched.md:") for c in ENGINE.cites)


def test_what_is_not_modelled_is_listed() -> None:
    listed = " ".join(ENGINE.not_modelled).lower()
    for topic in ("movement", "board", "sidekick", "effects", "boost", "scheme", "defence"):
        assert topic in listed, topic


# --- parameters ------------------------------------------------------------------------------


def test_the_parameters_default_to_a_16_hp_opponent_and_30_turns() -> None:
    assert ENGINE.params.defaults == {"opponent_hp": 16, "max_turns": 30}


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("opponent_hp", 0, False),
        ("opponent_hp", 1, True),
        ("opponent_hp", 40, True),
        ("opponent_hp", 41, False),
        ("max_turns", 0, False),
        ("max_turns", 1, True),
        ("max_turns", 60, True),
        ("max_turns", 61, False),
        ("opponent_hp", "twelve", False),
        ("scheme_policy", "never", False),  # schemes are not modelled: no such parameter
    ],
)
def test_parameters_are_checked_at_their_bounds(name: str, value: Any, ok: bool) -> None:
    if ok:
        assert ENGINE.params.clean({name: value})[name] == value
    else:
        with pytest.raises(ParamErrors) as caught:
            ENGINE.params.clean({name: value})
        assert name in caught.value.errors


# --- decks the engine cannot play ----------------------------------------------------------


def test_a_deck_without_a_character_card_cannot_be_simulated() -> None:
    deck = deck_of(["Gaze"] * 30)
    no_hero = SimDeck("unmatched", deck.cards, {"deck": deck.zones["deck"]}, "deck")
    (problem,) = ENGINE.deck_problems(no_hero)
    assert "character card" in problem
    with pytest.raises(ValueError, match="character card"):
        ENGINE.prepare(no_hero, {})


def test_a_deck_without_action_cards_cannot_be_simulated() -> None:
    deck = SimDeck("unmatched", (hero_card(),), {"hero": ((0, 1),)}, "deck")
    (problem,) = ENGINE.deck_problems(deck)
    assert "no action cards" in problem


def test_a_deck_with_one_action_card_or_more_can_be_simulated() -> None:
    assert ENGINE.deck_problems(deck_of(["Guard"])) == []
    assert ENGINE.deck_problems(deck_of(["Gaze"] * 30)) == []


def test_two_character_cards_or_a_hero_without_hp_cannot_be_simulated() -> None:
    deck = deck_of(["Gaze"])
    two = SimDeck("unmatched", deck.cards, {**deck.zones, "hero": ((0, 2),)}, "deck")
    assert ENGINE.deck_problems(two) == ["The deck has more than one character card."]
    no_hp = SimCard(0, "character-x", "X", "character", {})
    assert ENGINE.deck_problems(deck_of(["Gaze"], no_hp)) == ["The character card has no hero HP."]


# --- which fighter may play a card (unmatched.md:12, 18, 30-32) -----------------------------

SHERLOCK = ("Sherlock Holmes", "Dr. Watson")
ALICE = ("Alice", "The Jabberwock")


def names_of(hero: str, sidekick: str) -> list[str]:
    """The fighters of ``hero_card(hero, sidekick)``: its name, sidekick and card code."""
    return fighter_names(hero, sidekick, hero_card(hero, sidekick).code)


@pytest.mark.parametrize(
    ("fighter", "hero", "sidekick"),
    [
        # the cases of the deck checker's tests (tests/decks/test_legality_rules.py)
        ("any", "Medusa", "Harpies"),
        ("Any", "Medusa", "Harpies"),
        ("Medusa", "Medusa", "Harpies"),
        ("MEDUSA", "Medusa", "Harpies"),
        ("Harpies", "Medusa", "Harpies"),
        ("Harpy", "Medusa", "Harpies"),
        ("Holmes", *SHERLOCK),
        ("Sherlock Holmes", *SHERLOCK),
        ("Dr. watson", *SHERLOCK),
        ("Watson", *SHERLOCK),
        ("Jabberwock", *ALICE),
        ("Leshen", "Ancient Leshen", "Wolves"),
        ("Wolf", "Ancient Leshen", "Wolves"),
        ("Xander", "Buffy", "Giles or Xander"),
        ("Guildenstern", "Hamlet", "Rosencrantz & Guildenstern"),
        ("Hyde", "Jekyll & Hyde", ""),
        ("Ingen Worker", "Robert Muldoon", "Ingen Workers"),
    ],
)
def test_a_card_for_any_fighter_the_hero_or_its_sidekick_is_ours(
    fighter: str, hero: str, sidekick: str
) -> None:
    assert may_use(fighter, names_of(hero, sidekick))


@pytest.mark.parametrize(
    ("fighter", "hero", "sidekick"),
    [
        ("Sherlock Holmes", "Medusa", "Harpies"),
        ("Dr. Malcolm", "Dr. Sattler", "Dr. Grant"),
        ("Harpy", *SHERLOCK),
        ("Medusa & Achilles", *ALICE),
    ],
)
def test_a_card_for_another_heros_fighter_is_not_ours(
    fighter: str, hero: str, sidekick: str
) -> None:
    assert not may_use(fighter, names_of(hero, sidekick))


def test_a_hero_whose_name_is_translated_is_still_known_by_its_card_code() -> None:
    medusa_ja = fighter_names("メデューサ", "ハーピー", code="character-medusa")
    assert may_use("Medusa", medusa_ja)
    assert not may_use("Achilles", medusa_ja)
    assert not may_use("Medusa", fighter_names("メデューサ", "ハーピー"))  # no code: no English
    # and the engine reads the code of a hero card shown in Japanese
    deck = deck_of(["Gaze", "Spear"], hero_card("メデューサ", "ハーピー", code="character-medusa"))
    p = prepared(deck)
    assert (p.dead[index(deck, "Gaze")], p.dead[index(deck, "Spear")]) == (0, 1)


def test_two_named_heroes_and_several_sidekicks_are_split() -> None:
    def folded(names: list[str]) -> set[str]:
        return {n.casefold() for n in names}

    assert folded(fighter_names("Jekyll & Hyde")) == {"jekyll & hyde", "jekyll", "hyde"}
    buffy = fighter_names("Buffy", "Giles or Xander", "character-buffy")
    assert folded(buffy) == {"buffy", "giles", "xander"}
    assert fighter_names("Medusa", "", "character-medusa")[0] == "Medusa"  # the printed name


def test_the_engine_and_the_deck_checker_share_one_fighter_matcher() -> None:
    from games.unmatched import deck as checker
    from games.unmatched import engine, rules

    assert checker.fighter_names is engine.fighter_names is rules.fighter_names
    assert checker.is_ours is engine.is_ours is rules.is_ours


def test_the_engine_and_the_deck_checker_agree_on_every_fighter_of_the_catalog() -> None:
    """For every hero of the real catalog and every fighter printed in it, the deck checker
    refuses a card exactly when the engine holds it dead (both read the hero as they do in
    production: the checker from CardFacts, the engine from a SimDeck)."""
    from decks.game_rules import deck_rules
    from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts
    from games.unmatched.deck import fighters_can_use

    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    heroes = [c for c in data["cards"] if c["type"] == "character"]
    fighters = sorted(
        {str(p["attributes"].get("fighter") or "") for c in data["cards"] for p in c["printings"]}
        - {""}
    )
    assert len(heroes) > 50 and len(fighters) > 50
    rules = deck_rules("unmatched")
    cards = [
        CardFacts(
            f"card-{i}",
            "unmatched",
            "attack",
            f"Card {i}",
            "",
            {"value": 2},
            printings=(PrintingFacts("test", f"n{i}", "", {"fighter": f}),),
        )
        for i, f in enumerate(fighters)
    ]
    actions = [
        SimCard(i, c.code, c.name_en, "attack", {"value": 2, "fighter": f})
        for i, (c, f) in enumerate(zip(cards, fighters, strict=True), start=1)
    ]
    disagreements = []
    refused_somewhere = 0
    for row in heroes:
        hero = CardFacts(
            row["code"], "unmatched", "character", row["name_en"], "", row["attributes"]
        )
        facts = DeckFacts(
            game="unmatched",
            entries=(
                EntryFacts(card=hero, zone="hero", quantity=1),
                *(EntryFacts(card=c, zone="deck", quantity=1) for c in cards),
            ),
        )
        refused = {card.name_en for p in fighters_can_use(facts, rules) for card in p.cards}
        refused_somewhere += len(refused)
        # the engine needs HP to play; no printing places an action card in the hero's deck
        attributes = {**row["attributes"], "hp": row["attributes"].get("hp") or 10}
        attributes.pop("printed_in", None)
        sim = SimDeck(
            game="unmatched",
            cards=(SimCard(0, row["code"], row["name_en"], "character", attributes), *actions),
            zones={"hero": ((0, 1),), "deck": tuple((c.index, 1) for c in actions)},
            draw_zone="deck",
        )
        p = ENGINE.prepare(sim, {})
        dead = {c.name for c in actions if p.dead[c.index]}
        if refused != dead:
            disagreements.append((row["name_en"], sorted(refused ^ dead)))
    assert disagreements == []
    assert 0 < refused_somewhere < len(fighters) * len(heroes)  # neither verdict is trivial


def test_a_card_for_another_heros_fighter_is_dead_and_a_sidekick_card_is_not() -> None:
    deck = deck_of(["Spear", "Claws", "Dash", "Bare", "Trick", "Plan", "Guard", "Empty", "Gaze"])
    p = prepared(deck)
    dead = {name: p.dead[index(deck, name)] for name in CARDS if name in p.names}
    # the goldfish never defeats our sidekick, so its cards stay usable
    assert dead == {
        "Spear": 1,  # Achilles's
        "Claws": 0,  # the sidekick's
        "Dash": 0,  # any fighter's
        "Bare": 0,  # no fighter printed
        "Trick": 1,  # a scheme (and Achilles's)
        "Plan": 1,  # a scheme: the policy never plays one
        "Guard": 1,  # defense only
        "Empty": 1,  # value 0
        "Gaze": 0,
    }
    assert not p.can_attack[index(deck, "Spear")]
    assert p.can_scheme[index(deck, "Plan")] and not p.can_scheme[index(deck, "Trick")]


# --- the policy's choices -----------------------------------------------------------------


def test_best_attack_is_the_highest_value_a_fighter_of_ours_can_play() -> None:
    deck = deck_of(["Spear", "Gaze", "Claws", "Guard", "Jab", "Plan"])
    p = prepared(deck)
    hand = [index(deck, n) for n in ("Spear", "Gaze", "Claws", "Guard", "Jab")]
    assert best_attack(hand, p) == (index(deck, "Claws"), 3)  # not Achilles's Spear (5)
    assert best_attack(list(reversed(hand)), p) == (index(deck, "Claws"), 3)
    assert best_attack([index(deck, "Jab")], p) == (index(deck, "Jab"), 1)


def test_best_attack_is_none_for_a_hand_of_dead_cards_or_no_cards() -> None:
    deck = deck_of(["Spear", "Guard", "Plan", "Empty"])
    p = prepared(deck)
    assert best_attack([index(deck, n) for n in ("Spear", "Guard", "Plan", "Empty")], p) is None
    assert best_attack([], p) is None


def test_between_equal_values_the_policy_plays_the_lower_boost_first() -> None:
    deck = deck_of(["Shot+", "Shot", "Guard", "Guard", "Guard"])
    state = game(deck)
    assert ENGINE.choose(state) == ("attack", index(deck, "Shot"))


# --- the rules, at their boundaries --------------------------------------------------------


def test_the_opening_hand_is_five_cards() -> None:  # unmatched.md:23
    deck = deck_of(["Guard", "Parry", "Plan", "Spear", "Empty", "Gaze", "Jab"])
    state = game(deck)
    assert names_in(state, state.hand) == ["Guard", "Parry", "Plan", "Spear", "Empty"]
    assert (state.turn, state.action, state.drawn) == (1, 1, 5)


def test_a_turn_is_exactly_two_actions() -> None:  # unmatched.md:26
    lines, _metrics = play_in_order(deck_of(["Guard"] * 5 + ["Jab"] * 20), opponent_hp=40)
    turns: dict[str, list[str]] = {}
    for line in lines:
        turn, action = line.split(":")[0].split()
        turns.setdefault(turn, []).append(action)
    assert all(actions[:2] == ["A1", "A2"] for actions in turns.values())
    assert {a for actions in turns.values() for a in actions} <= {"A1", "A2", "end"}
    assert lines[:4] == [
        "T1 A1: maneuver, draw Jab",
        "T1 A2: attack with Jab (1) → opponent 39",
        "T2 A1: maneuver, draw Jab",
        "T2 A2: attack with Jab (1) → opponent 38",
    ]


def test_there_is_no_pass_a_maneuver_is_always_possible() -> None:  # unmatched.md:26-27
    state = game(deck_of(["Gaze"] * 5))
    assert ("maneuver", -1) in state.legal_actions()
    assert all(kind != "pass" for kind, _card in state.legal_actions())


def test_an_attack_deals_its_value_to_an_opponent_who_never_defends() -> None:  # lines 34, 41
    deck = deck_of(["Gaze", "Dash", "Shot", "Guard", "Guard"])
    state = game(deck)
    first = state.apply(ENGINE.choose(state))
    second = state.apply(ENGINE.choose(state))
    assert (first, second) == (
        "T1 A1: attack with Dash (4) → opponent 12",
        "T1 A2: attack with Shot (3) → opponent 9",
    )
    assert state.opponent_hp == 9 and state.turn == 2


def test_a_maneuver_draws_one_card() -> None:  # unmatched.md:27
    deck = deck_of(["Guard"] * 5 + ["Gaze", "Jab"])
    state = game(deck)
    assert state.apply(("maneuver", -1)) == "T1 A1: maneuver, draw Gaze"
    assert len(state.hand) == 6 and state.drawn == 6


def test_a_hand_of_seven_is_kept_and_a_hand_of_eight_discards_one() -> None:  # unmatched.md:36
    # Eight dead cards: two maneuvers draw the 6th and 7th (hand 7: kept), then the 8th and
    # an empty deck (hand 8: one card discarded).
    deck = deck_of(["Guard", "Guard", "Plan", "Spear", "Parry", "Empty", "Trick", "Guard"])
    state = game(deck)
    state.apply(("maneuver", -1))
    state.apply(("maneuver", -1))
    assert len(state.hand) == 7 and (state.turn, state.discarding) == (2, False)
    state.apply(("maneuver", -1))
    state.apply(("maneuver", -1))  # the deck is empty: 2 damage, no card
    assert len(state.hand) == 8 and state.discarding
    assert {kind for kind, _card in state.legal_actions()} == {"discard"}
    line = state.apply(ENGINE.choose(state))
    assert line == "T2 end: discard Guard (hand limit 7)"
    assert len(state.hand) == 7 and (state.turn, state.action, state.discarding) == (3, 1, False)
    # the fast loop plays the same turn
    lines, _metrics = play_in_order(deck)
    assert [x for x in lines if x.startswith("T1") or x.startswith("T2")] == [
        "T1 A1: maneuver, draw Empty",
        "T1 A2: maneuver, draw Trick",
        "T2 A1: maneuver, draw Guard",
        "T2 A2: maneuver, deck empty: 2 damage → Medusa 14",
        "T2 end: discard Guard (hand limit 7)",
    ]


def test_the_hand_limit_discards_dead_cards_first_then_the_lowest_attack() -> None:
    deck = deck_of(["Dash", "Gaze", "Jab", "Plan", "Guard", "Parry", "Spear", "Shot", "Claws"])
    p = prepared(deck)
    order = sorted(range(len(deck.cards)), key=p.discard_rank.__getitem__)
    shown = [p.names[i] for i in order if deck.cards[i].card_type != "character"]
    # dead cards by boost (Spear 0, Guard 0, Parry 2, Plan 3), then attacks by value and boost
    assert shown == ["Guard", "Spear", "Parry", "Plan", "Jab", "Gaze", "Shot", "Claws", "Dash"]
    state = game(deck)
    for _ in range(4):  # four maneuvers whatever the hand: 9 cards at the end of turn 2
        state.apply(("maneuver", -1))
    assert state.discarding and len(state.hand) == 9
    discarded = [state.apply(ENGINE.choose(state)) for _ in range(2)]
    assert discarded == [
        "T2 end: discard Guard (hand limit 7)",
        "T2 end: discard Spear (hand limit 7)",
    ]
    assert not state.discarding and state.turn == 3


def test_an_empty_deck_deals_2_damage_per_card_not_drawn_until_our_hero_falls() -> None:
    # unmatched.md:37-38: no reshuffle; our hero at 0 HP loses the game
    deck = deck_of(["Guard"] * 6, hero_card(hp=5))
    lines, metrics = play_in_order(deck)
    assert lines == [
        "T1 A1: maneuver, draw Guard",
        "T1 A2: maneuver, deck empty: 2 damage → Medusa 3",
        "T2 A1: maneuver, deck empty: 2 damage → Medusa 1",
        "T2 A2: maneuver, deck empty: 2 damage → Medusa 0 (defeated)",
    ]
    assert (metrics.sums["exhaustion_damage"], metrics.sums["cards_drawn"]) == (6, 6)
    assert metrics.counts["exhaustion_damage_taken"] == 1
    assert metrics.counts["lost_to_exhaustion"] == 1
    assert (metrics.counts["never_fell"], metrics.counts["opponent_fell"]) == (1, 0)
    assert metrics.histograms["exhaustion_turn"] == {1: 1}
    assert "opponent_falls_turn" not in metrics.histograms


def test_a_hero_with_2_hp_survives_no_empty_draw() -> None:
    lines, metrics = play_in_order(deck_of(["Guard"] * 5, hero_card(hp=2)))
    assert lines == ["T1 A1: maneuver, deck empty: 2 damage → Medusa 0 (defeated)"]
    assert metrics.counts["lost_to_exhaustion"] == 1


def test_an_opening_hand_from_a_deck_of_under_five_cards_costs_2_hp_per_missing_card() -> None:
    state = game(deck_of(["Gaze", "Gaze", "Gaze"], hero_card(hp=16)))
    assert state.hero_hp == 12 and state.exhaustion == 4 and state.exhaustion_turn == 0
    dead_at_set_up = game(deck_of(["Gaze"], hero_card(hp=8)))
    assert dead_at_set_up.is_over() and dead_at_set_up.lost and dead_at_set_up.turn == 0
    lines, metrics = play_in_order(deck_of(["Gaze"], hero_card(hp=8)))
    assert lines == [] and metrics.counts["lost_to_exhaustion"] == 1


def test_the_opponent_falls_at_0_hp_and_the_turn_is_recorded() -> None:  # unmatched.md:38
    deck = deck_of(["Dash", "Dash", "Dash", "Dash", "Dash", "Guard"])
    lines, metrics = play_in_order(deck, max_turns=4)
    assert lines[-1] == "T2 A2: attack with Dash (4) → opponent 0 (defeated)"
    assert metrics.histograms["opponent_falls_turn"] == {2: 1}
    assert (metrics.counts["opponent_fell"], metrics.counts["never_fell"]) == (1, 0)
    assert metrics.counts["lost_to_exhaustion"] == 0


def test_damage_by_turn_is_cumulative_capped_at_the_opponents_hp_and_kept_after_the_end() -> None:
    # 4 + 4 by turn 1, then 4 at an opponent with 2 HP left: 10 (not 12) from turn 2 on
    deck = deck_of(["Dash", "Dash", "Dash", "Jab", "Guard"])
    _lines, metrics = play_in_order(deck, opponent_hp=10, max_turns=4)
    by_turn = {k: v for k, v in metrics.sums.items() if k.startswith("damage_by_turn:")}
    assert by_turn == {
        "damage_by_turn:01": 8,
        "damage_by_turn:02": 10,
        "damage_by_turn:03": 10,
        "damage_by_turn:04": 10,
    }
    assert metrics.squares["damage_by_turn:01"] == 64
    metrics.games = 1  # run_games counts the games; play() alone does not
    means = summarise(metrics)["means"]
    assert means["damage_by_turn:02"]["value"] == 10


def test_a_game_still_going_at_the_turn_limit_counts_as_never_fell() -> None:
    deck = deck_of(["Jab"] * 30)
    lines, metrics = play_in_order(deck, max_turns=3)
    assert lines[-1] == "T3 A2: maneuver, draw Jab"  # five Jabs in three turns
    assert (metrics.counts["never_fell"], metrics.counts["opponent_fell"]) == (1, 0)
    assert metrics.counts["lost_to_exhaustion"] == 0
    assert metrics.sums["damage_by_turn:03"] == 5


def test_dead_cards_in_hand_are_counted_at_the_start_of_each_turn() -> None:
    # turn 1: Spear, Guard, Plan, Empty dead, Claws not; Claws is played and Trick drawn, so
    # turn 2 starts with five dead cards
    deck = deck_of(["Spear", "Guard", "Plan", "Empty", "Claws", "Trick", "Gaze", "Parry"])
    state = game(deck)
    assert state.dead_counts == [4]
    _lines, metrics = play_in_order(deck, max_turns=2)
    assert metrics.histograms["dead_cards_in_hand"] == {4: 1, 5: 1}


def test_every_count_and_sum_is_present_even_when_zero() -> None:
    _lines, metrics = play_in_order(deck_of(["Dash"] * 5))
    for name in ("opponent_fell", "never_fell", "lost_to_exhaustion", "exhaustion_damage_taken"):
        assert name in metrics.counts
    for name in ("cards_drawn", "exhaustion_damage"):
        assert name in metrics.sums


def test_an_illegal_action_is_refused() -> None:
    deck = deck_of(["Spear", "Guard", "Plan", "Empty", "Gaze", "Trick"])
    state = game(deck)
    for action in [
        ("attack", index(deck, "Spear")),  # Achilles's
        ("scheme", index(deck, "Trick")),  # not in hand
        ("discard", index(deck, "Guard")),  # not at the end of a turn over the limit
        ("pass", -1),
    ]:
        with pytest.raises(ValueError, match="not a legal action"):
            state.apply(action)
    # a scheme of ours may be played (its effect is not modelled), an attack of value 0 too
    assert state.apply(("scheme", index(deck, "Plan"))) == (
        "T1 A1: scheme Plan (effect not modelled)"
    )
    assert ("attack", index(deck, "Empty")) in state.legal_actions()


# --- the fast loop, determinism, copies, play-outs ------------------------------------------


SMALL_DECK = deck_of(["Gaze", "Claws", "Guard"])  # exhaustion already at set-up


@pytest.mark.parametrize(
    ("deck", "params"),
    [
        pytest.param(GOLDEN_DECK, {}, id="golden-deck"),
        pytest.param(GOLDEN_DECK, {"opponent_hp": 40}, id="golden-deck-exhaustion"),
        pytest.param(GOLDEN_DECK, {"opponent_hp": 30, "max_turns": 9}, id="golden-deck-limit"),
        pytest.param(SMALL_DECK, {"opponent_hp": 12}, id="three-cards"),
    ],
)
def test_the_fast_loop_plays_the_same_game_as_the_state_api_for_500_seeds(
    deck: SimDeck, params: dict[str, Any]
) -> None:
    p = ENGINE.prepare(deck, params)
    fast_all, slow_all = Metrics(), Metrics()
    for seed in range(500):
        fast, slow = Metrics(), Metrics()
        fast_lines: list[str] = []
        slow_lines: list[str] = []
        ENGINE.play(p, params, game_rng(7, seed), fast, fast_lines)
        Engine.play(ENGINE, p, params, game_rng(7, seed), slow, slow_lines)
        assert fast_lines == slow_lines, f"seed {seed}"
        assert fast.to_json() == slow.to_json(), f"seed {seed}"
        fast_all.merge(fast)
        slow_all.merge(slow)
    assert fast_all.to_json() == slow_all.to_json()
    # the batch path (deals for all 500 at once, measures added once) adds up to the same
    slow_all.games = 500
    assert ENGINE.play_games(p, params, 7, 0, 500).to_json() == slow_all.to_json()


def test_the_same_seed_gives_the_same_game_whatever_the_global_rng() -> None:
    random.seed(3)
    first = [transcript_of(ENGINE, GOLDEN_DECK, {}, run_seed=11, index=i) for i in range(30)]
    random.seed(4)
    random.random()
    random.shuffle(list(range(10)))
    again = [transcript_of(ENGINE, GOLDEN_DECK, {}, run_seed=11, index=i) for i in range(30)]
    assert first == again
    assert len({tuple(t) for t in first}) > 20


def test_a_run_gives_the_same_metrics_however_it_is_split() -> None:
    whole = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=5, start=0, count=300)
    parts = [
        run_games(ENGINE, GOLDEN_DECK, {}, run_seed=5, start=s, count=n)
        for s, n in ((200, 100), (0, 120), (120, 80))
    ]
    assert Metrics.merged(parts).to_json() == whole.to_json()


def test_a_copy_is_independent_and_plays_on_the_same() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {"opponent_hp": 40})
    for seed in range(30):
        state = ENGINE.new_game(p, {}, game_rng(3, seed))
        for _ in range(seed % 7):
            state.apply(ENGINE.choose(state))
        snapshot = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(state).items()}
        twin = state.copy()
        twin_lines = []
        while not twin.is_over():
            twin_lines.append(twin.apply(ENGINE.choose(twin)))
        assert {k: (list(v) if isinstance(v, list) else v) for k, v in vars(state).items()} == (
            snapshot
        )
        own_lines = []
        while not state.is_over():
            own_lines.append(state.apply(ENGINE.choose(state)))
        assert own_lines == twin_lines


def test_random_play_outs_always_end_within_the_turn_limit() -> None:
    for deck, params in ((GOLDEN_DECK, {}), (GOLDEN_DECK, {"opponent_hp": 40, "max_turns": 12})):
        p = ENGINE.prepare(deck, params)
        for seed in range(200):
            state = ENGINE.new_game(p, params, game_rng(0, seed))
            chooser = random.Random(10_000 + seed)
            for _step in range(1000):
                if state.is_over():
                    break
                actions = state.legal_actions()
                assert actions, f"no legal action before the end (seed {seed})"
                state.apply(chooser.choice(actions))
                assert 1 <= state.turn <= p.max_turns
                if state.action == 1 and not (state.discarding or state.is_over()):
                    assert len(state.hand) <= 7  # a turn starts within the hand limit
            else:
                pytest.fail(f"a random play-out did not end (seed {seed})")
            assert state.legal_actions() == []
            assert len(state.damage) == state.turn


# --- golden seeded transcripts ---------------------------------------------------------------


def test_the_golden_files_are_exactly_the_golden_games() -> None:
    stored = set(STORED_GOLDEN.glob("*.txt"))
    assert stored == set(golden.golden_files(GAME))
    texts = [p.read_text(encoding="utf-8") for p in stored]
    assert any("deck empty" in t for t in texts) and any("hand limit" in t for t in texts)
    assert any("(defeated)" in t.splitlines()[-1] and "Medusa" in t.splitlines()[-1] for t in texts)


def test_regenerate_golden_writes_checks_and_prunes_the_files(tmp_path: Path) -> None:
    before = {p: p.read_bytes() for p in STORED_GOLDEN.glob("*.txt")}
    where = ["--directory", str(tmp_path)]
    (tmp_path / "unmatched").mkdir()
    (tmp_path / "unmatched" / "retired.txt").write_text("old\n", encoding="utf-8")
    out = StringIO()
    call_command("regenerate_golden", "unmatched", *where, stdout=out, stderr=StringIO())
    written = {p.name for p in (tmp_path / "unmatched").glob("*.txt")}
    assert written == {f"{g.label}.txt" for g in golden.golden_games(GAME)}
    for name in written:  # the same text as the stored files
        stored = (STORED_GOLDEN / name).read_text(encoding="utf-8")
        assert (tmp_path / "unmatched" / name).read_text(encoding="utf-8") == stored
    assert "removed unmatched/retired.txt" in out.getvalue()
    call_command("regenerate_golden", "unmatched", "--check", *where, stdout=StringIO())
    (tmp_path / "unmatched" / "game0.txt").write_text("tampered\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"unmatched/game0\.txt"):
        call_command("regenerate_golden", "unmatched", "--check", *where, stdout=StringIO())
    # the stored files were neither written nor removed
    assert {p: p.read_bytes() for p in STORED_GOLDEN.glob("*.txt")} == before
    with pytest.raises(CommandError, match="No engine"):
        call_command("regenerate_golden", "no-such-game", stdout=StringIO())


# --- the real Medusa hero deck ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_real_medusa_deck_plays_as_its_cards_say() -> None:
    from catalog.models import Product
    from decks.legality.load import product_facts
    from simulator.decks import sim_deck_from_facts

    call_command("import_catalog", str(CATALOG), stdout=StringIO())
    product = Product.objects.prefetch_related(
        "items__printing__card_set", "items__printing__card__game"
    ).get(game__slug="unmatched", code="medusa")
    deck = sim_deck_from_facts(product_facts(product.items.all(), "unmatched"))
    assert deck.size == 30 and ENGINE.deck_problems(deck) == []
    p = ENGINE.prepare(deck, {})
    assert (p.hero_name, p.hero_hp) == ("Medusa", 16)
    by_name = {c.name: c.index for c in deck.cards}
    dead = {name for name, i in by_name.items() if p.dead[i] and name != "Medusa"}
    # schemes and the defense card; the Harpies' cards are playable by the sidekick
    assert dead == {"A Momentary Glance", "Winged Frenzy", "Hiss and Slither"}
    hand = [by_name[n] for n in ("Gaze of Stone", "The Hounds of Mighty Zeus", "Hiss and Slither")]
    assert best_attack(hand, p) == (by_name["The Hounds of Mighty Zeus"], 4)
    # the fast loop and the state API agree on the real deck too
    for seed in range(100):
        fast, slow = Metrics(), Metrics()
        ENGINE.play(p, {}, game_rng(1, seed), fast)
        Engine.play(ENGINE, p, {}, game_rng(1, seed), slow)
        assert fast.to_json() == slow.to_json()
    metrics = run_games(ENGINE, deck, {}, run_seed=1, start=0, count=2000)
    summary = summarise(metrics)
    # 59 damage in 30 cards against 16 HP: every game ends, in a handful of turns
    assert metrics.counts["opponent_fell"] == 2000
    assert 3 <= summary["distributions"]["opponent_falls_turn"]["mean"]["value"] <= 8
    assert summary["means"]["damage_by_turn:30"]["value"] == 16


def test_a_card_printed_in_the_heros_own_deck_is_usable_whatever_its_fighter_name() -> None:
    """Deadpool's cards name him "Dp", "Pool"…; the hero deck they are printed in is his."""
    from games.unmatched.engine import ENGINE
    from simulator.engine.cards import SimCard, SimDeck

    hero = SimCard(
        0,
        "character-deadpool",
        "Deadpool",
        "character",
        {"hp": 10, "move": 2, "ranged": False, "hero_count": 1, "printed_in": ["deadpool"]},
    )
    odd = SimCard(
        1,
        "x",
        "Odd",
        "attack",
        {"value": 3, "boost": 1, "fighter": "Dp", "printed_in": ["deadpool"]},
    )
    foreign = SimCard(
        2,
        "y",
        "Foreign",
        "attack",
        {"value": 3, "boost": 1, "fighter": "Medusa", "printed_in": ["medusa"]},
    )
    deck = SimDeck(
        "unmatched", (hero, odd, foreign), {"hero": ((0, 1),), "deck": ((1, 15), (2, 15))}, "deck"
    )
    prepared = ENGINE.prepare(deck, ENGINE.params.clean({}))
    assert prepared.can_attack[1] and not prepared.can_attack[2]
