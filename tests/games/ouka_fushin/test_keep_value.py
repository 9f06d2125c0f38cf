"""The policy's keep value of a story the protagonist can never pass (issue 22): worth 0, as
``policy.card_value`` says, so the end phase discards it first and a round reset never takes
it back.

When a story can never be passed (shared/rules/ouka-fushin.md:62-64, seed:122-125, 196-204):
the check passes when d6 + the protagonist's ability >= the target; the die shows at most 6,
and a hidden success only turns a 1/2/3 into 6/5/4, never above 6 ("今より小さな値には変更でき
ない", seed:204); the ability is the protagonist's at its destiny, 1 to 3 (ouka-fushin.md:16,
seed:217-222). So a story whose target exceeds 6 + the ability at every destiny of the
protagonist in play can never be passed, whatever the hidden-success policy (the goldfish
opponent never lowers a target: it does not react, ouka-fushin.md:77)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.ouka_fushin.constants import P_END, P_RESET, SUB_DONE, SUB_NONE
from games.ouka_fushin.dice import Dice
from games.ouka_fushin.engine import ENGINE
from games.ouka_fushin.policy import card_value, worst_card
from games.ouka_fushin.state import OukaState
from simulator.engine.cards import SimCard, SimDeck

ABILITY_KEYS = ("combat", "exploration", "negotiation")


def _hero(character: str, *rows: int) -> tuple[str, dict[str, Any]]:
    levels = {f"{k}_{d + 1}": rows[d * 3 + i] for d in range(3) for i, k in enumerate(ABILITY_KEYS)}
    return ("protagonist", {"character": character, "school": "goton", **levels})


def _story(points: int, target: int, ability: str) -> tuple[str, dict[str, Any]]:
    attributes = {"story_kind": "normal", "keywords": ["foe"], "points": points}
    return ("story", {**attributes, "target": target, "ability": ability})


CARDS: dict[str, tuple[str, dict[str, Any]]] = {
    # combat at destiny 1, 2, 3: Hero 3/4/5, Sub 1/1/2
    "Hero": _hero("Hero", 3, 2, 0, 4, 3, 1, 5, 4, 2),
    "Sub": _hero("Sub", 1, 3, 2, 1, 4, 3, 2, 5, 4),
    # target 12 combat: Hero needs 9/8/7 on the die -- never; Sub never either
    "Duel": _story(40, 12, "combat"),
    # target 9 combat: Hero needs 6/5/4 -- passable; Sub needs 8/8/7 -- never
    "Brawl": _story(35, 9, "combat"),
    # target 11 combat: Hero needs 8/7/6 -- only at destiny 3; Sub never
    "Feat": _story(30, 11, "combat"),
    # another character's destiny 2 card without its immortal: kept at 20
    "Oth2": ("character", {"character": "Oth", "destiny": 2, "school": "goton"}),
    "Sub1": ("character", {"character": "Sub", "destiny": 1, "school": "goton"}),
}


def _deck() -> SimDeck:
    names = sorted(CARDS)
    cards = tuple(
        SimCard(i, f"k-{name.lower()}", name, CARDS[name][0], dict(CARDS[name][1]))
        for i, name in enumerate(names)
    )
    index = {name: i for i, name in enumerate(names)}
    main = ["Duel", "Brawl", "Feat", "Oth2"] * 5
    zones = {
        "main": tuple((index[n], 1) for n in main),
        "protagonist": ((index["Hero"], 1),),
        "substitute": ((index["Sub"], 1),),
        "spares": ((index["Sub1"], 1),),
    }
    return SimDeck("ouka-fushin", cards, zones, "main")


def _state(prot: int, hand: Sequence[str], discard: Sequence[str] = ()) -> OukaState:
    p = ENGINE.prepare(_deck(), {})
    state = OukaState(
        p, Dice(random.Random(3)), list(p.piles[prot]), prot, SUB_DONE if prot else SUB_NONE
    )
    by_name = {name: i for i, name in enumerate(p.names)}
    state.hand = [by_name[n] for n in hand]
    state.discard = [by_name[n] for n in discard]
    state.turn = 1
    return state


def _card(state: OukaState, name: str) -> int:
    return state.prepared.names.index(name)


@pytest.mark.parametrize(
    ("prot", "story", "value"),
    [
        (0, "Duel", 0),  # never, at any destiny
        (0, "Brawl", 135),
        (0, "Feat", 130),  # only at destiny 3: the protagonist may still grow
        (1, "Duel", 0),
        (1, "Brawl", 0),  # the substitute's combat is too low at every destiny
        (1, "Feat", 0),
    ],
)
def test_a_story_that_can_never_be_passed_is_worth_nothing(
    prot: int, story: str, value: int
) -> None:
    state = _state(prot, [story])
    assert card_value(state, _card(state, story)) == value


def test_the_end_phase_discards_the_story_that_can_never_be_passed_first() -> None:
    # Oth2 is kept at 20; today's code kept Duel at 140 and threw Oth2 away
    state = _state(0, ["Duel", "Oth2", "Brawl", "Feat", "Brawl", "Feat", "Oth2"])
    state.phase = P_END
    assert state.policy() == ("discard", _card(state, "Duel"))
    assert worst_card(state) == _card(state, "Duel")
    line = state.apply(state.policy())
    assert line == "T1 end: discard Duel"


def test_a_round_reset_does_not_take_back_a_story_that_can_never_be_passed() -> None:
    state = _state(1, ["Oth2"], discard=["Brawl", "Duel"])
    state.phase = P_RESET
    assert card_value(state, _card(state, "Brawl")) == 0
    assert state.policy() == ("done",)
    # the protagonist who can pass Brawl takes it back
    ours = _state(0, ["Oth2"], discard=["Brawl", "Duel"])
    ours.phase = P_RESET
    assert ours.policy() == ("reclaim", _card(ours, "Brawl"))
