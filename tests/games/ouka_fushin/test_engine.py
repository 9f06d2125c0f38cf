"""The 央華封神 goldfish engine (games/ouka_fushin/engine.py) against the rules digest
shared/rules/ouka-fushin.md and its seed (shared/seeds/001_c69c72f9df20aae7.txt): each rule at
its boundary with exact outcomes, on decks and states built by hand; the exact draw count
``cards_seen_by_turn``; the fast loop against the state API; copies; determinism; random
play-outs; the golden games; the test-hand plan.

States are built with ``fresh`` (the main deck in exactly the order written, no shuffle) and
dice rigged by ``Rigged``: ``Rigged(4, 2)`` rolls a 4, then a 2, then falls back to its seed."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.ouka_fushin import engine as ouka
from games.ouka_fushin import metrics as measures
from games.ouka_fushin.constants import (
    P_CLIMAX,
    P_END,
    P_HIDDEN,
    P_IMMORTAL,
    P_OVER,
    P_RESET,
    P_RESET_DISCARD,
    P_START,
    P_STORY,
    SUB_CANNOT,
    SUB_DONE,
    SUB_NONE,
)
from games.ouka_fushin.dice import Dice, hidden_faces, plain_faces
from games.ouka_fushin.engine import ENGINE, hand_plan
from games.ouka_fushin.golden import GOLDEN_DECK, GOLDEN_GAMES
from games.ouka_fushin.metrics import cards_seen_by_turn
from games.ouka_fushin.policy import card_value
from games.ouka_fushin.schedule import SCHEDULE
from games.ouka_fushin.state import OukaState, deal
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, run_games, transcript_of
from simulator.engine.i18n import in_english
from simulator.engine.metrics import Metrics
from simulator.engine.params import ParamErrors
from simulator.engine.rng import game_rng

DIGEST = Path(__file__).resolve().parents[4] / "shared" / "rules" / "ouka-fushin.md"


class Rigged(random.Random):
    """Dice that roll the given faces first, then whatever the seed gives."""

    def __init__(self, *faces: int) -> None:
        super().__init__(7)
        self.script = [(face - 0.5) / 6 for face in faces]

    def random(self) -> float:
        return self.script.pop(0) if self.script else super().random()


# --- building decks and states ---------------------------------------------------------------


def _story(
    keywords: str, points: int, target: int = 0, ability: str = "", pre: str = "", kind: str = ""
) -> tuple[str, dict[str, Any]]:
    attributes: dict[str, Any] = {
        "story_kind": kind or "normal",
        "keywords": keywords.split(),
        "points": points,
    }
    if target:
        attributes["target"] = target
        attributes["ability"] = ability
    if pre:
        attributes["prerequisites"] = pre.split()
    return ("story", attributes)


def _climax(conditions: str, bonus: int, kind: str, extra: int = 0) -> tuple[str, dict[str, Any]]:
    attributes: dict[str, Any] = {
        "conditions": conditions.split(),
        "bonus": bonus,
        "climax_type": kind,
    }
    if extra:
        attributes["extra_bonus"] = extra
    return ("climax", attributes)


def _person(character: str, destiny: int) -> tuple[str, dict[str, Any]]:
    return ("character", {"character": character, "destiny": destiny, "school": "goton"})


def _hero(character: str, *abilities: int) -> tuple[str, dict[str, Any]]:
    names = ("combat", "exploration", "negotiation")
    levels = {f"{n}_{d + 1}": abilities[d * 3 + i] for d in range(3) for i, n in enumerate(names)}
    return ("protagonist", {"character": character, "school": "goton", **levels})


#: name -> (card type, attributes)
CARDS: dict[str, tuple[str, dict[str, Any]]] = {
    # combat / exploration / negotiation at destiny 1, 2, 3
    "Hero": _hero("Hero", 3, 2, 0, 4, 3, 1, 5, 4, 2),
    "Sub": _hero("Sub", 1, 3, 2, 1, 4, 3, 2, 5, 4),
    "M-slay": ("mission", {"climax_types": ["slay"], "bonus": 50}),
    "M-peace": ("mission", {"climax_types": ["slay", "save"], "bonus": 80}),
    "Hero1": _person("Hero", 1),
    "Hero2": _person("Hero", 2),
    "Hero3": _person("Hero", 3),
    "Imm1": _person("Imm", 1),
    "Imm2": _person("Imm", 2),
    "Imm3": _person("Imm", 3),
    "Oth1": _person("Oth", 1),
    "Oth2": _person("Oth", 2),
    "Sub1": _person("Sub", 1),
    "Sub2": _person("Sub", 2),
    "Trip": _story("journey", 10, 4, "any"),
    "Tea": _story("journey feast", 5),
    "Fiend": _story("fiend", 15, 6, "exploration"),
    "Hunt": _story("fiend foe", 35, 9, "combat", "fiend"),
    "Shadow": _story("foe", 15, 6, "combat"),
    "Small": _story("foe", 10, 6, "combat"),
    "Valley": _story("vault", 20, 7, "exploration", "journey"),
    "Plea": _story("village pact", 20, 6, "negotiation", "journey"),
    "Reunion": _story("pact", 25, 5, "negotiation", "journey fiend"),
    "Rock": _story("foe", 10, kind="accident"),
    "Exorcism": _climax("fiend", 30, "slay"),
    "King": _climax("fiend foe", 60, "slay", 20),
    "Ends": _climax("journey vault", 40, "quest"),
    "Rebuild": _climax("village pact", 50, "save"),
}


def deck_of(
    order: Sequence[str],
    *,
    missions: Sequence[str] = ("M-slay", "M-peace"),
    substitute: str | None = "Sub",
    spares: Sequence[str] = (),
) -> SimDeck:
    """The main deck in exactly this order (top first, one zone line per copy), the
    protagonist Hero, and the given missions, substitute and spares. Every card of ``CARDS``
    is among the deck's cards, so a test may put any of them in a hand by name."""
    names = sorted(CARDS)
    cards = tuple(
        SimCard(i, f"t-{name.lower()}", name, CARDS[name][0], dict(CARDS[name][1]))
        for i, name in enumerate(names)
    )
    index = {name: i for i, name in enumerate(names)}
    zones: dict[str, tuple[tuple[int, int], ...]] = {
        "main": tuple((index[n], 1) for n in order),
        "protagonist": ((index["Hero"], 1),),
        "missions": tuple((index[n], 1) for n in missions),
        "spares": tuple((index[n], 1) for n in spares),
    }
    if substitute:
        zones["substitute"] = ((index[substitute], 1),)
    return SimDeck("ouka-fushin", cards, zones, "main")


def fresh(order: Sequence[str], *faces: int, **params: Any) -> OukaState:
    """A game of this deck order (no shuffle, our own protagonist) with rigged dice."""
    p = ENGINE.prepare(deck_of(order), params)
    return OukaState(p, Dice(Rigged(*faces)), list(p.piles[0]), 0, SUB_NONE)


def ids(state: OukaState, names: Sequence[str]) -> list[int]:
    by_name = {name: i for i, name in enumerate(state.prepared.names)}
    return [by_name[n] for n in names]


def names(state: OukaState, cards: Sequence[int]) -> list[str]:
    return [state.prepared.names[c] for c in cards]


def set_up(
    state: OukaState,
    phase: int,
    hand: Sequence[str],
    *,
    groups: Sequence[Sequence[str]] = (),
    discard: Sequence[str] = (),
) -> OukaState:
    """Hand-set the hand, the open story groups and the discard pile, then settle in
    ``phase`` (the policy's choice is made there)."""
    p = state.prepared
    state.hand = ids(state, hand)
    state.discard = ids(state, discard)
    state.groups, state.gmask, state.gpts = [], [], []
    for group in groups:
        cards = ids(state, group)
        state.groups.append(cards)
        mask = 0
        for c in cards:
            mask |= p.kw[c]
            state.onfield |= p.uid[c]
        state.gmask.append(mask)
        state.gpts.append(sum(p.points[c] for c in cards))
    state.kw_open = 0
    for mask in state.gmask:
        state.kw_open |= mask
    if state.turn == 0:
        state.turn = 1
    state.phase = phase
    state.settle()
    return state


def play_policy(state: OukaState, until: int = P_START) -> list[str]:
    """Apply the policy's actions through the state API until the state waits in ``until``
    (or the game ends); the transcript lines."""
    lines = [state.apply(ENGINE.choose(state))]
    while not state.is_over() and state.phase != until:
        lines.append(state.apply(ENGINE.choose(state)))
    return lines


FILLER = ["Rock"] * 20


# --- the module ------------------------------------------------------------------------------


def test_the_engine_declares_its_game_schedule_and_what_it_leaves_out() -> None:
    assert ENGINE.slug == "ouka-fushin" == ouka.GAME_SLUG
    assert ENGINE.schedule is SCHEDULE
    listed = " ".join(ENGINE.not_modelled).lower()
    for topic in ("opponent", "accident", "foreshadowing", "recruitment", "effect"):
        assert topic in listed, topic


def test_every_cite_is_a_real_line_of_the_digest() -> None:
    lines = DIGEST.read_text(encoding="utf-8").splitlines()
    assert ENGINE.cites
    for cite in ENGINE.cites:
        match = re.fullmatch(r"ouka-fushin\.md:(\d+)", cite)
        assert match, cite
        assert lines[int(match[1]) - 1].strip(), cite
    # the rules the brief names: opening/draws, hand limit, destiny, story check, hidden
    # success, climax, rounds and reset, deck-out, missions, substitute
    cited = {int(c.split(":")[1]) for c in ENGINE.cites}
    assert {16, 19, 38, 40, 44, 45, 46, 50, 56, 57, 62, 63, 68, 70, 71, 72, 73} <= cited


# --- the exact draw count -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turn", "used", "seen"),
    [
        (0, 0, 6),  # the opening hand (ouka-fushin.md:45)
        (0, 5, 6),
        (1, 0, 8),  # the first player draws on turn 1 (line 46)
        (1, 2, 8),
        (1, 3, 8),  # turn 1's refill comes after turn 1's draw
        (2, 0, 10),  # a turn using 0-2 cards only discards at the end: 2 a turn
        (2, 2, 10),
        (2, 3, 11),  # 8 - 3 = 5 in hand, the end phase draws 1
        (3, 3, 14),  # 6 + 2 + 2 + 2 + 1 + 1
        (3, 4, 16),  # 6 + 2 + 2 + 2 + 2 + 2
        (5, 1, 16),
        (5, 4, 24),  # 6 + 10 + 4 refills of 2
        (4, 8, 32),  # the whole hand used: 6 + 8 + 3 refills of 6
    ],
)
def test_cards_seen_by_turn_counts_the_end_phase_refill(turn: int, used: int, seen: int) -> None:
    assert cards_seen_by_turn(turn, used) == seen


@pytest.mark.parametrize(("turn", "used"), [(-1, 2), (1, -1), (1, 9)])
def test_cards_seen_by_turn_refuses_impossible_turns(turn: int, used: int) -> None:
    with pytest.raises(ValueError):
        cards_seen_by_turn(turn, used)


def test_at_two_cards_a_turn_or_fewer_the_schedule_is_exact() -> None:
    for turn in range(12):
        for used in (0, 1, 2):
            assert cards_seen_by_turn(turn, used) == SCHEDULE.seen_by_turn(turn)


def test_the_policy_never_draws_at_the_end_phase_as_it_uses_two_cards_at_most() -> None:
    for params in ({}, {"climax_min_points": 400}, {"mirror_match": "lose"}):
        metrics = run_games(ENGINE, GOLDEN_DECK, params, run_seed=3, start=0, count=300)
        assert metrics.sums[measures.M_END_DRAWS] == 0
        assert set(metrics.histograms[measures.M_USED]) <= {0, 1, 2}
        assert metrics.histograms[measures.M_USED][2] > 0


# --- parameters --------------------------------------------------------------------------------


def test_the_parameters_and_their_defaults() -> None:
    assert ENGINE.params.defaults == {
        "hidden_success": "always",
        "climax_min_points": 0,
        "climaxes_at_once": 1,
        "stacking": "on_prerequisite",
        "reclaim": "useful",
        "mirror_match": "no",
        "prerequisites": "any",
        "missions_need": "all",
        "extra_bonus": False,
        "completed_stories_score": False,
        "max_turns": 60,
    }
    for param in ENGINE.params.params:
        assert param.label and param.help


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("climax_min_points", -1, False),
        ("climax_min_points", 0, True),
        ("climax_min_points", 1000, True),
        ("climax_min_points", 1001, False),
        ("climaxes_at_once", 0, False),
        ("climaxes_at_once", 5, True),
        ("climaxes_at_once", 6, False),
        ("max_turns", 0, False),
        ("max_turns", 100, True),
        ("max_turns", 101, False),
        ("hidden_success", "net_gain", True),
        ("hidden_success", "sometimes", False),
        ("mirror_match", "dice_off", True),
        ("stacking", "when_full", True),
        ("prerequisites", "all", True),
        ("missions_need", "any", True),
        ("reclaim", "none", True),
        ("foreshadowing", True, False),  # not modelled: no such parameter
    ],
)
def test_parameters_are_checked_at_their_bounds(name: str, value: Any, ok: bool) -> None:
    if ok:
        assert ENGINE.params.clean({name: value})[name] == value
    else:
        with pytest.raises(ParamErrors) as caught:
            ENGINE.params.clean({name: value})
        assert name in caught.value.errors


def test_a_deck_needs_one_protagonist_and_cards_to_draw() -> None:
    deck = deck_of(["Trip"] * 3)
    none = SimDeck(deck.game, deck.cards, {"main": deck.zones["main"]}, "main")
    assert ENGINE.deck_problems(none) == ["The deck needs exactly one protagonist."]
    with pytest.raises(ValueError, match="protagonist"):
        ENGINE.prepare(none, {})
    empty = SimDeck(deck.game, deck.cards, {**deck.zones, "main": ()}, "main")
    assert ENGINE.deck_problems(empty) == ["The deck has no cards to draw."]
    assert ENGINE.deck_problems(deck) == []


# --- opening, draws, the end phase -----------------------------------------------------------


def test_the_opening_hand_is_6_and_the_first_turn_draws_2() -> None:  # lines 45-46, 56
    order = ["Rock", "Oth2", "Rock", "Oth2", "Rock", "Oth2", "Trip", "Imm2", "Fiend", "Tea"]
    state = fresh(order, 3)
    assert names(state, state.hand) == order[:6]
    state.apply(("start",))
    assert names(state, state.hand) == order[:8]
    assert (state.turn, state.pos) == (1, 8)


def test_the_start_draws_what_is_left_and_an_empty_deck_mid_game_plays_on() -> None:
    state = fresh(["Rock", "Oth2", "Rock", "Oth2", "Rock", "Oth2", "Imm2"])  # line 56, seed:85
    state.apply(("start",))
    assert names(state, state.hand)[-1] == "Imm2" and len(state.hand) == 7
    assert state.pos == len(state.deck) and not state.is_over()
    assert state.phase == P_END  # nothing to play: straight to the end phase


def test_the_end_phase_discards_to_exactly_6_the_least_useful_first() -> None:  # line 68
    # Rock: an accident, dead for the goldfish; Oth2: another character's destiny 2 without
    # its immortal (20); Imm1 could be placed (50), Trip/Fiend are stories (110/115)
    order = ["Rock", "Oth2", "Valley", "Plea", "Hero3", "Exorcism", "Rock", "Imm3", *FILLER]
    state = fresh(order)
    lines = play_policy(state)
    assert lines[1:] == ["T1 end: discard Rock", "T1 end: discard Rock"]
    assert names(state, state.hand) == ["Oth2", "Valley", "Plea", "Hero3", "Exorcism", "Imm3"]
    assert names(state, state.discard) == ["Rock", "Rock"]


def test_the_end_phase_draws_up_to_6_when_fewer_are_left() -> None:  # line 68, seed:157
    state = fresh(["Rock"] * 4 + ["Trip", "Tea", "Fiend"])
    set_up(state, P_END, ["Rock", "Rock", "Rock", "Rock"])
    state.pos = 4
    assert state.legal_actions() == [("end",)]
    assert state.apply(("end",)) == "T1 end: draw Trip, Tea"
    assert names(state, state.hand) == ["Rock"] * 4 + ["Trip", "Tea"]
    assert (state.end_draws, state.phase) == (2, P_START)


# --- the immortal phase: destiny --------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "level", "immortals", "legal"),
    [
        # seed:90: the protagonist grows with the same character one destiny higher
        (["Hero2"], 1, {}, [("grow", "Hero2")]),
        (["Hero3"], 1, {}, []),  # two higher: not yet
        (["Hero3"], 2, {}, [("grow", "Hero3")]),
        (["Hero1", "Hero2"], 2, {}, []),  # at or below its destiny: no use
        (["Sub1"], 1, {}, [("place", "Sub1")]),  # another character, destiny 1: an immortal
        (["Oth2"], 1, {}, []),  # destiny 2 needs its immortal on the field first
        (["Imm2"], 1, {"Imm": 1}, [("grow_immortal", "Imm2")]),  # seed:95
        (["Imm3"], 1, {"Imm": 1}, []),
        (["Imm1"], 1, {"Imm": 1}, []),  # unique: Imm is on the field (seed:58, 186)
        (["Hero1"], 1, {}, []),  # the protagonist's own character is never an immortal
        (["Oth1"], 1, {"A": 1, "B": 1, "C": 1, "D": 1}, []),  # four immortals: no slot
        (["Oth1"], 1, {"A": 1, "B": 1, "C": 1}, [("place", "Oth1")]),
        (
            ["Oth1", "Imm2", "Hero2"],
            1,
            {"Imm": 1},
            [("grow", "Hero2"), ("grow_immortal", "Imm2"), ("place", "Oth1")],
        ),
    ],
)
def test_which_character_cards_the_immortal_phase_can_use(
    hand: list[str], level: int, immortals: dict[str, int], legal: list[tuple[str, str]]
) -> None:
    state = fresh(FILLER)
    imm = state.prepared.character[ids(state, ["Imm1"])[0]]
    others = {"A": 100, "B": 101, "C": 102, "D": 103}  # characters of no card here
    state.immortals = {imm if k == "Imm" else others[k]: v for k, v in immortals.items()}
    state.level = level
    set_up(state, P_IMMORTAL, hand)
    expected = [(kind, ids(state, [card])[0]) for kind, card in legal]
    if legal:
        assert state.phase == P_IMMORTAL
        assert state.legal_actions() == [*expected, ("pass",)]
        assert ENGINE.choose(state) == expected[0]  # grow the protagonist first
    else:
        assert state.phase != P_IMMORTAL  # nothing to use: the phase passes


def test_growing_the_protagonist_raises_its_abilities_for_the_check() -> None:
    # Fiend: target 6 on exploration; Hero's exploration is 2, 3, 4 at destiny 1, 2, 3
    state = fresh(FILLER, 3)
    set_up(state, P_IMMORTAL, ["Hero2", "Fiend", "Rock", "Rock", "Rock", "Rock", "Rock", "Rock"])
    assert state.apply(("grow", ids(state, ["Hero2"])[0])) == (
        "T1 immortal: grow Hero to destiny 2 with Hero2"
    )
    assert state.level == 2 and names(state, state.discard) == ["Hero2"]
    line = state.apply(ENGINE.choose(state))
    assert line.endswith("d6 + exploration needs 3+: rolled 3 → success (+15)")


def test_placing_and_growing_an_immortal_keeps_the_card_on_the_field() -> None:
    state = fresh(FILLER)
    set_up(state, P_IMMORTAL, ["Imm1", "Rock"])
    state.apply(("place", ids(state, ["Imm1"])[0]))
    (imm,) = state.immortals
    assert state.immortals == {imm: 1} and state.discard == []
    set_up(state, P_IMMORTAL, ["Imm2", "Rock"])
    state.apply(("grow_immortal", ids(state, ["Imm2"])[0]))
    assert state.immortals == {imm: 2}


# --- the story phase -----------------------------------------------------------------------


def test_a_story_needs_its_prerequisite_keyword_on_the_field() -> None:  # line 60, seed:267
    state = fresh(FILLER)
    set_up(state, P_STORY, ["Valley", "Hunt", "Rock"])
    assert state.phase != P_STORY  # no journey, no fiend on the field: nothing playable
    set_up(state, P_STORY, ["Valley", "Hunt", "Rock"], groups=[["Trip"]])
    (valley,) = ids(state, ["Valley"])
    assert state.legal_actions() == [("story", valley, -1), ("story", valley, 0), ("pass",)]


@pytest.mark.parametrize(
    ("mode", "field", "legal"),
    [
        ("any", [["Trip"]], True),  # Reunion needs journey or fiend
        ("any", [["Fiend"]], True),
        ("all", [["Trip"]], False),  # ... or both, as an assumption
        ("all", [["Trip"], ["Fiend"]], True),
    ],
)
def test_several_prerequisite_keywords_any_or_all(
    mode: str, field: list[list[str]], legal: bool
) -> None:
    state = fresh(FILLER, prerequisites=mode)
    set_up(state, P_STORY, ["Reunion", "Rock"], groups=field)
    assert (state.phase == P_STORY) is legal


@pytest.mark.parametrize(
    ("face", "placed", "phase"),
    [
        (3, True, P_END),  # combat 3 + 3 = 6 >= 6 (ouka-fushin.md:62); no climax: the end
        (6, True, P_END),
        (2, False, P_HIDDEN),  # 5 < 6: a hidden success would make the 2 a 5
    ],
)
def test_the_check_is_d6_plus_the_ability_against_the_target(
    face: int, placed: bool, phase: int
) -> None:
    state = fresh(FILLER, face)
    set_up(state, P_STORY, ["Shadow", "Rock"])
    state.apply(("story", ids(state, ["Shadow"])[0], -1))
    assert (state.succeeded == 1) is placed
    assert state.phase == phase


@pytest.mark.parametrize(
    ("policy", "placed", "gift", "line"),
    [
        (
            "always",
            True,
            10,
            "T1 hidden success: 2 → 5, Shadow placed (+15); the opponent gains 10",
        ),
        ("never", False, 0, "T1 no hidden success: Shadow discarded"),
        ("net_gain", True, 10, None),  # 15 points: worth the 10 given away
    ],
)
def test_a_failed_check_with_and_without_the_hidden_success(
    policy: str, placed: bool, gift: int, line: str | None
) -> None:  # ouka-fushin.md:63-65, seed:196-204
    state = fresh(FILLER, 2, hidden_success=policy)
    set_up(state, P_STORY, ["Shadow", "Rock"])
    shadow = ids(state, ["Shadow"])[0]
    assert state.apply(("story", shadow, -1)).endswith(
        "target 6, d6 + combat needs 3+: rolled 2 → failed; a hidden success would make it 5"
    )
    assert state.phase == P_HIDDEN
    assert state.legal_actions() == [("hidden",), ("accept",)]
    got = state.apply(ENGINE.choose(state))
    if line:
        assert got == line
    assert state.opponent_points == gift == 10 * state.hidden_uses
    assert (state.groups == [[shadow]]) is placed
    assert (state.discard == [shadow]) is not placed
    assert (state.attempted, state.checks, state.checks_passed) == (1, 1, 0)
    assert state.succeeded == int(placed)


@pytest.mark.parametrize(
    ("hand", "field", "hides"),
    [
        (["Small", "Rock"], [], False),  # 10 points: not worth the 10 given away
        (["Small", "King"], [["Fiend"]], True),  # but it completes King's keywords
        (["Shadow", "Rock"], [], True),  # 15 points
    ],
)
def test_the_net_gain_policy_hides_only_when_worth_it(
    hand: list[str], field: list[list[str]], hides: bool
) -> None:
    state = fresh(FILLER, 1, hidden_success="net_gain")
    set_up(state, P_STORY, hand, groups=field)
    state.apply(("story", ids(state, hand[:1])[0], -1))
    assert state.phase == P_HIDDEN
    assert ENGINE.choose(state) == (("hidden",) if hides else ("accept",))


@pytest.mark.parametrize(
    ("face", "outcome"),
    [
        # Hunt: target 9 on combat 3 needs a 6
        (1, "failed; a hidden success would make it 6"),  # 1 -> 6 passes
        (2, "failed, discarded"),  # 2 -> 5 is not enough: no hidden success offered
        (3, "failed, discarded"),
        (5, "failed, discarded"),  # 4-6 are never changed (seed:204)
        (6, "success (+35)"),
    ],
)
def test_a_hidden_success_is_offered_only_when_it_would_pass(face: int, outcome: str) -> None:
    state = fresh(FILLER, face)
    set_up(state, P_STORY, ["Hunt", "Rock"], groups=[["Fiend"]])
    line = state.apply(("story", ids(state, ["Hunt"])[0], -1))
    assert line.endswith(f"needs 6+: rolled {face} → {outcome}")


@pytest.mark.parametrize(
    ("face", "outcome"),
    [
        # Fiend: target 6 on exploration 2 needs a 4
        (1, "failed; a hidden success would make it 6"),
        (2, "failed; a hidden success would make it 5"),
        (3, "failed; a hidden success would make it 4"),  # 3 -> 4, just enough
        (4, "success (+15)"),
    ],
)
def test_every_failed_1_2_or_3_may_become_6_5_or_4(face: int, outcome: str) -> None:
    state = fresh(FILLER, face)
    set_up(state, P_STORY, ["Fiend", "Rock"])
    line = state.apply(("story", ids(state, ["Fiend"])[0], -1))
    assert line.endswith(f"needs 4+: rolled {face} → {outcome}")


def test_hidden_and_plain_winning_faces() -> None:
    # need: (plain faces, with a hidden success) counted by hand
    table = {
        1: (6, 6),
        2: (5, 6),
        3: (4, 6),
        4: (3, 6),
        5: (2, 4),
        6: (1, 2),
        7: (0, 0),
        -3: (6, 6),
    }
    for need, (plain, hidden) in table.items():
        assert (plain_faces(need), hidden_faces(need)) == (plain, hidden), need


def test_a_story_without_a_target_is_placed_without_a_roll() -> None:  # seed:131, 270
    state = fresh(FILLER)  # no faces scripted: a roll would take the seed's
    set_up(state, P_STORY, ["Tea", "Rock"])
    before = state.dice.rng.getstate()
    assert state.apply(ENGINE.choose(state)).endswith(
        "Tea [journey/feast] (new slot) no check → placed (+5)"
    )
    assert state.dice.rng.getstate() == before and state.checks == 0


def test_an_any_story_checks_the_best_ability() -> None:  # seed:103
    # the substitute Sub: combat 1, exploration 3, negotiation 2 at destiny 1; Trip: target 4
    p = ENGINE.prepare(deck_of(FILLER), {})
    state = OukaState(p, Dice(Rigged(1)), list(p.piles[1]), 1, SUB_DONE)
    set_up(state, P_STORY, ["Trip", "Rock"])
    line = state.apply(ENGINE.choose(state))
    assert line.endswith("best ability needs 1+: rolled 1 → success (+10)")


def test_the_same_story_cannot_be_on_the_field_twice_and_accidents_are_never_played() -> None:
    state = fresh(FILLER)
    set_up(state, P_STORY, ["Trip", "Rock", "Rock"], groups=[["Trip"]])  # seed:275; line 26
    assert state.phase != P_STORY


def test_the_policy_plays_the_story_that_completes_a_climax_first() -> None:
    state = fresh(FILLER, hidden_success="never")
    # Shadow (15 on combat 3: needs 3, 4 faces) beats Fiend (15 on exploration 2: needs 4,
    # 3 faces) on points x faces ... but Fiend makes Exorcism playable
    set_up(state, P_STORY, ["Shadow", "Fiend", "Exorcism"])
    assert ENGINE.choose(state) == ("story", ids(state, ["Fiend"])[0], -1)
    set_up(state, P_STORY, ["Shadow", "Fiend", "Rock"])
    assert ENGINE.choose(state) == ("story", ids(state, ["Shadow"])[0], -1)


@pytest.mark.parametrize(("stacking", "place"), [("on_prerequisite", 0), ("when_full", -1)])
def test_a_story_goes_on_its_prerequisite_story_or_an_empty_slot(stacking: str, place: int) -> None:
    state = fresh(FILLER, 6, stacking=stacking)  # seed:272-274
    set_up(state, P_STORY, ["Valley", "Rock"], groups=[["Trip"]])
    assert ENGINE.choose(state) == ("story", ids(state, ["Valley"])[0], place)
    state.apply(ENGINE.choose(state))
    expected = [["Trip", "Valley"]] if place == 0 else [["Trip"], ["Valley"]]
    assert [names(state, g) for g in state.groups] == expected
    assert state.gpts == ([30] if place == 0 else [10, 20])


def test_with_every_story_slot_taken_only_stacking_is_left() -> None:  # line 47
    state = fresh(FILLER, 6, stacking="when_full")
    state.completed = 2
    set_up(state, P_STORY, ["Shadow", "Valley"], groups=[["Trip"], ["Tea"], ["Fiend"]])
    valley = ids(state, ["Valley"])[0]
    assert state.legal_actions() == [("story", valley, 0), ("story", valley, 1), ("pass",)]
    assert ENGINE.choose(state) == ("story", valley, 1)  # on the latest journey story: Tea


# --- climaxes ---------------------------------------------------------------------------------


def test_a_climax_whose_keywords_appear_this_turn_is_played_this_turn() -> None:
    # line 70, seed:279: any time in our turn once the keywords are on our stories
    order = ["Fiend", "Exorcism", "Rock", "Rock", "Oth2", "Hero3", "Tea", "Rock", *FILLER]
    state = fresh(order, 4)
    lines = play_policy(state, until=P_RESET)
    assert lines == [
        "T1 R1 draw Tea, Rock (deck 20) | hand: Fiend, Exorcism, Rock, Rock, Oth2, Hero3, Tea,"
        " Rock",
        "T1 story: Fiend [fiend] (new slot) target 6, d6 + exploration needs 4+: rolled 4 →"
        " success (+15)",
        "T1 climax: Exorcism on Fiend → round 1 scores 45 (stories 15 + climax 30)",
    ]
    assert state.round_points == [45, 0, 0] and state.climax_turns == [1, 0, 0]
    assert state.phase == P_RESET and state.completed == 1 and state.groups == []


def test_a_climax_is_not_playable_without_all_its_keywords() -> None:
    state = fresh(FILLER)
    set_up(state, P_CLIMAX, ["King", "Rock"], groups=[["Fiend"]])  # King needs fiend and foe
    assert state.phase == P_END


def test_a_held_climax_waits_for_the_points_then_an_empty_deck_forces_it() -> None:
    state = fresh(FILLER, climax_min_points=100)
    set_up(state, P_CLIMAX, ["Exorcism", "Rock"], groups=[["Fiend"]])
    assert ENGINE.choose(state) == ("pass",)  # 15 + 30 < 100
    assert state.apply(("pass",)).startswith("T1 climax: hold Exorcism (the round is worth 45")
    state.pos = len(state.deck)
    set_up(state, P_CLIMAX, ["Exorcism", "Rock"], groups=[["Fiend"]])
    assert ENGINE.choose(state) == ("climax", tuple(ids(state, ["Exorcism"])))


def test_the_climax_takes_the_cheapest_stories_and_the_others_score_again() -> None:
    # seed:166, 286-287: the condition stories go under the climax, the rest stay open
    for completed_score, round_two in ((False, 35 + 60), (True, 35 + 15 + 60)):
        state = fresh(FILLER, completed_stories_score=completed_score)
        set_up(state, P_CLIMAX, ["Exorcism", "Rock"], groups=[["Fiend"], ["Hunt"]])
        state.apply(ENGINE.choose(state))
        assert state.round_points[0] == 15 + 35 + 30
        assert [names(state, g) for g in state.groups] == [["Hunt"]]
        assert (state.completed, state.completed_points) == (1, 15)
        state.round = 2
        set_up(state, P_CLIMAX, ["King", "Rock"], groups=[["Hunt"]])
        state.apply(ENGINE.choose(state))
        assert state.round_points[1] == round_two


def test_several_climaxes_at_once_each_on_its_own_stories() -> None:  # seed:80, 166
    state = fresh(FILLER, climaxes_at_once=2)
    groups = [["Fiend"], ["Shadow"], ["Trip", "Valley"]]
    set_up(state, P_CLIMAX, ["Exorcism", "King", "Ends", "Rock"], groups=groups)
    king, ends = ids(state, ["King", "Ends"])
    # King (60) takes Fiend and Shadow, Ends (40) the journey; Exorcism finds no fiend left
    assert ENGINE.choose(state) == ("climax", tuple(sorted((king, ends))))
    legal = state.legal_actions()
    exorcism = ids(state, ["Exorcism"])[0]
    assert ("climax", tuple(sorted((exorcism, king)))) not in legal
    assert ("climax", tuple(sorted((exorcism, ends)))) in legal
    state.apply(ENGINE.choose(state))
    assert state.round_points[0] == 15 + 15 + 30 + 60 + 40
    assert (state.climaxes, state.completed, state.groups) == (2, 2, [])


def test_a_used_climax_cannot_be_played_again() -> None:  # seed:283
    state = fresh(FILLER)
    set_up(state, P_CLIMAX, ["Exorcism", "Rock"], groups=[["Fiend"]])
    state.apply(ENGINE.choose(state))
    state.round = 2
    set_up(state, P_CLIMAX, ["Exorcism", "Rock"], groups=[["Hunt"]])
    assert state.phase == P_END


def test_the_extra_bonus_counts_only_when_assumed() -> None:
    for extra, score in ((False, 15 + 15 + 60), (True, 15 + 15 + 80)):
        state = fresh(FILLER, extra_bonus=extra)
        set_up(state, P_CLIMAX, ["King", "Rock"], groups=[["Fiend"], ["Shadow"]])
        state.apply(ENGINE.choose(state))
        assert state.round_points[0] == score


# --- the end of a round -------------------------------------------------------------------------


def test_the_round_reset_takes_useful_cards_back_and_refills_to_6() -> None:
    # line 73, seed:169-173: take back from the discard pile, then discard/draw to 6
    state = fresh(["Trip", "Imm1", *FILLER])
    state.pos = 0
    state.onfield = state.prepared.uid[ids(state, ["Tea"])[0]]
    set_up(
        state,
        P_RESET,
        ["Rock", "Oth2", "Hero3"],
        discard=["Shadow", "Rock", "Hero2", "Trip", "Tea"],
    )
    lines = play_policy(state)
    assert lines == [
        "R1 end: take back Hero2",  # the protagonist's next growth first
        "R1 end: take back Shadow",
        "R1 end: take back Trip",
        "R1 end: hand 6",  # Rock and Tea (on the field) stay: nothing is drawn
    ]
    assert names(state, state.hand) == ["Rock", "Oth2", "Hero3", "Hero2", "Shadow", "Trip"]
    assert (state.round, state.phase, state.pos, state.reset_draws) == (2, P_START, 0, 0)


def test_the_round_reset_discards_down_to_the_6_most_useful() -> None:
    state = fresh(FILLER)
    set_up(
        state,
        P_RESET,
        ["Rock", "Oth2", "Hero3", "King", "Fiend", "Valley"],
        discard=["Hero2", "Shadow", "Rock"],
    )
    lines = play_policy(state)
    assert lines == [
        "R1 end: take back Hero2",
        "R1 end: take back Shadow",
        "R1 end: hand 8, discard to 6",
        "R1 end: discard Rock",
        "R1 end: discard Oth2",
    ]
    assert names(state, state.hand) == ["Hero3", "King", "Fiend", "Valley", "Hero2", "Shadow"]
    assert names(state, state.discard) == ["Rock", "Rock", "Oth2"]
    assert (state.round, state.phase) == (2, P_START)
    assert state.phase != P_RESET_DISCARD


def test_without_taking_back_the_round_reset_draws_to_6() -> None:
    state = fresh(["Trip", "Tea", "Imm1", *FILLER], reclaim="none")
    state.pos = 0
    set_up(state, P_RESET, ["Rock", "Oth2", "Hero3"], discard=["Hero2", "Shadow"])
    assert play_policy(state) == ["R1 end: draw Trip, Tea, Imm1"]
    assert names(state, state.hand) == ["Rock", "Oth2", "Hero3", "Trip", "Tea", "Imm1"]
    assert (state.reset_draws, state.end_draws, state.round) == (3, 0, 2)


def test_the_third_round_ends_the_game_and_the_missions_score() -> None:  # line 50, 19-20
    state = fresh(FILLER)
    state.round = 3
    state.round_points = [45, 60, 0]
    state.types = 1 << state.prepared.climax_types.index("slay")
    set_up(state, P_CLIMAX, ["Rebuild", "Rock"], groups=[["Plea"]])
    state.apply(ENGINE.choose(state))
    assert state.is_over() and state.phase == P_OVER
    assert state.round_points == [45, 60, 20 + 50]
    # slay was on the field before; Rebuild adds save: both missions are done
    assert state.mission_done == [True, True] and state.mission_points == 130
    assert state.total() == 45 + 60 + 70 + 130


@pytest.mark.parametrize(
    ("types", "mode", "done"),
    [
        (["slay"], "all", [True, False]),  # M-slay: slay; M-peace: slay and save
        (["slay", "save"], "all", [True, True]),
        (["save"], "all", [False, False]),
        (["save"], "any", [False, True]),
        ([], "any", [False, False]),
    ],
)
def test_missions_read_the_climax_types_on_the_field(
    types: list[str], mode: str, done: list[bool]
) -> None:
    state = fresh(FILLER, missions_need=mode)
    known = state.prepared.climax_types
    state.types = sum(1 << known.index(t) for t in types)
    state._finish()
    assert state.mission_done == done


# --- deck-out --------------------------------------------------------------------------------


def test_a_deck_empty_at_the_start_of_the_turn_ends_the_game_with_its_penalty() -> None:
    # line 56, 72, seed:83, 163-165: the round scores nothing and costs d6 x 10
    state = fresh(FILLER, 4)
    state.round, state.round_points, state.turn = 2, [45, 0, 0], 9
    set_up(state, P_START, ["Shadow", "Rock"], groups=[["Fiend"]])
    state.pos = len(state.deck)
    line = state.apply(("start",))
    assert line == (
        "T10 R2 deck empty at the start of the turn: deck-out, the round scores nothing,"
        " penalty -40 (d6 = 4)"
    )
    assert state.is_over() and state.round_points == [45, -40, 0]
    assert (state.deck_out_turn, state.deck_out_penalty) == (10, 40)
    metrics = Metrics()
    ENGINE.record(state, metrics)
    assert metrics.counts[measures.M_DECK_OUT] == 1
    assert metrics.histograms[measures.M_DECK_OUT_TURN] == {10: 1}
    assert metrics.sums["points_round:2"] == -40 and metrics.sums[measures.M_TOTAL] == 5


def test_a_short_deck_runs_out_and_the_next_start_ends_the_game() -> None:
    state = fresh(["Rock"] * 7, 6)
    lines = play_policy(state, until=P_OVER)
    assert lines == [
        "T1 R1 draw Rock (deck 0) | hand: Rock, Rock, Rock, Rock, Rock, Rock, Rock",
        "T1 end: discard Rock",
        "T2 R1 deck empty at the start of the turn: deck-out, the round scores nothing,"
        " penalty -60 (d6 = 6)",
    ]


def test_the_turn_limit_stops_a_game() -> None:
    state = fresh(FILLER * 3, max_turns=2)
    lines = play_policy(state, until=P_OVER)
    assert lines[-1] == "T2 turn limit reached: the game stops"
    assert state.turn_limit and state.turn == 2


# --- the substitute protagonist ----------------------------------------------------------------


def test_losing_the_dice_off_without_a_substitute_loses_the_game() -> None:  # line 40, 52
    deck = deck_of(["Trip"] * 10, substitute=None)
    p = ENGINE.prepare(deck, {"mirror_match": "lose"})
    state = deal(p, random.Random(1))
    assert not state.is_over() and state.legal_actions() == [("start",)]
    assert state.apply(("start",)) == "no substitute protagonist: the game is lost"
    assert state.is_over() and state.substitution == SUB_CANNOT and state.total() == 0
    metrics = Metrics()
    ENGINE.record(state, metrics)
    assert metrics.counts[measures.M_CANNOT_SUBSTITUTE] == 1


def test_substituting_rebuilds_the_deck_with_spares_and_gives_50_points() -> None:
    # line 43-44, seed:64-66: the loser plays its substitute, swaps character cards, +50
    order = ["Hero1", "Hero2", "Hero3", "Trip", "Oth1", "Trip", "Rock", "Rock"]
    deck = deck_of(order, spares=["Sub1", "Sub2"])
    p = ENGINE.prepare(deck, {"mirror_match": "lose"})
    state = deal(p, random.Random(1))
    assert state.substitution == SUB_DONE and state.prot == 1
    assert p.swapped == 2
    # the two lowest of Hero's cards are swapped; Hero3 stays, and is dead: the opponent's
    # protagonist is Hero, unique on the field
    assert sorted(names(state, state.deck)) == sorted(
        ["Sub1", "Sub2", "Hero3", "Trip", "Oth1", "Trip", "Rock", "Rock"]
    )
    assert state.total() == 50
    set_up(state, P_IMMORTAL, ["Hero3", "Hero1", "Sub2", "Oth1"])
    assert state.legal_actions() == [
        ("grow", ids(state, ["Sub2"])[0]),
        ("place", ids(state, ["Oth1"])[0]),
        ("pass",),
    ]
    assert card_value(state, ids(state, ["Hero3"])[0]) == 0


@pytest.mark.parametrize(
    ("faces", "substituted", "note"),
    [
        ((3, 3, 2, 5), True, "dice-off 2 vs 5: substitute Sub"),  # a tie is rolled again
        ((5, 2), False, "dice-off 5 vs 2: the opponent substitutes"),
    ],
)
def test_the_dice_off_decides_who_substitutes(
    faces: tuple[int, ...], substituted: bool, note: str
) -> None:
    p = ENGINE.prepare(deck_of(["Trip"] * 10, spares=["Sub1"]), {"mirror_match": "dice_off"})
    state = deal(p, Rigged(*faces))
    assert (state.substitution == SUB_DONE) is substituted
    assert state.note.startswith(note)
    assert state.apply(("start",)).startswith(note)


# --- measures ----------------------------------------------------------------------------------


def test_every_measure_is_present_even_when_zero() -> None:
    metrics = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=1, start=0, count=5)
    for key in measures.SUM_KEYS:
        assert key in metrics.sums, key
    counted = (
        measures.M_COMPLETE,
        measures.M_HIDDEN_USED,
        measures.M_DECK_OUT,
        measures.M_SUBSTITUTED,
        measures.M_CANNOT_SUBSTITUTE,
        measures.M_TURN_LIMIT,
        "mission_done:1",
        "mission_done:2",
    )
    for key in counted:
        assert key in metrics.counts, key
    assert {measures.M_TURNS, measures.M_ROUNDS, measures.M_DESTINY, measures.M_USED} <= set(
        metrics.histograms
    )


def test_a_recorded_game_gives_exact_measures() -> None:
    order = ["Fiend", "Exorcism", "Rock", "Rock", "Oth2", "Hero3", "Tea", "Rock", *FILLER]
    state = fresh(order, 4)
    play_policy(state, until=P_RESET)
    state.pos = len(state.deck)  # the deck is out: the next start ends the game
    play_policy(state, until=P_OVER)
    metrics = Metrics()
    ENGINE.record(state, metrics)
    assert metrics.sums["points_round:1"] == 45
    assert metrics.histograms["climax_turn:1"] == {1: 1}
    assert metrics.sums[measures.M_ATTEMPTED] == metrics.sums[measures.M_SUCCEEDED] == 1
    assert metrics.counts["mission_done:1"] == 1  # Exorcism is slay
    assert metrics.counts["mission_done:2"] == 0
    assert metrics.histograms[measures.M_ROUNDS] == {2: 1}  # round 2 decked out
    assert metrics.counts[measures.M_DECK_OUT] == 1


# --- the engine as a whole -----------------------------------------------------------------------

GOLDEN_PARAMS = [pytest.param(params, id=label) for label, _index, params in GOLDEN_GAMES]


@pytest.mark.parametrize("params", GOLDEN_PARAMS)
def test_the_fast_loop_plays_the_same_games_as_the_state_api(params: dict[str, Any]) -> None:
    prepared = ENGINE.prepare(GOLDEN_DECK, params)
    fast, slow, quiet = Metrics(), Metrics(), Metrics()
    for index in range(500):
        lines_fast: list[str] = []
        lines_slow: list[str] = []
        ENGINE.play(prepared, params, game_rng(5, index), fast, lines_fast)
        Engine.play(ENGINE, prepared, params, game_rng(5, index), slow, lines_slow)
        ENGINE.play(prepared, params, game_rng(5, index), quiet)
        assert lines_fast == lines_slow, index
    assert fast.to_json() == slow.to_json() == quiet.to_json()


@pytest.mark.parametrize("params", GOLDEN_PARAMS)
def test_random_play_outs_end_and_never_run_out_of_choices(params: dict[str, Any]) -> None:
    prepared = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(150):
        state = ENGINE.new_game(prepared, params, random.Random(seed))
        chooser = random.Random(seed + 1_000_000)
        for _step in range(10_000):
            if state.is_over():
                break
            actions = state.legal_actions()
            assert actions
            state.apply(chooser.choice(actions))
        else:
            pytest.fail(f"a random play-out did not end (seed {seed})")
        assert len(state.hand) <= 16 and state.turn <= 60


def test_a_copy_is_independent_of_its_original() -> None:
    prepared = ENGINE.prepare(GOLDEN_DECK, {})
    for seed in range(40):
        state = ENGINE.new_game(prepared, {}, random.Random(seed))
        for _ in range(6):
            if not state.is_over():
                state.apply(ENGINE.choose(state))
        before = copy.deepcopy(vars(state))
        twin = state.copy()
        while not twin.is_over():
            twin.apply(ENGINE.choose(twin))
        assert vars(state) == before
        # and the original, played on, plays the game the twin played
        rest = state.copy()
        while not rest.is_over():
            rest.apply(ENGINE.choose(rest))
        assert rest.round_points == twin.round_points and rest.turn == twin.turn


def test_a_game_is_determined_by_its_seed_whatever_the_global_rng() -> None:
    random.seed(1)
    first = [transcript_of(ENGINE, GOLDEN_DECK, {}, run_seed=99, index=i) for i in range(15)]
    random.seed(12345)
    random.random()
    again = [transcript_of(ENGINE, GOLDEN_DECK, {}, run_seed=99, index=i) for i in range(15)]
    assert first == again and len({tuple(t) for t in first}) > 1


def test_a_run_gives_the_same_metrics_however_it_is_split() -> None:
    whole = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=4, start=0, count=60)
    parts = [run_games(ENGINE, GOLDEN_DECK, {}, run_seed=4, start=s, count=20) for s in (0, 20, 40)]
    assert Metrics.merged(parts).to_json() == whole.to_json()


def test_the_golden_games_are_distinct_and_valid_and_reach_the_rare_rules() -> None:
    labels = [label for label, _index, _params in GOLDEN_GAMES]
    assert len(set(labels)) == len(labels) and 4 <= len(labels) <= 6
    seen: set[str] = set()
    for _label, index, params in GOLDEN_GAMES:
        ENGINE.params.clean(params)
        seen.update(transcript_of(ENGINE, GOLDEN_DECK, params, run_seed=20250601, index=index))
    text = "\n".join(seen)
    needles = (
        "grow Suiran",
        "place an immortal",
        "grow an immortal",
        "hidden success:",
        "no hidden success",
        "no check",
        "climax:",
        "take back",
        "substitute Hakuun",
        "(on ",
        "discard",
        "deck-out",
    )
    for needle in needles:
        assert needle in text, needle


def test_the_golden_deck_is_a_legal_size_and_has_every_card_kind() -> None:
    kinds = {c.card_type for c in GOLDEN_DECK.cards}
    assert kinds == {"protagonist", "mission", "character", "story", "climax"}
    assert GOLDEN_DECK.size >= 40  # ouka-fushin.md:35
    counts: dict[str, int] = {}
    for index, n in GOLDEN_DECK.zones["main"]:
        counts[GOLDEN_DECK.cards[index].code] = counts.get(GOLDEN_DECK.cards[index].code, 0) + n
    assert max(counts.values()) <= 3  # ouka-fushin.md:37


# --- the test-hand plan ----------------------------------------------------------------------


def test_the_hand_plan_says_what_the_policy_does_first() -> None:
    deck = deck_of(["Hero2", "Fiend", "Exorcism", "Valley", "Rock", "Oth1", *FILLER])
    index = {c.name: c.index for c in deck.cards}
    hand = [index[n] for n in ("Hero2", "Fiend", "Exorcism", "Valley", "Rock", "Oth1")]
    steps = hand_plan(deck, hand, {})
    assert [(s.values, s.cards) for s in steps] == [
        ({"count": 6}, ()),
        ({"protagonist": "Hero", "level": 2, "card": "Hero2"}, (index["Hero2"],)),
        # exploration 3 at destiny 2 against 6: needs 3, 4 faces of 6, 6 with a hidden success
        (
            {"card": "Fiend", "need": 3, "chance": 4, "hidden": 6, "points": 15},
            (index["Fiend"],),
        ),
        ({"card": "Exorcism"}, (index["Exorcism"],)),
        ({"cards": "Rock"}, (index["Rock"],)),
    ]
    for step in steps:
        assert in_english(step.text, step.values)  # every placeholder is filled


def test_the_hand_plan_names_missing_keywords_and_an_idle_hand() -> None:
    deck = deck_of(["King", "Valley", "Rock", "Rock", "Rock", "Rock", *FILLER])
    index = {c.name: c.index for c in deck.cards}
    steps = hand_plan(deck, [index[n] for n in ("King", "Valley", "Rock")], {})
    texts = [s.text for s in steps]
    assert "No character card to use in the immortal phase." in texts
    assert "No story can be played from this hand yet." in texts
    (missing,) = [s for s in steps if "still needs" in s.text]
    assert missing.values == {"card": "King", "keywords": "fiend/foe"}
