"""The Monster Hunter hand policy (games/monster_hunter/policy.py, ``dead_card``) against what
the rules digest shared/rules/monster-hunter.md lets a hunter do with each card (issue 22,
"policies that do not do what they say"): a card the hunter can never use in the game it
plays counts as dead, and "dig" keeps only the monsters that can still be placed.

Scenarios on hand-set states (the helpers of ``test_engine``); pure Python, no database."""

from __future__ import annotations

from typing import Any

import pytest

from games.monster_hunter.engine import ENGINE
from tests.games.monster_hunter.test_engine import FILLER, game, ix, named, prepared

STARTER = {"lineup": "starter"}


def hand_phase_discards(state: Any) -> list[str]:
    """The cards the policy discards in one hand phase, in order (the draw not played)."""
    discarded: list[str] = []
    while True:
        kind, card = ENGINE.choose(state)
        if kind == "draw":
            return discarded
        assert kind == "discard"
        discarded.append(named([card])[0])
        state.apply((kind, card))


# --- (a) "dead": a card the hunter can never use in this game is dead ------------------------


def test_a_hand_the_plain_goldfish_can_never_use_no_longer_clogs() -> None:
    # The plain goldfish (no line-up, no material): there is no hunt (the opponent's sheet
    # stays empty, monster-hunter.md:68, and hunts are on monsters there, lines 51-53), so
    # weapon cards are never discarded for attack (lines 21-22, 54), armor never absorbs a hit
    # (lines 25, 57), items are never used (line 26: hunt phase only); and with no material
    # (line 38, 60) nothing costing material can be equipped. Only monsters are of use.
    # Before the fix the six cards below were all kept: the hand stayed full, nothing was ever
    # drawn again and no monster was ever placed (3.5-4.6 % of the demo decks' games).
    p = prepared(max_turns=8)
    top = ["Cleaver", "Jerkin", "Haunch", "Keg", "Maul", "Mail"]
    state = game(p, deck=[*top, "Crab", "Boar", "Slug", "Boar", *FILLER])
    lines: list[str] = []
    while not state.is_over():
        lines.append(state.apply(ENGINE.choose(state)))
    assert lines[:2] == [
        "T1 hand: draw 6: Cleaver, Jerkin, Haunch, Keg, Maul, Mail",
        "T1 place: none",
    ]
    assert lines[3:9] == [f"T2 hand: discard {name}" for name in top]
    assert state.placed_hist[:5] == [0, 1, 2, 3, 4]
    # HR: 1, 3, 6, 10, 15, 20 (one face-down monster more each turn, +1 for the empty sheet)
    assert state.hr_hist == [1, 3, 6, 10, 15, 20] and state.outcome == "hr"


@pytest.mark.parametrize(
    ("params", "weapon", "armor", "hand", "discarded"),
    [
        # the plain goldfish: nothing but monsters is ever of use (see above)
        (
            {},
            "",
            "",
            ["Haunch", "Keg", "Cleaver", "Jerkin", "Boar", "Pebble"],
            ["Haunch", "Keg", "Cleaver", "Jerkin", "Pebble"],
        ),
        # material every turn: an upgrade can be paid one day (line 60), so the better weapon
        # and armor are kept; a weapon no better than the hunter's attack 2 is not (there is
        # no hunt to discard it in), nor armor no better than the equipped Mail
        (
            {"material_per_turn": 1},
            "",
            "Mail",
            ["Cleaver", "Jerkin", "Mail", "Haunch", "Boar", "Slug"],
            ["Jerkin", "Mail", "Haunch"],
        ),
        # the training ground: matching weapons, usable items and armor (absorbing hits)
        # are of use in the hunt, unusable items are not (line 26)
        (
            STARTER,
            "",
            "",
            ["Cleaver", "Jerkin", "Haunch", "Keg", "Tonic", "Boar"],
            ["Tonic"],
        ),
        # the training ground without material: a hammer neither matches the great sword nor
        # can be paid for (line 61: a trade-in only for the same icon); armor kept back from
        # absorbing hits ("never") and unaffordable is dead too
        (
            {**STARTER, "armor_policy": "never"},
            "Cleaver",
            "",
            ["Maul", "Greatblade", "Jerkin", "Haunch", "Keg", "Boar"],
            ["Maul", "Jerkin", "Keg"],
        ),
        # items with no effect are only counted ("none"), so never of use
        ({**STARTER, "item_effect": "none"}, "", "", ["Haunch", "Keg", "Boar"], ["Haunch", "Keg"]),
    ],
)
def test_dead_cards_are_the_ones_the_hunter_can_never_use(
    params: dict[str, Any], weapon: str, armor: str, hand: list[str], discarded: list[str]
) -> None:
    p = prepared(**params)
    state = game(
        p,
        hand=hand,
        deck=FILLER,
        weapon=ix(weapon) if weapon else -1,
        armor=ix(armor) if armor else -1,
    )
    assert hand_phase_discards(state) == discarded


# --- (b) "dig" (and "dead"): only the monsters that can still be placed are kept -------------


@pytest.mark.parametrize("policy", ["dig", "dead"])
def test_only_the_monsters_that_can_still_be_placed_are_kept(policy: str) -> None:
    # One slot left on the 2-player sheet (line 47), and ours never leave it: the goldfish
    # opponent never hunts them (line 68), and only a face-up one makes room (line 48). So of
    # four monsters in hand one can ever be placed: the one the placement takes (the highest
    # HP, Wyvern); the others are discarded. Before the fix "dig" kept all four.
    p = prepared(discard_policy=policy)
    state = game(
        p,
        hand=["Boar", "Crab", "Pebble", "Slug", "Wyvern", "Boar"],
        deck=FILLER,
        down=["Boar", "Slug", "Boar"],
    )
    assert hand_phase_discards(state) == ["Boar", "Crab", "Pebble", "Slug", "Boar"]
    assert named(state.hand) == ["Wyvern"]


def test_with_room_for_two_the_two_sturdiest_monsters_are_kept() -> None:
    # 3-4-player sheet: 6 slots (line 47), 4 taken: two monsters can still be placed, Crab
    # (HP 6) and one Boar (HP 2; the second copy is the spare)
    p = prepared(discard_policy="dig", players="3-4")
    state = game(p, hand=["Boar", "Slug", "Crab", "Boar"], deck=FILLER, down=["Slug"] * 4)
    assert hand_phase_discards(state) == ["Slug", "Boar"]
    assert named(state.hand) == ["Crab", "Boar"]
