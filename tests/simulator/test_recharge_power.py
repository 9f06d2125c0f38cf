"""The cached formation power (games/recharge/power.py) against the exact solver.

Every expected value comes from ``best_formation`` (games/recharge/solver.py), the reference:
``FormationPower.power(hand)`` must be ``(f.power, f.exists)`` of the solver's formation for
the same cards. The rule boundaries come first (each hand built by hand), then thousands of
random hands and simulated games from the demo catalog, then generated cards. That the caches
work is checked by counting the tables built, not by timing (the machine is noisy).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.recharge
from games.recharge.power import FormationPower
from games.recharge.solver import (
    HERO,
    POWER,
    TEAMWORK,
    RCard,
    best_formation,
    card_from_attributes,
    colour_mask,
)

CATALOG = Path(games.recharge.__file__).parent / "catalog.json"
DEMO_PRODUCT = "rc-demo-heroes-united"


# --- cards ------------------------------------------------------------------------------------


def _edge(colours: str) -> int:
    """``"red+blue"`` -> its colour mask; ``""`` -> no colour."""
    return colour_mask(colours.split("+") if colours else [])


def hero(power: int, left: str, right: str, *, plus: bool = False) -> RCard:
    return RCard(HERO, power=power, left=_edge(left), right=_edge(right), plus=plus)


def team(power: int, left: str, right: str, *, plus: bool = False) -> RCard:
    return RCard(TEAMWORK, power=power, left=_edge(left), right=_edge(right), plus=plus)


def boost(left: str, left_power: int, right: str, right_power: int, *, plus: bool = False) -> RCard:
    """A power card: the value of each side when that side touches."""
    return RCard(
        POWER,
        left=_edge(left),
        right=_edge(right),
        left_power=left_power,
        right_power=right_power,
        plus=plus,
    )


@cache
def _catalog() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CATALOG.read_text(encoding="utf-8"))
    return data


def demo_deck() -> list[RCard]:
    """The 50 cards of the demo product, as the engine sees a deck (one RCard per copy)."""
    data = _catalog()
    by_code = {card["code"]: card for card in data["cards"]}
    product = next(p for p in data["products"] if p["code"] == DEMO_PRODUCT)
    deck = []
    for item in product["items"]:
        card = by_code[item["card"]]
        for _ in range(item["quantity"]):
            deck.append(
                card_from_attributes(
                    card["type"],
                    card.get("attributes") or {},
                    variant=item.get("variant", ""),
                    name=card["name_en"],
                )
            )
    return deck


def demo_pool() -> list[RCard]:
    """Every printing of every demo card: Power Plus copies beside their normal version."""
    pool = []
    for card in _catalog()["cards"]:
        for printing in card.get("printings") or [{}]:
            pool.append(
                card_from_attributes(
                    card["type"],
                    card.get("attributes") or {},
                    variant=printing.get("variant", ""),
                    name=card["name_en"],
                )
            )
    return pool


# --- the comparison ---------------------------------------------------------------------------


def reference(cards: Sequence[RCard], hand: Sequence[int], chain: bool) -> tuple[int, bool]:
    formation = best_formation([cards[i] for i in hand], chain_power_cards=chain)
    return formation.power, formation.exists


def check(cards: Sequence[RCard], hands: Sequence[Sequence[int]], *, chain: bool) -> None:
    """Every hand through one shared FormationPower, each answer equal to the reference's;
    then again in reverse order and reversed hands, from the filled caches."""
    power = FormationPower(cards, chain_power_cards=chain)
    expected = [reference(cards, hand, chain) for hand in hands]
    for hand, want in zip(hands, expected, strict=True):
        assert power.power(hand) == want, ([cards[i] for i in hand], chain)
    for hand, want in reversed(list(zip(hands, expected, strict=True))):
        assert power.power(list(reversed(hand))) == want, ([cards[i] for i in hand], chain)


def check_hand(hand: Sequence[RCard], *, chain: bool | None = None) -> tuple[int, bool]:
    """One hand of cards, as a deck of its own held whole; both chaining rules unless given.
    Returns the answer (without chaining unless given) for rule assertions on top."""
    chains = (False, True) if chain is None else (chain,)
    for each in chains:
        check(hand, [list(range(len(hand)))], chain=each)
    return FormationPower(hand, chain_power_cards=chains[0]).power(range(len(hand)))


# --- rule boundaries --------------------------------------------------------------------------


def test_an_empty_hand_has_no_formation() -> None:
    assert check_hand([]) == (0, False)
    assert FormationPower(demo_deck(), chain_power_cards=False).power([]) == (0, False)


def test_no_hero_means_no_formation_whatever_else_is_held() -> None:
    assert check_hand([team(30, "red", "red")]) == (0, False)
    assert check_hand([boost("red", 20, "red", 20)]) == (0, False)
    assert check_hand([team(30, "red", "red"), boost("red", 20, "red", 20)]) == (0, False)


def test_a_hero_alone() -> None:
    assert check_hand([hero(40, "red", "blue")]) == (40, True)
    assert check_hand([hero(0, "", "")]) == (0, True)  # a formation worth nothing still is one


def test_heroes_without_teamwork_do_not_add_up() -> None:
    assert check_hand([hero(30, "red", "red"), hero(20, "red", "red")]) == (30, True)


def test_a_teamwork_with_no_hero_beyond_it_counts() -> None:
    assert check_hand([hero(30, "red", "green"), team(20, "red", "blue")]) == (50, True)
    # on either edge of the hero, the far edge matching nothing
    assert check_hand([hero(30, "green", "red"), team(20, "yellow", "red")]) == (50, True)


def test_a_teamwork_needs_a_hero_edge_of_its_colour() -> None:
    assert check_hand([hero(30, "red", "red"), team(20, "blue", "green")]) == (30, True)


def test_two_teamwork_cards_on_the_two_edges_of_one_hero() -> None:
    hand = [hero(30, "red", "blue"), team(20, "red", "green"), team(15, "green", "blue")]
    assert check_hand(hand) == (65, True)
    # and two copies of one teamwork card, one on each edge
    twice = [hero(30, "red", "red"), team(20, "red", "green"), team(20, "red", "green")]
    assert check_hand(twice) == (70, True)


def test_a_teamwork_takes_one_hero_beyond_it() -> None:
    hand = [hero(10, "red", "red"), team(5, "red", "red"), hero(20, "red", "red")]
    assert check_hand(hand) == (35, True)
    hand.append(hero(30, "red", "red"))
    assert check_hand(hand)[0] == 55
    hand.append(team(5, "red", "red"))
    assert check_hand(hand)[0] == 70


def test_a_hero_joins_only_through_a_shared_colour() -> None:
    a, t, b = hero(30, "red", "red"), team(10, "red", "blue"), hero(20, "blue", "green")
    assert check_hand([a, t, b]) == (60, True)
    assert check_hand([a, t, hero(20, "green", "yellow")]) == (40, True)


def test_a_two_colour_edge_takes_one_teamwork_and_a_power_card_on_its_other_colour() -> None:
    hand = [hero(30, "green", "red+blue"), team(10, "red", "red"), team(15, "blue", "blue")]
    assert check_hand(hand) == (45, True)  # one teamwork on the two-colour edge
    with_card = [*hand, boost("blue", 25, "green", 5)]
    assert check_hand(with_card, chain=False) == (65, True)  # teamwork on red, card on blue
    # a strong red card too: the edge's two points are worth more than a teamwork
    assert check_hand([*with_card, boost("red", 40, "yellow", 0)], chain=False) == (95, True)


def test_a_joining_heros_touching_edge_keeps_its_other_colour_for_a_power_card() -> None:
    a, t, b = hero(30, "red", "red"), team(10, "red", "blue"), hero(20, "blue+yellow", "green")
    assert check_hand([a, t, b, boost("yellow", 30, "green", 0)], chain=False) == (90, True)


def test_each_colour_point_takes_one_power_card() -> None:
    hand = [hero(10, "red", "red+blue")]
    cards = [boost("red", 20, "", 0), boost("red", 30, "", 0), boost("blue", 5, "", 0)]
    assert check_hand([*hand, *cards[:2]], chain=False) == (60, True)
    assert check_hand([*hand, *cards], chain=False) == (65, True)
    assert check_hand([hero(10, "red", "green"), *cards[:2]], chain=False) == (40, True)


def test_only_the_touching_side_of_a_power_card_counts() -> None:
    assert check_hand([hero(10, "red", "red"), boost("red", 5, "blue", 50)], chain=False) == (
        15,
        True,
    )


def test_power_cards_never_attach_to_teamwork() -> None:
    hand = [hero(10, "red", "red"), team(5, "red", "blue"), boost("blue", 40, "blue", 40)]
    assert check_hand(hand, chain=False) == (15, True)


def test_chaining_on_and_off() -> None:
    hand = [hero(10, "red", "red"), boost("red", 20, "blue", 0), boost("blue", 30, "green", 0)]
    assert check_hand(hand, chain=False) == (30, True)  # the blue card has nowhere to go
    assert check_hand(hand, chain=True) == (60, True)  # it hangs from the red card's blue end
    hand = [hero(10, "red", "green"), boost("red", 20, "blue", 5), boost("blue", 30, "green", 0)]
    assert check_hand(hand, chain=False) == (30, True)  # on green, worth 0
    assert check_hand(hand, chain=True) == (60, True)


def test_only_power_cards_chain() -> None:
    hand = [hero(10, "red", "red"), boost("red", 5, "blue", 5), team(30, "blue", "blue")]
    assert check_hand(hand, chain=True) == (15, True)


def test_power_plus_counts_ten_more_on_every_kind() -> None:
    hand = [hero(40, "red", "red", plus=True), team(10, "red", "blue", plus=True)]
    hand.append(boost("red", 20, "blue", 0, plus=True))
    assert check_hand(hand) == (50 + 20 + 30, True)


def test_power_plus_and_normal_copies_are_different_cards() -> None:
    normal, plus = hero(40, "red", "red"), hero(40, "red", "red", plus=True)
    cards = [normal, plus, team(5, "red", "red")]
    power = FormationPower(cards, chain_power_cards=False)
    assert power.power([0]) == reference(cards, [0], False) == (40, True)
    assert power.power([1]) == reference(cards, [1], False) == (50, True)
    assert power.power([0, 1, 2]) == reference(cards, [0, 1, 2], False) == (95, True)


def test_a_repeated_index_is_a_second_copy() -> None:
    red, link = hero(30, "red", "red"), team(10, "red", "red")
    card = boost("red", 20, "red", 10)
    cards = [red, link, card]
    check(
        cards,
        [[0, 0], [0, 1, 0], [1, 1, 0], [0, 2, 2], [0, 0, 1, 1, 2, 2], [2, 2], [1, 1]],
        chain=False,
    )
    check(cards, [[0, 2, 2, 2], [0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 2, 2, 2]], chain=True)
    power = FormationPower(cards, chain_power_cards=False)
    assert power.power([0, 0]) == (30, True)
    assert power.power([0, 1, 0]) == (70, True)
    assert power.power([0, 0, 0, 1, 1]) == reference(cards, [0, 0, 0, 1, 1], False)


def test_equal_cards_at_different_indexes_are_copies() -> None:
    cards = [
        hero(30, "red", "blue"),
        team(10, "blue", "red"),
        RCard(HERO, power=30, left=_edge("red"), right=_edge("blue"), name="again"),
        team(10, "blue", "red"),
        boost("red", 15, "blue", 5),
    ]
    hands = [[0, 2], [0, 1, 2], [0, 1, 2, 3], [2, 3, 0, 1, 4], [0, 0, 2, 2, 1, 3], [2, 1, 1, 4, 4]]
    check(cards, hands, chain=False)
    check(cards, hands, chain=True)
    # and they share cache entries: the second hand is the first one again
    power = FormationPower(cards, chain_power_cards=False)
    assert power.power([0, 1]) == power.power([2, 3]) == reference(cards, [2, 3], False)
    assert power.spine_tables == 1


def test_cards_of_other_kinds_are_ignored() -> None:
    other = RCard("event", power=99, left=_edge("red"), right=_edge("red"), left_power=50)
    cards = [hero(30, "red", "red"), other, team(5, "red", "red"), boost("red", 10, "red", 10)]
    check(cards, [[1], [0, 1], [1, 2, 3], [0, 1, 2, 3], [1, 1, 0]], chain=False)
    assert FormationPower(cards, chain_power_cards=False).power([1, 2]) == (0, False)


def test_rows_listed_from_either_end() -> None:
    # three heroes that make a row only with some of them turned (b -u- a -t- c, c turned),
    # dealt at other places of the deck so that each in turn has the lowest card id: a row
    # is listed from one end only, the other end's id decides which
    a = hero(20, "green", "red")
    b = hero(25, "blue", "yellow")
    c = hero(30, "red+yellow", "blue")
    t = team(5, "red", "blue")
    u = team(7, "yellow", "green")
    d = team(3, "green", "green")
    card = boost("green", 40, "red", 1)
    decks = [[a, b, c, t, u, d, card], [c, a, b, u, t, card, d], [b, c, a, d, card, u, t]]
    for cards in decks:
        whole = list(range(len(cards)))
        hands = [whole, whole[:-1], whole[1:], whole[::2], whole[1::2], whole[:4], whole[3:]]
        check(cards, hands, chain=False)
        check(cards, hands, chain=True)


def test_a_row_with_a_teamwork_hanging_off_each_end() -> None:
    a, b = hero(20, "red", "blue"), hero(25, "blue", "red")
    link, left, right = team(5, "blue", "blue"), team(30, "red", "green"), team(40, "red", "yellow")
    for cards in ([a, b, link, left, right], [right, left, link, b, a]):
        assert check_hand(cards) == (120, True)
        extra = boost("red", 35, "red", 35)
        check([*cards, extra], [[0, 1, 2, 5], [0, 1, 2, 3, 5], list(range(6))], chain=False)


def test_the_best_row_spends_free_points_on_power_cards() -> None:
    # a stronger row covers the only yellow point; a weaker one leaves it for a strong card
    a, b = hero(10, "yellow", "red"), hero(10, "red", "red")
    t = team(20, "yellow", "red")
    card = boost("yellow", 45, "green", 0)
    assert check_hand([a, b, t, card], chain=False) == (75, True)


# --- random hands from the demo catalog ----------------------------------------------------------


@pytest.mark.parametrize("chain", [False, True])
def test_random_hands_from_the_demo_deck(chain: bool) -> None:
    deck = demo_deck()
    assert len(deck) == 50
    rng = random.Random(20260601 + chain)
    hands = [rng.sample(range(len(deck)), rng.randrange(0, 8)) for _ in range(2500)]
    # and hands holding a card twice (a Power Plus copy and its normal version are
    # different cards; this is the same card twice)
    hands += [[rng.randrange(len(deck)) for _ in range(rng.randrange(0, 8))] for _ in range(700)]
    check(deck, hands, chain=chain)


@pytest.mark.parametrize("chain", [False, True])
def test_random_hands_from_every_demo_printing(chain: bool) -> None:
    pool = demo_pool()
    rng = random.Random(20260602 + chain)
    hands = [rng.sample(range(len(pool)), rng.randrange(0, 8)) for _ in range(1500)]
    check(pool, hands, chain=chain)


def _games(deck_size: int, games: int, seed: int) -> list[list[int]]:
    """The hands a goldfish game holds: the first 1, 2, ..., 6 cards of a shuffled deck."""
    rng = random.Random(seed)
    hands = []
    for _ in range(games):
        order = rng.sample(range(deck_size), 6)
        hands.extend(order[:size] for size in range(1, 7))
    return hands


@pytest.mark.parametrize("chain", [False, True])
def test_games_sharing_the_caches_match_the_solver(chain: bool) -> None:
    deck = demo_deck()
    check(deck, _games(len(deck), 600, 7 + chain), chain=chain)


def test_tiny_caches_start_again_and_stay_exact() -> None:
    deck = demo_deck()
    hands = _games(len(deck), 150, 11)
    power = FormationPower(deck, chain_power_cards=False, cache_limit=3)
    for hand in hands:
        assert power.power(hand) == reference(deck, hand, False)
    # each cache was emptied whenever it filled up
    assert len(power._hands) <= 3 and len(power._spines) <= 3 and len(power._values) <= 3
    assert power.spine_tables > len(hands) // 3


def test_a_simulation_builds_few_tables() -> None:
    """The point of the caches, counted instead of timed: over the prefixes of many shuffled
    decks, spine and power-card tables are built for a fraction of the hands asked about,
    and the same games asked again build nothing."""
    deck = demo_deck()
    hands = _games(len(deck), 3000, 5)
    power = FormationPower(deck, chain_power_cards=False)
    for hand in hands:
        power.power(hand)
    built = power.spine_tables, power.power_tables
    # most 5- and 6-card hands of 50 distinct cards are new (about 0.38 tables per hand from
    # cold caches here); small hands and hands one power card apart share tables
    assert power.spine_tables < len(hands) * 0.45
    assert power.power_tables < len(hands) * 0.03
    for hand in hands:
        power.power(hand[::-1])
    assert (power.spine_tables, power.power_tables) == built
    # drawing a power card keeps the hand's spine table; drawing a hero keeps its power table
    heroes = [i for i, card in enumerate(deck) if card.kind == HERO]
    cards = [i for i, card in enumerate(deck) if card.kind == POWER]
    fresh = FormationPower(deck, chain_power_cards=True)
    fresh.power([heroes[0], cards[0]])
    fresh.power([heroes[0], cards[0], cards[1]])
    assert fresh.spine_tables == 1
    fresh.power([heroes[0], heroes[1], cards[0], cards[1]])
    assert fresh.power_tables == 2


# --- generated cards --------------------------------------------------------------------------

values = st.integers(0, 10).map(lambda n: 5 * n)
masks = st.integers(0, 15)
generated = st.builds(
    RCard,
    kind=st.sampled_from((HERO, HERO, TEAMWORK, TEAMWORK, POWER, POWER, "special")),
    power=values,
    left=masks,
    right=masks,
    left_power=values,
    right_power=values,
    plus=st.booleans(),
)


@st.composite
def decks_and_hands(draw: st.DrawFn) -> tuple[list[RCard], list[list[int]]]:
    deck = draw(st.lists(generated, min_size=1, max_size=9))
    # some cards again at further indexes: equal cards share an id
    deck += draw(st.lists(st.sampled_from(deck), max_size=3))
    index = st.integers(0, len(deck) - 1)
    hands = draw(st.lists(st.lists(index, max_size=7), min_size=1, max_size=6))
    return deck, hands


@settings(max_examples=700, deadline=None)
@given(decks_and_hands(), st.booleans())
def test_generated_cards_match_the_solver(
    deck_and_hands: tuple[list[RCard], list[list[int]]], chain: bool
) -> None:
    deck, hands = deck_and_hands
    check(deck, hands, chain=chain)
