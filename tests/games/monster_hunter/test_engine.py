"""The Monster Hunter goldfish engine (games/monster_hunter/engine.py) against the rules digest
shared/rules/monster-hunter.md (and the Japanese seed 000 where it is more precise): each rule
on hand-made decks and hand-set states with exact outcomes, then the fast loop against the
state API, copies, determinism, random play-outs, metrics, the test-hand plan and the golden
data. Pure Python: no database.

Decks are built by hand as SimDecks; states are built directly (``game``) with the deck given
top card first, so a test decides exactly which cards are drawn and milled."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.monster_hunter import engine as mh
from games.monster_hunter.constants import EQUIP, HAND, HUNT, LINEUPS, MOVE, PLACE
from games.monster_hunter.engine import ENGINE, hand_plan
from games.monster_hunter.golden import GOLDEN_DECK, GOLDEN_GAMES
from games.monster_hunter.metrics import hr_key, placed_key
from games.monster_hunter.policy import policy_action
from games.monster_hunter.prepared import MonsterHunterPrepared, lineup_of
from games.monster_hunter.schedule import SCHEDULE
from games.monster_hunter.state import MonsterHunterState
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, transcript_of
from simulator.engine.i18n import in_english
from simulator.engine.metrics import Metrics
from simulator.engine.params import ParamErrors
from simulator.engine.rng import game_rng

RULES = Path(__file__).resolve().parents[4] / "shared" / "rules" / "monster-hunter.md"

# --- building decks and states ---------------------------------------------------------------

HUNTER = {"attack": 2, "movement": 2, "reach": 2, "item_icons": ["meat", "barrel-bomb"]}
#: name -> (type, attributes)
CARDS: dict[str, tuple[str, dict[str, Any]]] = {
    "Boar": ("monster", {"attack": 2, "reach": 1, "hp": 2, "rank": 1, "material_points": 1}),
    "Slug": ("monster", {"attack": 1, "reach": 0, "hp": 1, "rank": 1, "material_points": 1}),
    "Crab": ("monster", {"attack": 2, "reach": 1, "hp": 6, "rank": 2, "material_points": 3}),
    "Wyvern": (
        "monster",
        {"attack": 4, "reach": 3, "hp": 7, "rank": 3, "material_points": 4, "main_target": True},
    ),
    "Cleaver": (
        "weapon",
        {
            "weapon_icon": "great-sword",
            "attack": 4,
            "movement": 1,
            "reach": 1,
            "item_icons": ["meat"],
            "cost": 2,
        },
    ),
    "Greatblade": (
        "weapon",
        {
            "weapon_icon": "great-sword",
            "attack": 5,
            "movement": 1,
            "reach": 2,
            "item_icons": ["medicine"],
            "cost": 2,
        },
    ),
    "Maul": (
        "weapon",
        {
            "weapon_icon": "hammer",
            "attack": 4,
            "movement": 2,
            "reach": 1,
            "item_icons": ["barrel-bomb"],
            "cost": 2,
        },
    ),
    "Shortsword": (
        "weapon",
        {
            "weapon_icon": "sword-and-shield",
            "attack": 3,
            "movement": 3,
            "reach": 2,
            "item_icons": ["ball"],
            "cost": 1,
        },
    ),
    "Jerkin": ("armor", {"defence": 1, "cost": 1}),
    "Mail": ("armor", {"defence": 2, "cost": 2}),
    "Haunch": ("item", {"item_icons": ["meat"]}),
    "Keg": ("item", {"item_icons": ["barrel-bomb"]}),
    "Orb": ("item", {"item_icons": ["ball"]}),
    "Tonic": ("item", {"item_icons": ["medicine"]}),
    "Pebble": ("item", {"item_icons": ["ammo"]}),
}
NAMES = tuple(CARDS)


def deck_of(hunter: dict[str, Any] | None = None, copies: int = 3) -> SimDeck:
    """Every test card, ``copies`` of each, and the hunter beside the deck."""
    cards = [SimCard(0, "hunter", "Hunter", "hunter", hunter or HUNTER)]
    for index, name in enumerate(NAMES, start=1):
        card_type, attributes = CARDS[name]
        cards.append(SimCard(index, name.lower(), name, card_type, attributes))
    return SimDeck(
        game="monster-hunter",
        cards=tuple(cards),
        zones={"hunter": ((0, 1),), "main": tuple((i, copies) for i in range(1, len(cards)))},
        draw_zone="main",
    )


DECK = deck_of()


def ix(name: str) -> int:
    """The card index of a test card (the same in every deck_of deck)."""
    return NAMES.index(name) + 1


def ids(names: Sequence[str]) -> list[int]:
    return [ix(n) for n in names]


def named(cards: Sequence[int]) -> list[str]:
    return [NAMES[c - 1] for c in cards]


def prepared(deck: SimDeck = DECK, **params: Any) -> MonsterHunterPrepared:
    return ENGINE.prepare(deck, params)


def game(
    p: MonsterHunterPrepared,
    *,
    hand: Sequence[str] = (),
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    down: Sequence[str] = (),
    up: Sequence[str] = (),
    phase: int = HAND,
    **fields: Any,
) -> MonsterHunterState:
    """A state set by hand: ``deck`` is listed top card first."""
    state = MonsterHunterState(p, ids(deck)[::-1], run_seed=7)
    state.hand = ids(hand)
    state.discard = ids(discard)
    state.down = ids(down)
    state.up = ids(up)
    state.phase = phase
    for name, value in fields.items():
        assert hasattr(state, name), name
        setattr(state, name, value)
    return state


def top_first(state: MonsterHunterState) -> list[str]:
    return named(state.deck[::-1])


def uniform(
    count: int, hp: int, attack: int, reach: int, rank: int, **params: Any
) -> dict[str, Any]:
    return {
        "lineup": "uniform",
        "lineup_count": count,
        "lineup_hp": hp,
        "lineup_attack": attack,
        "lineup_reach": reach,
        "lineup_rank": rank,
        **params,
    }


FILLER = ["Pebble"] * 12


# --- the module ------------------------------------------------------------------------------


def test_the_engine_declares_its_slug_schedule_and_parameters() -> None:
    assert ENGINE.slug == "monster-hunter"
    assert ENGINE.schedule is SCHEDULE
    assert mh.ENGINE is ENGINE
    defaults = ENGINE.params.defaults
    assert defaults["players"] == "2" and defaults["lineup"] == "none"
    for param in ENGINE.params.params:
        assert param.label
        assert param.kind in ("bool", "choice") or param.minimum is not None
        assert param.kind != "choice" or param.default in {c for c, _ in param.choices}


def test_every_cited_line_is_a_real_line_of_the_digest() -> None:
    lines = RULES.read_text(encoding="utf-8").splitlines()
    assert ENGINE.cites
    for cite in ENGINE.cites:
        match = re.fullmatch(r"monster-hunter\.md:(\d+)", cite)
        assert match, cite
        assert lines[int(match[1]) - 1].strip(), cite
    # the turn structure (lines 44-65) is applied line by line
    cited = {int(c.split(":")[1]) for c in ENGINE.cites}
    assert {45, 46, 47, 48, 53, 55, 58, 59, 63, 64} <= cited


def test_what_is_not_modelled_is_listed() -> None:
    listed = " ".join(ENGINE.not_modelled).lower()
    for topic in ("map", "item", "uniqueness", "parent", "material"):
        assert topic in listed, topic


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"players": "5"}, "players"),
        ({"lineup": "dragons"}, "lineup"),
        ({"lineup_count": 7}, "lineup_count"),
        ({"lineup_hp": 0}, "lineup_hp"),
        ({"lineup_rank": 6}, "lineup_rank"),
        ({"approach": 0}, "approach"),
        ({"material_per_turn": 11}, "material_per_turn"),
        ({"max_turns": 61}, "max_turns"),
        ({"same_turn": "both"}, "same_turn"),
    ],
)
def test_parameters_out_of_bounds_are_refused(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(ParamErrors) as error:
        ENGINE.params.clean(raw)
    assert set(error.value.errors) == {field}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({}, ()),
        ({"lineup": "starter"}, ((1, 1, 3, 1), (2, 1, 0, 1), (2, 2, 1, 1), (3, 2, 3, 1))),
        ({"lineup": "elder", "players": "3-4"}, LINEUPS["elder"]),
        (uniform(3, 5, 2, 4, 2), ((5, 2, 4, 2),) * 3),
        # monster-hunter.md:47: 4 slots on the 2-player side, 6 on the 3-4-player side
        (uniform(6, 5, 2, 4, 2), ((5, 2, 4, 2),) * 4),
        (uniform(6, 5, 2, 4, 2, players="3-4"), ((5, 2, 4, 2),) * 6),
    ],
)
def test_the_line_up_parameters(raw: dict[str, Any], expected: tuple[Any, ...]) -> None:
    assert lineup_of(ENGINE.params.clean(raw)) == expected


def test_line_up_areas_one_per_area_on_two_players_and_round_two_areas_on_three() -> None:
    assert prepared(**uniform(4, 1, 1, 1, 1)).lineup_area == (0, 1, 2, 3)
    assert prepared(**uniform(6, 1, 1, 1, 1, players="3-4")).lineup_area == (0, 1, 0, 1, 0, 1)


@pytest.mark.parametrize(
    ("zones", "problem"),
    [
        ({"main": ((1, 3),)}, "no hunter card"),
        ({"hunter": ((0, 2),), "main": ((1, 3),)}, "more than one hunter"),
        ({"hunter": ((0, 1),)}, "no cards to draw"),
    ],
)
def test_deck_problems(zones: dict[str, Any], problem: str) -> None:
    deck = SimDeck("monster-hunter", DECK.cards, zones, "main")
    problems = ENGINE.deck_problems(deck)
    assert len(problems) == 1 and problem in problems[0]
    with pytest.raises(ValueError, match=problem):
        ENGINE.prepare(deck, {})


# --- game start and the hand phase (lines 38-39, 45) -----------------------------------------


def test_a_game_starts_with_nothing_and_the_first_hand_phase_fills_the_hand_to_six() -> None:
    p = prepared()
    state = ENGINE.new_game(p, {}, game_rng(0, 3))
    # line 38: HR 0, retreats 0, material 0, an empty hand; the whole deck in the library
    assert (state.hr, state.retreats, state.bank, state.hand) == (0, 0, 0, [])
    assert sorted(state.deck) == sorted(p.pile) and len(state.deck) == 45
    assert state.legal_actions() == [("draw", -1)]  # nothing to discard yet
    state.apply(("draw", -1))  # line 39: everybody draws from turn 1
    assert len(state.hand) == 6 and len(state.deck) == 39 and state.phase == PLACE


@pytest.mark.parametrize(
    ("policy", "weapon", "down", "hand", "discarded"),
    [
        # "dead": unusable items (ammo/medicine vs meat/barrel-bomb icons, line 26), nothing
        # else when no weapon is equipped (any weapon may be discarded for attack, line 22)
        (
            "dead",
            "",
            [],
            ["Pebble", "Haunch", "Tonic", "Maul", "Jerkin", "Boar"],
            ["Pebble", "Tonic"],
        ),
        # with a great sword equipped: a hammer neither matches nor beats attack 4 (line 21)
        (
            "dead",
            "Cleaver",
            [],
            ["Maul", "Greatblade", "Shortsword", "Haunch", "Keg", "Mail"],
            ["Maul", "Shortsword", "Keg"],
        ),
        # a full 2-player sheet: monsters in hand are dead (line 47)
        (
            "dead",
            "",
            ["Boar", "Boar", "Slug", "Crab"],
            ["Boar", "Wyvern", "Haunch", "Jerkin", "Cleaver", "Keg"],
            ["Boar", "Wyvern"],
        ),
        ("none", "", [], ["Pebble", "Tonic", "Pebble", "Boar", "Jerkin", "Keg"], []),
        (
            "dig",
            "",
            [],
            ["Pebble", "Boar", "Haunch", "Cleaver", "Wyvern", "Jerkin"],
            ["Pebble", "Haunch", "Cleaver", "Jerkin"],
        ),
        (
            "dig",
            "",
            ["Boar", "Boar", "Slug", "Crab"],
            ["Pebble", "Boar", "Haunch", "Cleaver", "Wyvern", "Jerkin"],
            ["Pebble", "Boar", "Haunch", "Cleaver", "Wyvern", "Jerkin"],
        ),
    ],
)
def test_the_hand_phase_discards_by_the_policy_then_draws_back_up_to_six(
    policy: str, weapon: str, down: list[str], hand: list[str], discarded: list[str]
) -> None:
    # the training ground with material, where weapons, armor and items are of use (the
    # plain goldfish, where only monsters are: test_policy.py)
    p = prepared(discard_policy=policy, lineup="starter", material_per_turn=1)
    state = game(p, hand=hand, deck=FILLER, down=down, weapon=ix(weapon) if weapon else -1)
    while True:
        action = ENGINE.choose(state)
        state.apply(action)
        if action[0] == "draw":
            break
    assert named(state.discard) == discarded
    kept = list(hand)
    for name in discarded:
        kept.remove(name)
    assert named(state.hand) == kept + ["Pebble"] * len(discarded)  # line 45: back to 6
    assert len(state.deck) == 12 - len(discarded)


def test_any_card_may_be_discarded_in_the_hand_phase() -> None:
    state = game(prepared(), hand=["Boar", "Jerkin", "Boar"], deck=FILLER)
    assert state.legal_actions() == [
        ("discard", ix("Boar")),
        ("discard", ix("Jerkin")),
        ("draw", -1),
    ]


def test_the_hand_measures_count_matching_weapons_and_usable_and_dead_items() -> None:
    p = prepared()
    # no weapon equipped: every weapon card matches (line 22); meat and barrel-bomb items only
    state = game(p, deck=["Cleaver", "Maul", "Haunch", "Keg", "Tonic", "Pebble"])
    state.apply(("draw", -1))
    assert (state.obs_weapons, state.obs_usable, state.obs_dead) == ([2], [2], [2])
    # a great sword equipped: only great swords match, and its item icons (meat) replace the
    # hunter's (line 20), so the barrel bomb is dead now
    state = game(
        p, deck=["Cleaver", "Maul", "Greatblade", "Haunch", "Keg", "Tonic"], weapon=ix("Cleaver")
    )
    state.apply(("draw", -1))
    assert (state.obs_weapons, state.obs_usable, state.obs_dead) == ([2], [1], [2])


# --- placement (lines 46-48) -----------------------------------------------------------------


def test_one_monster_a_turn_face_down_the_sturdiest_first() -> None:
    state = game(prepared(), hand=["Boar", "Crab", "Slug", "Jerkin"], deck=FILLER, phase=PLACE)
    assert state.legal_actions() == [
        ("place", ix("Boar")),
        ("place", ix("Slug")),
        ("place", ix("Crab")),
        ("skip", -1),
    ]
    assert ENGINE.choose(state) == ("place", ix("Crab"))  # HP 6 before HP 2 and 1
    state.apply(("place", ix("Crab")))
    assert named(state.down) == ["Crab"] and state.placed == 1
    assert named(state.hand) == ["Boar", "Slug", "Jerkin"]
    assert state.phase == EQUIP  # no line-up: no move or hunt; one monster this turn only


def test_a_fifth_monster_cannot_go_on_a_full_two_player_sheet() -> None:
    # line 47: one monster per area, 4 areas; line 48: only a face-up monster may make room,
    # and a goldfish never flips ours
    p = prepared()
    state = game(p, hand=["Boar", "Haunch"], deck=FILLER, down=["Crab", "Slug", "Boar", "Wyvern"])
    state.phase = PLACE
    assert state.legal_actions() == [("skip", -1)]
    assert ENGINE.choose(state) == ("skip", -1)
    state.apply(("skip", -1))
    assert len(state.down) == 4 and named(state.hand) == ["Boar", "Haunch"]
    with pytest.raises(ValueError):
        game(p, hand=["Boar"], down=["Crab"] * 4, phase=PLACE).apply(("place", ix("Boar")))


def test_the_three_four_player_sheet_takes_six() -> None:
    p = prepared(players="3-4")
    five = game(p, hand=["Boar"], deck=FILLER, down=["Crab"] * 5, phase=PLACE)
    assert ("place", ix("Boar")) in five.legal_actions()
    six = game(p, hand=["Boar"], deck=FILLER, down=["Crab"] * 6, phase=PLACE)
    assert six.legal_actions() == [("skip", -1)]


@pytest.mark.parametrize(
    ("up", "legal", "replaced"),
    [
        # line 48 (seed 087): a face-up monster without a main-target icon makes room
        (["Crab"], True, "Crab"),
        (["Wyvern"], False, ""),
        # the policy discards the lowest rank among those allowed
        (["Crab", "Slug"], True, "Slug"),
        (["Wyvern", "Crab"], True, "Crab"),
    ],
)
def test_a_full_sheet_frees_a_slot_only_from_a_face_up_monster_without_main_target(
    up: list[str], legal: bool, replaced: str
) -> None:
    state = game(prepared(), hand=["Boar"], deck=FILLER, down=["Boar"] * (4 - len(up)), up=up)
    state.phase = PLACE
    assert (("place", ix("Boar")) in state.legal_actions()) is legal
    if legal:
        state.apply(("place", ix("Boar")))
        kept = list(up)
        kept.remove(replaced)
        assert named(state.discard) == [replaced]
        assert named(state.up) == kept and len(state.down) == 5 - len(up)


# --- the result phase's HR points (lines 63-64) -------------------------------------------


@pytest.mark.parametrize(
    ("params", "down", "up", "alive", "gain"),
    [
        ({}, 3, 0, None, 4),  # +1 per face-down, +1 as the opponent's sheet is empty
        ({}, 0, 0, None, 1),
        ({"players": "3-4"}, 3, 0, None, 3),  # the +1 is for 2-player games only
        ({}, 2, 1, None, 3),  # face-up monsters score nothing
        (uniform(2, 3, 1, 1, 1), 2, 0, [True, False], 2),  # a live monster on their sheet
        (uniform(2, 3, 1, 1, 1), 2, 0, [False, False], 3),  # all slain: empty again
    ],
)
def test_the_result_phase_scores_face_down_monsters_and_the_empty_sheet(
    params: dict[str, Any], down: int, up: int, alive: list[bool] | None, gain: int
) -> None:
    state = game(prepared(**params), deck=FILLER, down=["Boar"] * down, up=["Crab"] * up)
    if alive is not None:
        state.alive = alive
    state.phase, state.hr = EQUIP, 5
    state.apply(("done", -1))
    assert state.hr == 5 + gain and state.turn == 2 and state.phase == HAND
    assert state.hr_hist == [5 + gain] and not state.over


# --- deck-out and retreats (line 59, 41-42) -----------------------------------------------


def test_drawing_the_last_card_is_a_retreat_and_the_discard_pile_becomes_the_deck() -> None:
    p = prepared(**uniform(1, 3, 1, 1, 1), approach=3)
    state = game(p, hand=["Boar"] * 3, deck=["Haunch", "Keg"], discard=["Orb", "Tonic", "Jerkin"])
    state.dist, state.area = 0, 0
    state.apply(("draw", -1))
    # line 59: +1 retreat, the discard pile shuffled into a new deck, the hunter to camp
    assert state.retreats == 1 and state.first_retreat == 1
    assert (state.dist, state.area) == (3, -1) and state.discard == []
    assert named(state.hand[:5]) == ["Boar", "Boar", "Boar", "Haunch", "Keg"]
    drawn = named(state.hand[5:])
    assert len(drawn) == 1 and sorted(drawn + top_first(state)) == ["Jerkin", "Orb", "Tonic"]


def test_on_draw_the_retreat_waits_until_a_card_is_wanted_from_the_empty_deck() -> None:
    p = prepared(deck_out="on_draw")
    exact = game(p, hand=["Boar"] * 4, deck=["Haunch", "Keg"], discard=["Orb"])
    exact.apply(("draw", -1))
    assert exact.retreats == 0 and exact.deck == [] and named(exact.discard) == ["Orb"]
    short = game(p, hand=["Boar"] * 4, deck=["Haunch"], discard=["Orb"])
    short.apply(("draw", -1))
    assert short.retreats == 1 and named(short.hand) == ["Boar"] * 4 + ["Haunch", "Orb"]


@pytest.mark.parametrize(
    ("deck_out", "deck", "milled", "retreats", "left"),
    [
        ("on_empty", 6, 4, 0, 2),
        ("on_empty", 4, 4, 1, None),  # the deck ran out: retreat
        ("on_empty", 2, 2, 1, None),  # the rest of the damage is lost with the retreat
        ("on_draw", 4, 4, 0, 0),
        ("on_draw", 2, 2, 1, None),
    ],
)
def test_monster_damage_mills_the_deck_and_running_out_is_a_retreat(
    deck_out: str, deck: int, milled: int, retreats: int, left: int | None
) -> None:
    p = prepared(**uniform(1, 9, 4, 3, 1), deck_out=deck_out, armor_policy="never")
    state = game(p, hand=["Boar"], deck=["Pebble"] * deck, discard=["Orb"], dist=0, area=0)
    state.phase = HUNT
    state.apply(("attack", 0))  # flips a reach-3 monster: it strikes first (4 damage)
    assert state.milled == milled and state.retreats == retreats
    if left is not None:
        assert len(state.deck) == left and state.phase == HUNT  # the hunter attacks again
    else:  # the new deck: the old discard pile and the milled cards
        assert sorted(top_first(state)) == ["Orb"] + ["Pebble"] * milled
        assert state.dist == p.approach and state.phase == EQUIP


def test_the_third_retreat_retires_at_the_result_phase() -> None:
    p = prepared()
    state = game(
        p, hand=["Boar"] * 4, deck=["Haunch", "Keg"], discard=FILLER, down=["Crab"], retreats=2
    )
    state.apply(("draw", -1))
    assert state.retreats == 3 and not state.over  # the check comes in the result phase
    state.apply(("skip", -1))
    state.apply(("done", -1))
    # line 41: retired at the 3rd retreat; HR 2 is far from 20
    assert state.over and state.outcome == "retired" and state.hr == 2
    metrics = Metrics()
    ENGINE.record(state, metrics)
    assert metrics.counts["retired"] == 1 and metrics.counts["hr_reached"] == 0
    assert metrics.histograms["retired_turn"] == {1: 1}
    assert metrics.sums["retreats"] == 3 and metrics.histograms["first_retreat_turn"] == {1: 1}


@pytest.mark.parametrize(
    ("same_turn", "outcome", "hr", "won_retiring"),
    [
        # line 42: the HR win beats retirement when both happen at once
        ("hr_first", "hr", 21, True),
        # the seed's order: the retirement check (line 148) before the HR points (149-150)
        ("retire_first", "retired", 17, False),
    ],
)
def test_an_hr_win_and_the_third_retreat_in_the_same_turn(
    same_turn: str, outcome: str, hr: int, won_retiring: bool
) -> None:
    p = prepared(same_turn=same_turn)
    state = game(
        p,
        hand=["Boar"] * 4,
        deck=["Haunch", "Keg"],
        discard=FILLER,
        down=["Crab"] * 3,
        retreats=2,
        hr=17,
    )
    state.apply(("draw", -1))
    state.apply(("skip", -1))
    state.apply(("done", -1))
    assert state.retreats == 3 and state.over
    assert (state.outcome, state.hr, state.won_retiring) == (outcome, hr, won_retiring)
    metrics = Metrics()
    ENGINE.record(state, metrics)
    assert metrics.counts["hr_win_beat_retirement"] == int(won_retiring)


def test_reaching_twenty_by_a_slain_monster_ends_the_game_at_once() -> None:
    p = prepared(**uniform(1, 2, 1, 1, 1))
    state = game(p, hand=["Boar"], deck=FILLER, down=["Crab"] * 4, hr=19, dist=0, area=0)
    state.phase = HUNT
    line = state.apply(("attack", 0))
    # line 41: 20 HR points win; the result phase's points never come
    assert state.over and state.outcome == "hr" and state.hr == 20 and state.end_turn == 1
    assert line.endswith("game over on turn 1: 20+ HR points: the hunt is won")


def test_the_turn_limit_ends_the_game() -> None:
    state = game(prepared(max_turns=1), deck=FILLER, phase=EQUIP)
    state.apply(("done", -1))
    assert state.over and state.outcome == "limit" and state.legal_actions() == []


# --- the hunt (lines 51-58) ----------------------------------------------------------------


def test_a_face_down_monster_flipped_by_a_hunter_with_lower_reach_strikes_first() -> None:
    # the hunter: reach 2, attack 2; the monster: HP 3, attack 4, reach 3, rank 2
    p = prepared(**uniform(1, 3, 4, 3, 2))
    state = game(
        p,
        hand=["Cleaver", "Jerkin", "Boar"],
        deck=["Orb", "Tonic", "Haunch", "Keg", *FILLER],
        dist=0,
        area=0,
    )
    state.phase = HUNT
    assert ENGINE.choose(state) == ("attack", 0)
    line = state.apply(("attack", 0))
    # line 53 (seed 115-117): flipped, higher reach: the hunter's attack stops, the monster
    # hits first: 4 damage, 1 absorbed by the discarded armor (line 57), 3 cards milled
    assert state.face_up == [True] and state.alive == [True]
    assert named(state.discard) == ["Jerkin", "Orb", "Tonic", "Haunch"]
    assert "it strikes first" in line and state.phase == HUNT and state.hr == 0
    # the attack starts again: the monster is face up now, so holding is not allowed
    assert state.legal_actions() == [("attack", 0)]
    state.apply(("attack", 0))
    # any weapon card may be discarded when none is equipped (+1: 3 damage = HP 3, line 55)
    assert state.alive == [False] and state.hr == 2 and state.phase == EQUIP
    assert named(state.discard)[-1] == "Cleaver" and state.slain == 1


def test_a_monster_that_strikes_first_can_send_the_hunter_home_before_it_attacks() -> None:
    p = prepared(**uniform(1, 3, 4, 3, 2), armor_policy="never")
    state = game(p, hand=["Cleaver"], deck=["Orb"] * 4, discard=["Keg"], dist=0, area=0)
    state.phase = HUNT
    state.apply(("attack", 0))
    assert state.retreats == 1 and state.dist == 2 and state.phase == EQUIP
    assert state.alive == [True] and state.face_up == [True] and state.hr == 0
    assert named(state.hand) == ["Cleaver"]  # the hunter never attacked


@pytest.mark.parametrize(
    ("reach", "ties", "milled", "slain"),
    [
        (1, "hunter", 2, False),  # lower reach: it joins the order after the hunter
        (2, "hunter", 2, False),  # equal reach, ties to the hunter: after it, too
        (2, "monster", 0, False),  # equal, ties to monsters: its turn came before the flip
        (3, "hunter", 2, False),  # higher: it interrupts (the attack then starts again)
    ],
)
def test_a_flipped_monster_that_survives_acts_in_reach_order(
    reach: int, ties: str, milled: int, slain: bool
) -> None:
    # HP 9: the hunter (attack 2, nothing to spend) cannot slay it
    p = prepared(**uniform(1, 9, 2, reach, 1), reach_ties=ties, armor_policy="never")
    state = game(p, hand=["Boar"], deck=FILLER, dist=0, area=0)
    state.phase = HUNT
    state.apply(("attack", 0))
    if state.phase == HUNT:  # interrupted: the restart must attack the face-up monster
        assert state.legal_actions() == [("attack", 0)]
        state.apply(("attack", 0))
    assert state.milled == milled and state.alive == [not slain] and state.phase == EQUIP


def test_hold_is_allowed_only_when_the_area_has_only_face_down_monsters() -> None:
    p = prepared(**uniform(6, 9, 2, 1, 1, players="3-4"))
    state = game(p, hand=["Boar"], deck=FILLER, dist=0, area=0, phase=HUNT)
    assert state.legal_actions() == [("attack", 0), ("attack", 2), ("attack", 4), ("hold", -1)]
    assert ENGINE.choose(state) == ("hold", -1)  # nothing it can slay: it waits (seed 111)
    state.face_up[2] = True
    assert state.legal_actions() == [("attack", 0), ("attack", 2), ("attack", 4)]
    assert ENGINE.choose(state) == ("attack", 2)  # must attack: the face-up one, no spending


@pytest.mark.parametrize(
    ("weapon", "hand", "hp", "spent", "slain"),
    [
        # no weapon equipped: any weapon card is +1 (line 22), lowest attack (then index) first
        ("", ["Maul", "Shortsword", "Cleaver", "Boar"], 5, ["Shortsword", "Cleaver", "Maul"], True),
        # a great sword equipped (attack 4): only great swords match (line 21)
        ("Cleaver", ["Maul", "Greatblade", "Shortsword"], 5, ["Greatblade"], True),
        # two more needed and only one matches: nothing is wasted, the monster survives
        ("Cleaver", ["Maul", "Greatblade", "Shortsword"], 6, [], False),
        # usable items add +1 with item_effect "attack" (meat matches the great sword's icon)
        ("Cleaver", ["Greatblade", "Haunch", "Keg"], 6, ["Greatblade", "Haunch"], True),
        # attack alone is enough: nothing spent
        ("Cleaver", ["Greatblade"], 4, [], True),
    ],
)
def test_weapon_cards_are_discarded_for_attack_only_with_a_matching_icon(
    weapon: str, hand: list[str], hp: int, spent: list[str], slain: bool
) -> None:
    p = prepared(**uniform(1, hp, 0, 0, 2))  # attack 0: a survivor mills nothing
    state = game(p, hand=hand, deck=FILLER, dist=0, area=0, weapon=ix(weapon) if weapon else -1)
    state.phase = HUNT
    state.apply(("attack", 0))
    assert named(state.discard) == spent
    assert state.alive == [not slain] and state.hr == (2 if slain else 0)


@pytest.mark.parametrize(
    ("effect", "hand", "slain", "milled"),
    [
        ("attack", ["Haunch", "Keg"], True, 0),
        ("defence", ["Haunch", "Keg"], False, 0),  # items absorb the 2 damage instead
        ("none", ["Haunch", "Keg"], False, 2),
        ("attack", ["Orb", "Tonic"], False, 2),  # ball and medicine: not the hunter's icons
    ],
)
def test_items_need_a_matching_icon_and_do_what_item_effect_says(
    effect: str, hand: list[str], slain: bool, milled: int
) -> None:
    # HP 4 (hunter attack 2 + 2 items), attack 2, reach 1 (after the hunter)
    p = prepared(**uniform(1, 4, 2, 1, 1), item_effect=effect)
    state = game(p, hand=hand, deck=FILLER, dist=0, area=0, phase=HUNT)
    state.apply(("attack", 0))
    assert state.alive == [not slain] and state.milled == milled


def test_armor_discarded_for_defence_lasts_the_whole_turn() -> None:
    # two face-up monsters (attack 2, reach 3) in area 1 of a 3-4-player sheet act before
    # the hunter (reach 2); two armor cards absorb the first hit, and their +2 defence holds
    # for the second (seed 254: for the turn)
    p = prepared(**uniform(3, 9, 2, 3, 1, players="3-4"))
    state = game(p, hand=["Jerkin", "Jerkin", "Boar"], deck=FILLER, dist=1, phase=MOVE)
    state.face_up = [True, False, True]
    assert state.legal_actions() == [("move", 0), ("move", 1)]
    state.apply(("move", 0))
    assert state.def_bonus == 2 and state.milled == 0 and named(state.hand) == ["Boar"]
    assert state.acted == [True, False, True] and state.phase == HUNT
    # the armor's defence and the bonus reset at the result phase (line 65)
    state.apply(("attack", 0))
    state.apply(("done", -1))
    assert state.def_bonus == 0 and state.acted == [False, False, False]


def test_equipped_armor_is_the_hunters_defence() -> None:
    p = prepared(**uniform(1, 9, 3, 3, 1), armor_policy="never")
    state = game(p, hand=["Boar"], deck=FILLER, dist=0, area=0, armor=ix("Mail"), phase=HUNT)
    state.apply(("attack", 0))
    # it strikes first: 3 damage - defence 2 (line 25) = 1 card; having acted, it does not
    # hit again after the hunter's restarted attack
    assert state.milled == 1


def test_face_up_monsters_with_lower_reach_attack_after_the_hunter() -> None:
    # area 1 holds slots 0 and 2: a face-up HP-9 monster and a face-down HP-1 one, both
    # reach 1 and attack 3; the hunter slays the face-down one, then the other hits back
    p = prepared(**uniform(3, 9, 3, 1, 1, players="3-4"), armor_policy="never")
    p = dataclasses.replace(p, lineup=((9, 3, 1, 1), (9, 3, 1, 1), (1, 3, 1, 2)))
    state = game(p, hand=["Boar"], deck=FILLER, dist=0, area=0, phase=HUNT)
    state.face_up = [True, False, False]
    assert ENGINE.choose(state) == ("attack", 2)
    state.apply(("attack", 2))
    assert state.alive == [True, True, False] and state.hr == 2
    assert state.milled == 3 and state.acted == [True, False, False]


@pytest.mark.parametrize(
    ("ties", "milled_on_arrival"),
    [
        (
            "monster",
            3,
        ),
        ("hunter", 0),
    ],
)
def test_reach_ties_decide_whether_a_face_up_monster_of_equal_reach_acts_first(
    ties: str, milled_on_arrival: int
) -> None:
    p = prepared(**uniform(1, 9, 3, 2, 1), reach_ties=ties, armor_policy="never")
    state = game(p, hand=["Boar"], deck=FILLER, dist=2, phase=MOVE)
    state.face_up = [True]
    state.apply(("move", 0))
    assert state.milled == milled_on_arrival and state.phase == HUNT
    state.apply(("attack", 0))  # face up and here: it must attack
    assert state.milled == 3  # the monster acts once either way


# --- moving (lines 49-50) -----------------------------------------------------------------


def test_the_hunter_walks_to_the_training_sheet_then_goes_where_it_can_slay() -> None:
    p = prepared(**{**uniform(4, 1, 1, 1, 1), "approach": 3})
    p = dataclasses.replace(p, lineup=((9, 1, 1, 5), (3, 1, 1, 2), (2, 1, 1, 1), (3, 1, 1, 3)))
    state = game(p, hand=["Cleaver", "Boar"], deck=FILLER, phase=MOVE)
    assert state.dist == 3 and state.legal_actions() == [("advance", -1)]
    state.apply(("advance", -1))  # movement 2: one area to go, the camp is left
    assert state.dist == 1 and state.phase == EQUIP
    state.phase = MOVE
    assert state.legal_actions() == [("move", a) for a in range(4)]
    # attack 2 + 1 weapon card: HP 3 at most; the highest rank of those is slot 3 (rank 3)
    assert ENGINE.choose(state) == ("move", 3)
    cheap = dataclasses.replace(p, hunt_rank_first=False)
    state.prepared = cheap
    assert ENGINE.choose(state) == ("move", 2)  # HP 2: no card spent


def test_with_nothing_to_slay_the_hunter_goes_where_no_face_up_monster_hits() -> None:
    p = prepared(**uniform(4, 9, 2, 1, 1))
    state = game(p, hand=["Boar"], deck=FILLER, dist=0, area=0, phase=MOVE)
    state.face_up = [True, True, False, False]
    assert ENGINE.choose(state) == ("move", 2)
    state.face_up = [False, True, False, False]
    assert ENGINE.choose(state) == ("move", 0)  # already safe: it stays


# --- equipping (lines 20, 25, 60-61) -------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "armor", "bank", "material", "card", "legal", "bank_after"),
    [
        ("", "", 0, 0, "Shortsword", False, 0),  # cost 1 and no material
        ("", "", 1, 1, "Shortsword", True, 0),
        # trade-in of the same icon pays in full (line 61)
        ("Cleaver", "", 0, 0, "Greatblade", True, 0),
        # no trade-in across icons
        ("Cleaver", "", 0, 0, "Maul", False, 0),
        # material cards are spent whole: a 3-point card pays 2, the rest is lost (seed 057)
        ("Cleaver", "", 2, 3, "Maul", True, 1),
        # armor trades in whatever it replaces (seed 190)
        ("", "Jerkin", 1, 1, "Mail", True, 0),
        ("", "Jerkin", 0, 1, "Mail", False, 0),
    ],
)
def test_equipping_pays_with_material_and_the_trade_in(
    weapon: str,
    armor: str,
    bank: int,
    material: int,
    card: str,
    legal: bool,
    bank_after: int,
) -> None:
    p = prepared(material_per_turn=material)
    state = game(
        p,
        hand=[card],
        deck=FILLER,
        phase=EQUIP,
        bank=bank,
        weapon=ix(weapon) if weapon else -1,
        armor=ix(armor) if armor else -1,
    )
    assert (("equip", ix(card)) in state.legal_actions()) is legal
    if legal:
        state.apply(("equip", ix(card)))
        assert state.bank == bank_after and state.hand == []
        assert named(state.discard) == [n for n in (weapon, armor) if n]  # seed 186


def test_an_equipped_weapon_overrides_the_hunters_numbers_and_item_icons() -> None:
    p = prepared(material_per_turn=2)
    state = game(p, hand=["Cleaver", "Mail", "Shortsword"], deck=FILLER, bank=2, phase=EQUIP)
    assert (state.attack(), state.movement(), state.reach()) == (2, 2, 2)
    assert state.usable(ix("Keg")) and not state.usable(ix("Tonic"))
    # the policy: the weapon with the highest attack above 2, then the best armor
    assert ENGINE.choose(state) == ("equip", ix("Cleaver"))
    state.apply(("equip", ix("Cleaver")))
    assert (state.attack(), state.movement(), state.reach()) == (4, 1, 1)
    assert not state.usable(ix("Keg")) and state.usable(ix("Haunch"))  # meat only now
    assert state.matches(ix("Greatblade")) and not state.matches(ix("Shortsword"))
    assert ENGINE.choose(state) == ("equip", ix("Mail"))
    state.apply(("equip", ix("Mail")))
    assert state.defence() == 2 and state.bank == 0 and state.weapon_turn == 1
    # one weapon and one armor a turn
    assert state.legal_actions() == [("done", -1)]


def test_material_per_turn_banks_one_card_at_each_equip_phase() -> None:
    state = game(prepared(material_per_turn=2), hand=["Boar"], deck=FILLER, phase=PLACE)
    state.apply(("skip", -1))
    assert state.phase == EQUIP and state.bank == 1


# --- the training opponent's restock --------------------------------------------------------


@pytest.mark.parametrize(
    ("restock", "alive_after", "up_after"),
    [
        ("one", [True, True, False], [False, True, True]),
        ("all", [True, True, True], [False, True, False]),
        ("none", [False, True, False], [True, True, True]),
    ],
)
def test_slain_reference_monsters_return_face_down_by_restock(
    restock: str, alive_after: list[bool], up_after: list[bool]
) -> None:
    p = prepared(**uniform(3, 2, 1, 1, 1), restock=restock)
    state = game(p, deck=FILLER, phase=PLACE)
    state.alive = [False, True, False]
    state.face_up = [True, True, True]
    state.apply(("skip", -1))
    assert state.alive == alive_after and state.face_up == up_after


# --- whole games: the fast loop, copies, determinism, random play-outs ----------------------

PARAM_SETS: list[dict[str, Any]] = [
    {},
    {"lineup": "mixed", "material_per_turn": 2},
    {"lineup": "elder", "players": "3-4", "reach_ties": "monster", "deck_out": "on_draw"},
    uniform(4, 1, 10, 6, 0, restock="all", armor_policy="never", discard_policy="dig"),
]


@pytest.mark.parametrize("raw", PARAM_SETS)
def test_the_fast_loop_plays_the_same_games_as_the_state_api(raw: dict[str, Any]) -> None:
    params = ENGINE.params.clean(raw)
    p = ENGINE.prepare(GOLDEN_DECK, params)
    fast, slow = Metrics(), Metrics()
    for index in range(500):
        fast_lines: list[str] = []
        slow_lines: list[str] = []
        ENGINE.play(p, params, game_rng(11, index), fast, fast_lines)
        Engine.play(ENGINE, p, params, game_rng(11, index), slow, slow_lines)
        assert fast_lines == slow_lines, index
    assert fast.to_json() == slow.to_json()
    # and without a transcript the same measures again
    quiet = Metrics()
    for index in range(500):
        ENGINE.play(p, params, game_rng(11, index), quiet)
    assert quiet.to_json() == fast.to_json()


@pytest.mark.parametrize("raw", PARAM_SETS)
def test_random_play_outs_end_and_never_run_out_of_choices(raw: dict[str, Any]) -> None:
    params = ENGINE.params.clean(raw)
    p = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(100):
        state = ENGINE.new_game(p, params, game_rng(0, seed))
        chooser = random.Random(seed + 1_000_000)
        for _step in range(10_000):
            if state.is_over():
                break
            actions = state.legal_actions()
            assert actions, seed
            state.apply(chooser.choice(actions))
        else:
            pytest.fail(f"a random play-out did not end (seed {seed})")


def test_the_policy_always_chooses_a_legal_action() -> None:
    params = ENGINE.params.clean(PARAM_SETS[2])
    p = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(100):
        state = ENGINE.new_game(p, params, game_rng(0, seed))
        while not state.is_over():
            action = policy_action(state)
            assert action in state.legal_actions()
            state.apply(action)


@pytest.mark.parametrize("raw", PARAM_SETS)
def test_a_copy_is_independent_of_its_original(raw: dict[str, Any]) -> None:
    params = ENGINE.params.clean(raw)
    p = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(30):
        state = ENGINE.new_game(p, params, game_rng(0, seed))
        for _ in range(9):
            if not state.is_over():
                state.apply(ENGINE.choose(state))
        before = copy.deepcopy(vars(state))
        twin = state.copy()
        while not twin.is_over():
            twin.apply(ENGINE.choose(twin))
        assert vars(state) == before


def test_a_game_is_determined_by_its_seed_whatever_the_global_rng() -> None:
    params = ENGINE.params.clean(PARAM_SETS[3])
    random.seed(1)
    first = [transcript_of(ENGINE, GOLDEN_DECK, params, run_seed=5, index=i) for i in range(20)]
    random.seed(99)
    random.random()
    again = [transcript_of(ENGINE, GOLDEN_DECK, params, run_seed=5, index=i) for i in range(20)]
    assert first == again
    assert len({tuple(t) for t in first}) > 1
    assert any("retreat" in line for t in first for line in t)  # reshuffles are seeded too


def test_illegal_actions_are_refused() -> None:
    state = game(prepared(), hand=["Boar"], deck=FILLER)
    for action in (("place", ix("Boar")), ("discard", ix("Haunch")), ("done", -1)):
        with pytest.raises(ValueError):
            state.apply(action)


# --- measures -------------------------------------------------------------------------------


def test_a_plain_goldfish_game_and_its_measures() -> None:
    # six monsters on top: one placed a turn; +1 each face down, +1 for the empty sheet
    p = prepared(max_turns=8)
    state = game(p, deck=["Boar", "Slug", "Crab", "Boar", "Slug", "Crab", *FILLER])
    lines: list[str] = []
    while not state.is_over():
        lines.append(state.apply(ENGINE.choose(state)))
    # HR: 2, 5, 9, 14, 19, 24 (the sheet holds 4, line 47)
    assert state.hr_hist == [2, 5, 9, 14, 19, 24] and state.outcome == "hr"
    assert state.placed_hist == [1, 2, 3, 4, 4, 4]
    assert lines[-1] == "T6 result: +4 (4 face down) +1 (opponent's sheet empty) → HR 24; " + (
        "game over on turn 6: 20+ HR points: the hunt is won"
    )
    metrics = Metrics()
    ENGINE.record(state, metrics)
    assert metrics.histograms["hr_reached_turn"] == {6: 1}
    assert metrics.counts["hr_reached"] == 1 and metrics.counts["turn_limit"] == 0
    # the last value is kept for the turns after the end
    assert [metrics.sums[hr_key(t)] for t in range(1, 9)] == [2, 5, 9, 14, 19, 24, 24, 24]
    assert [metrics.sums[placed_key(t)] for t in range(1, 9)] == [1, 2, 3, 4, 4, 4, 4, 4]
    # monsters that can never be placed are dead (line 47: with Crab placed, 3 slots are
    # left for Crab, Boar, Boar: the Slugs go), and so are the ammo items; the 5th card drawn
    # in turn 4 empties the deck: a retreat, the 9 discarded cards are the new deck
    assert lines[3:5] == ["T2 hand: discard Slug"] * 2
    assert lines[8:11] == ["T3 hand: discard Pebble"] * 3
    assert lines[18] == (
        "T4 hand: draw 5: Pebble, Pebble, Pebble, Pebble, Pebble; "
        "deck out: retreat 1, 9 cards reshuffled, hunter back to camp"
    )
    assert state.retreats == metrics.sums["retreats"] >= 1
    assert state.obs_dead[:4] == [0, 3, 4, 5]
    assert sum(metrics.histograms["dead_items_in_hand"].values()) == 6
    assert metrics.histograms["matching_weapons_in_hand"] == {0: 6}
    for name in ("retreats", "cards_milled", "monsters_slain", "hr_from_hunts"):
        assert name in metrics.sums
    assert set(ENGINE.metric_labels) >= {"hr_by_turn:", "monsters_by_turn:", "retreats"}


# --- the test-hand plan ---------------------------------------------------------------------


def test_hand_plan_says_what_the_policy_does_first() -> None:
    hand = ids(["Crab", "Boar", "Cleaver", "Keg", "Tonic", "Jerkin"])
    steps = hand_plan(DECK, hand, {})
    texts = [in_english(s.text, s.values) for s in steps]
    # one weapon card, two items: each number with its own plural form (issue 18)
    assert texts[:2] == [
        "1 weapon card can be discarded for +1 attack.",
        "Items matching Hunter's item icons: 1 of 2 items.",
    ]
    assert steps[2].cards == (ix("Crab"),) and "Places Crab face down" in texts[2]
    # the plain goldfish: nothing but monsters is of use (test_policy.py)
    assert texts[-1] == (
        "Next hand phase it discards Cleaver, Keg, Tonic, Jerkin before drawing back up to 6."
    )
    assert len(steps) == 4  # no material: nothing is equipped


def test_hand_plan_in_the_training_ground_names_the_target_and_the_equipment() -> None:
    hand = ids(["Shortsword", "Cleaver", "Boar", "Jerkin", "Mail"])
    steps = hand_plan(DECK, hand, {"lineup": "mixed", "material_per_turn": 2})
    texts = [in_english(s.text, s.values) for s in steps]
    assert texts[:2] == [
        "2 weapon cards can be discarded for +1 attack each.",
        "Items matching Hunter's item icons: 0 of 0 items.",
    ]
    # attack 2 + 2 weapon cards: HP 4 at most; rank 2 (HP 4) beats rank 1 (HP 2); the
    # weapons are spent there, so the one material card (2 points) buys the better armor
    assert texts[3] == (
        "The hunter heads for reference monster 2 (HP 4, rank 2): attack 2 plus 2 discarded "
        "cards slays it."
    )
    assert steps[3].cards == (ix("Shortsword"), ix("Cleaver"))
    assert texts[4:] == ["Equips Mail (cost 2 material points)."]


def test_hand_plan_when_the_hunter_is_still_on_the_way() -> None:
    steps = hand_plan(DECK, ids(["Cleaver", "Boar"]), {"lineup": "starter", "approach": 5})
    assert in_english(steps[3].text, steps[3].values) == (
        "The hunter walks toward the training sheet: 3 more areas to go before it can hunt."
    )


# --- the golden data ------------------------------------------------------------------------


def test_the_golden_deck_and_games() -> None:
    assert GOLDEN_DECK.size == 40
    assert ENGINE.deck_problems(GOLDEN_DECK) == []
    assert 4 <= len(GOLDEN_GAMES) <= 6
    labels = [label for label, _index, _params in GOLDEN_GAMES]
    assert len(set(labels)) == len(labels)
    outcomes = set()
    for _label, index, raw in GOLDEN_GAMES:
        params = ENGINE.params.clean(raw)
        state = ENGINE.new_game(
            ENGINE.prepare(GOLDEN_DECK, params), params, game_rng(20250601, index)
        )
        while not state.is_over():
            state.apply(ENGINE.choose(state))
        outcomes.add((state.outcome, state.won_retiring, state.retreats > 0, state.slain > 0))
    # the golden games reach the rare rules: retreats, retirement, the HR win that beats it,
    # the turn limit and hunting
    assert ("retired", False, True, True) in outcomes
    assert ("hr", True, True, True) in outcomes
    assert any(o[0] == "limit" for o in outcomes)
    assert ("hr", False, False, False) in outcomes
