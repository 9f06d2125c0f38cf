"""The Mattsan goldfish engine (games/mattsan/engine.py) against the rules digest
shared/rules/mattsan.md and its seed: each rule at its boundary, with exact outcomes, on decks
built by hand; the fast loop against the state API; copies; determinism; random play-outs; the
golden games; the test-hand plan.

``InOrder`` is a generator whose deal leaves the deck as built, so a test decides exactly
which cards are drawn when: the first ``opening`` cards are the opening hand, then each turn
draws one and (by default) soul-charges the next one from the top of the deck."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.mattsan import engine as mattsan
from games.mattsan import metrics as measures
from games.mattsan.constants import ATTACK, END, PLACE, START, TRUMP
from games.mattsan.engine import ENGINE, hand_plan
from games.mattsan.golden import GOLDEN_DECK, GOLDEN_GAMES
from games.mattsan.prepared import MattsanPrepared
from games.mattsan.schedule import SCHEDULE
from games.mattsan.state import MattsanState
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.engine import Engine, run_games, transcript_of
from simulator.engine.i18n import in_english
from simulator.engine.metrics import Metrics
from simulator.engine.params import ParamErrors
from simulator.engine.rng import GameRng, game_rng

DIGEST = Path(__file__).resolve().parents[4] / "shared" / "rules" / "mattsan.md"


class InOrder(GameRng):
    """A rigged chance step: the deck stays in the order the test built it."""

    def __init__(self) -> None:
        super().__init__(0, 0)

    def order(self, size: int) -> list[int]:
        return list(range(size))


# --- building decks --------------------------------------------------------------------------

#: name -> (card type, attributes)
CARDS: dict[str, tuple[str, dict[str, Any]]] = {
    "Giant": ("unit", {"hp": 15, "soul": 6}),
    "Junker": ("unit", {"hp": 7, "soul": 2}),
    "Boss": ("unit", {"hp": 6, "soul": 2}),
    "Chief": ("unit", {"hp": 4, "soul": 1}),
    "Pika": ("unit", {"hp": 3, "soul": 1}),
    "Screw": ("unit", {"hp": 1, "soul": 0}),
    "Free": ("trump", {"cost": 0}),
    "Dash": ("trump", {"cost": 1}),
    "Sale": ("trump", {"cost": 2}),
    "Ray": ("trump", {"cost": 4}),
    "Peel": ("trap", {}),
    "Base": ("terrain", {"sideways": True}),
}


def deck_of(order: Sequence[str]) -> SimDeck:
    """The draw pile in exactly this order (top first), one zone line per copy."""
    names = sorted(set(order))
    cards = tuple(
        SimCard(i, name.lower(), name, CARDS[name][0], dict(CARDS[name][1]))
        for i, name in enumerate(names)
    )
    index = {name: i for i, name in enumerate(names)}
    return SimDeck("mattsan", cards, {"main": tuple((index[n], 1) for n in order)}, "main")


def prepared(deck: SimDeck, **params: Any) -> MattsanPrepared:
    return ENGINE.prepare(deck, params)


def game(order: Sequence[str], **params: Any) -> MattsanState:
    return ENGINE.new_game(prepared(deck_of(order), **params), {}, InOrder())


def policy_game(order: Sequence[str], **params: Any) -> tuple[MattsanState, list[str]]:
    """The state API played by the policy to the end: the final state and the transcript."""
    state = game(order, **params)
    lines = []
    while not state.is_over():
        lines.append(state.apply(ENGINE.choose(state)))
    return state, lines


def fast_game(order: Sequence[str], **params: Any) -> tuple[list[str], Metrics]:
    """The fast loop's game with the deck as built: its transcript and metrics."""
    lines: list[str] = []
    metrics = Metrics()
    ENGINE.play(prepared(deck_of(order), **params), {}, InOrder(), metrics, lines)
    return lines, metrics


def names(state: MattsanState, cards: Sequence[int]) -> list[str]:
    return [state.prepared.names[c] for c in cards]


def card(state: MattsanState, name: str) -> int:
    return state.prepared.names.index(name)


def start(state: MattsanState) -> str:
    assert state.legal_actions() == [(START, -1)]
    return state.apply((START, -1))


FILLER = ["Peel"] * 20  # dead cards that keep a deck from running out


# --- the module, parameters, citations --------------------------------------------------------


def test_the_opening_hand_default_is_the_schedules_and_the_game_draws_from_turn_1() -> None:
    assert SCHEDULE.opening == 5
    assert ENGINE.params.defaults["opening"] == SCHEDULE.opening
    assert ENGINE.schedule is SCHEDULE and SCHEDULE.draws_on_first_turn
    assert ENGINE.slug == "mattsan" and mattsan.GAME_SLUG == "mattsan"


def test_every_assumption_parameter_says_so_and_assumptions_are_listed() -> None:
    assumed = {
        "opening",
        "soul_charge",
        "soul_charge_from",
        "soul_untaps",
        "soul_draw",
        "attack_damage",
        "trump_damage",
        "trump_target",
        "opening_without_unit",
    }
    for param in ENGINE.params.params:
        if param.name in assumed:
            assert "assumption" in param.label.lower(), param.name
            assert "assumption" in param.help.lower(), param.name
        assert param.label and param.help
        assert param.minimum is not None or param.kind in ("bool", "choice")
    assert len(mattsan.ASSUMPTIONS) >= 5
    assert all(isinstance(text, str) and text for text in mattsan.ASSUMPTIONS)


def test_the_defaults() -> None:
    assert ENGINE.params.defaults == {
        "opening": 5,
        "soul_charge": 1,
        "soul_charge_from": "deck",
        "soul_untaps": True,
        "soul_draw": 1,
        "attack_damage": 3,
        "trump_damage": 0,
        "trump_target": "battlefield",
        "dummy_hp_1": 6,
        "dummy_hp_2": 6,
        "dummy_hp_3": 6,
        "dummy_hp_4": 0,
        "dummy_soul": 2,
        "dummy_deck": 20,
        "dummy_damage": 0,
        "opening_without_unit": "lose",
        "unit_order": "highest_hp",
        "fill_bench": True,
        "replace_from": "bench",
        "max_turns": 30,
    }


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("opening", 0, False),
        ("opening", 1, True),
        ("opening", 10, True),
        ("opening", 11, False),
        ("soul_charge", -1, False),
        ("soul_charge", 0, True),
        ("soul_charge", 3, True),
        ("soul_charge", 4, False),
        ("attack_damage", 0, False),
        ("attack_damage", 30, True),
        ("dummy_hp_1", 0, False),  # the dummy always has a battlefield unit
        ("dummy_hp_2", 0, True),  # an empty bench slot
        ("dummy_hp_4", 100, False),
        ("dummy_deck", 0, True),
        ("dummy_deck", 61, False),
        ("max_turns", 0, False),
        ("max_turns", 60, True),
        ("trump_target", "whole_field", True),
        ("trump_target", "everything", False),
        ("soul_charge_from", "discard", False),
        ("mulligan", True, False),  # no such parameter
    ],
)
def test_parameters_are_checked_at_their_bounds(name: str, value: Any, ok: bool) -> None:
    if ok:
        assert ENGINE.params.clean({name: value})[name] == value
    else:
        with pytest.raises(ParamErrors) as caught:
            ENGINE.params.clean({name: value})
        assert name in caught.value.errors


def test_the_engine_cites_real_digest_lines_each_applied_in_a_commented_place() -> None:
    cited = sorted(int(c.split(":")[1]) for c in ENGINE.cites)
    # turn, zones, win/loss, unpublished numbers, placing, damage processing, the goldfish
    expected = [12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 27]
    expected += [30, 31, 32, 33, 34, 35, 36, 37, 54, 55]
    assert cited == expected
    assert all(c.startswith("mattsan.md:") for c in ENGINE.cites)
    # the engine's modules, each citing the lines it applies
    package = Path(mattsan.__file__).parent
    modules = ("engine", "constants", "prepared", "state", "metrics", "plan")
    source = "".join((package / f"{name}.py").read_text(encoding="utf-8") for name in modules)
    mentioned: set[int] = set()
    for first, last in re.findall(r"mattsan\.md:(\d+)(?:-(\d+))?", source):
        mentioned.update(range(int(first), int(last or first) + 1))
    assert set(cited) <= mentioned
    if not DIGEST.exists():
        pytest.skip("the rules digest is not beside the checkout")
    lines = DIGEST.read_text(encoding="utf-8").splitlines()
    for cite in ENGINE.cites:
        assert lines[int(cite.split(":")[1]) - 1].strip(), cite


def test_what_is_not_modelled_is_listed() -> None:
    listed = " ".join(ENGINE.not_modelled).lower()
    for topic in ("special", "trap", "terrain", "face-down", "counter", "dice", "bench"):
        assert topic in listed, topic


def test_a_deck_without_cards_or_without_units_cannot_be_simulated() -> None:
    empty = SimDeck("mattsan", (), {}, "main")
    assert ENGINE.deck_problems(empty) == ["The deck has no cards to draw."]
    (problem,) = ENGINE.deck_problems(deck_of(["Peel", "Free"]))
    assert "no unit" in problem
    with pytest.raises(ValueError, match="no unit"):
        ENGINE.prepare(deck_of(["Peel", "Free"]), {})
    assert ENGINE.deck_problems(deck_of(["Screw"])) == []


# --- the turn: draw and soul charge (mattsan.md:19, 15-16, 22) ---------------------------------


def test_the_opening_hand_then_a_draw_and_a_soul_charge_from_the_top_of_the_deck() -> None:
    order = ["Boss", "Peel", "Peel", "Peel", "Peel", "Chief", "Sale", *FILLER]
    state = game(order)
    assert names(state, state.hand) == ["Boss", "Peel", "Peel", "Peel", "Peel"]
    assert state.drawn == 5
    line = start(state)
    # turn 1 draws (mattsan.md:19) the 6th card, then soul-charges the 7th
    assert names(state, state.hand) == ["Boss", "Peel", "Peel", "Peel", "Peel", "Chief"]
    assert (state.soul, state.spent, state.pos, state.drawn) == (1, 0, 7, 6)
    assert line == (
        "T1 draw Chief; soul charge Sale (soul 1/1) | hand: Boss, Peel, Peel, Peel, Peel, Chief"
    )


@pytest.mark.parametrize(
    ("params", "hand_after", "soul"),
    [
        ({}, ["Boss", "Peel", "Chief"], 1),
        ({"soul_charge": 0}, ["Boss", "Peel", "Chief"], 0),
        ({"soul_charge": 2}, ["Boss", "Peel", "Chief"], 2),
        ({"opening": 1}, ["Boss", "Peel"], 1),
    ],
)
def test_opening_size_and_soul_charge_amount_are_parameters(
    params: dict[str, Any], hand_after: list[str], soul: int
) -> None:
    state = game(["Boss", "Peel", "Chief", "Sale", "Dash", *FILLER], **{"opening": 2, **params})
    start(state)
    assert names(state, state.hand) == hand_after
    assert state.soul == soul


def test_soul_charge_from_an_empty_deck_does_nothing_and_does_not_lose() -> None:
    # 5 in hand + the turn-1 draw: the deck is empty when soul charge comes
    state = game(["Boss", "Peel", "Peel", "Peel", "Peel", "Chief"])
    start(state)
    assert (state.soul, state.is_over(), state.pos) == (0, False, 6)


@pytest.mark.parametrize(
    ("hand", "charged"),
    [
        # traps and terrain first (never played here), in the deck's card order
        (["Boss", "Ray", "Peel", "Base", "Free"], ["Base"]),
        # then the most expensive trump
        (["Boss", "Dash", "Ray", "Sale", "Chief"], ["Ray"]),
        # never a unit
        (["Boss", "Chief", "Pika", "Screw", "Giant"], []),
    ],
)
def test_soul_charge_from_hand_spends_the_least_useful_card(
    hand: list[str], charged: list[str]
) -> None:
    # the turn-1 draw is a unit, so the hand's own cards decide
    state = game([*hand, "Junker", *FILLER], soul_charge_from="hand")
    line = start(state)
    assert state.soul == len(charged)
    remaining = [*hand, "Junker"]
    for name in charged:
        remaining.remove(name)
        assert f"soul charge {name}" in line
    assert sorted(names(state, state.hand)) == sorted(remaining)


def test_two_charges_from_hand_take_two_cards_in_the_policys_order() -> None:
    state = game(["Boss", "Sale", "Peel", "Dash", "Ray", "Chief", *FILLER], soul_charge=2)
    start(state)
    assert state.soul == 2 and names(state, state.hand)[-1] == "Chief"  # from the deck here
    state = game(
        ["Boss", "Sale", "Peel", "Dash", "Ray", "Chief", *FILLER],
        soul_charge=2,
        soul_charge_from="hand",
    )
    line = start(state)
    assert "soul charge Peel, Ray" in line
    assert sorted(names(state, state.hand)) == ["Boss", "Chief", "Dash", "Sale"]


@pytest.mark.parametrize(("untaps", "free_on_turn_2"), [(True, 2), (False, 1)])
def test_spent_soul_stands_up_at_the_next_turn_only_when_soul_untaps(
    untaps: bool, free_on_turn_2: int
) -> None:
    # turn 1: soul 1, cast Dash (cost 1); turn 2: soul 2, of which 1 still spent if no untap
    order = ["Boss", "Dash", "Peel", "Peel", "Peel", "Peel", "Base", "Peel", "Base", *FILLER]
    state = game(order, soul_untaps=untaps)
    start(state)
    state.apply((PLACE, card(state, "Boss")))
    assert (TRUMP, card(state, "Dash")) in state.legal_actions()
    state.apply((TRUMP, card(state, "Dash")))
    assert (state.soul, state.spent) == (1, 1)
    state.apply((ATTACK, -1))
    start(state)
    assert state.soul - state.spent == free_on_turn_2


@pytest.mark.parametrize(
    ("soul_ready", "castable"), [(1, ["Dash", "Free"]), (2, ["Dash", "Free", "Sale"])]
)
def test_a_trump_is_castable_only_when_its_cost_in_soul_is_ready(
    soul_ready: int, castable: list[str]
) -> None:  # mattsan.md:15-16
    state = game(["Boss", "Free", "Dash", "Sale", "Ray", "Peel", *FILLER], soul_charge=soul_ready)
    start(state)
    state.apply((PLACE, card(state, "Boss")))
    trumps = sorted(state.prepared.names[c] for kind, c in state.legal_actions() if kind == TRUMP)
    assert trumps == castable


# --- placing (mattsan.md:13-14, 27) -----------------------------------------------------------


def test_the_first_unit_goes_to_the_battlefield_then_three_to_the_bench_and_no_more() -> None:
    order = ["Screw", "Chief", "Pika", "Boss", "Junker", "Peel", "Peel", *FILLER]
    state = game(order)
    start(state)
    # an empty battlefield must be filled first: only placements are legal
    assert {kind for kind, _c in state.legal_actions()} == {PLACE}
    state.apply((PLACE, card(state, "Screw")))
    assert (state.field, state.field_hp) == (card(state, "Screw"), 1)
    for name in ("Chief", "Pika", "Boss"):
        assert (PLACE, card(state, name)) in state.legal_actions()
        state.apply((PLACE, card(state, name)))
    assert names(state, state.bench) == ["Chief", "Pika", "Boss"]
    # the bench holds 3 (mattsan.md:14): Junker stays in hand
    assert all(kind != PLACE for kind, _c in state.legal_actions())
    assert state.legal_actions() == [(ATTACK, -1)]


@pytest.mark.parametrize(
    ("order", "battlefield", "bench"),
    [
        ("highest_hp", "Junker", ["Boss", "Chief", "Pika"]),
        ("lowest_hp", "Screw", ["Pika", "Chief", "Boss"]),
    ],
)
def test_the_policy_places_units_in_its_order(
    order: str, battlefield: str, bench: list[str]
) -> None:
    state = game(
        ["Chief", "Screw", "Junker", "Pika", "Boss", "Peel", "Peel", *FILLER], unit_order=order
    )
    start(state)
    while True:
        action = ENGINE.choose(state)
        if action[0] != PLACE:
            break
        state.apply(action)
    assert state.prepared.names[state.field] == battlefield
    assert names(state, state.bench) == bench


def test_without_fill_bench_the_policy_keeps_reserves_in_hand() -> None:
    state = game(
        ["Chief", "Boss", "Peel", "Peel", "Peel", "Peel", "Peel", *FILLER], fill_bench=False
    )
    start(state)
    state.apply(ENGINE.choose(state))
    assert ENGINE.choose(state) == (ATTACK, -1)
    assert state.bench == [] and names(state, state.hand).count("Chief") == 1


# --- a turn with no unit to place (mattsan.md:17) --------------------------------------------


def test_an_opening_without_a_unit_loses_at_turn_1_by_default() -> None:
    order = ["Peel", "Peel", "Free", "Peel", "Base", "Sale", "Peel", "Boss", *FILLER]
    state, lines = policy_game(order)
    assert state.outcome == measures.M_LOSS_NO_UNIT and state.turn == 1
    assert lines == [
        "T1 draw Sale; soul charge Peel (soul 1/1) → no unit to put on the battlefield: LOSS"
    ]
    fast_lines, metrics = fast_game(order)
    assert fast_lines == lines
    assert metrics.counts[measures.M_LOSS_NO_UNIT] == 1
    assert metrics.histograms[measures.M_NO_UNIT_TURN] == {1: 1}
    assert metrics.counts["no_unit_in_hand:01"] == 1


def test_an_opening_without_a_unit_waits_and_cannot_attack_when_told_to_wait() -> None:
    order = ["Peel", "Peel", "Free", "Peel", "Base", "Sale", "Peel", "Boss", "Peel", *FILLER]
    state = game(order, opening_without_unit="wait")
    start(state)
    assert not state.is_over()
    # no unit: the turn can cast trumps and end, never attack
    assert state.legal_actions() == [(TRUMP, card(state, "Free")), (END, -1)]
    state.apply((TRUMP, card(state, "Free")))
    line = state.apply(ENGINE.choose(state))
    assert line == "T1 end the turn: no unit on the battlefield | dummy draws (deck 19)"
    assert state.d_hp == [6, 6, 6]
    start(state)  # turn 2 draws Boss
    assert state.legal_actions() == [(PLACE, card(state, "Boss"))]
    state.apply((PLACE, card(state, "Boss")))
    state.apply((ATTACK, -1))
    assert state.d_hp == [3, 6, 6] and state.no_unit_turns == [1]


def test_a_later_turn_with_no_unit_in_hand_is_counted_and_the_unit_in_play_attacks() -> None:
    order = [
        "Boss",
        "Peel",
        "Peel",
        "Peel",
        "Peel",
        "Peel",
        "Peel",
        "Peel",
        "Peel",
        "Chief",
        *FILLER,
    ]
    state, _lines = policy_game(order, max_turns=3)
    # turn 1 has Boss to place; turn 2 draws and charges Peels: no unit to place, yet Boss
    # stands and attacks; turn 3 draws Chief (the 10th card)
    assert state.outcome == measures.M_TURN_LIMIT
    assert state.no_unit_turns == [2]
    assert state.d_hp == [3, 6] and state.dummy_defeated == 1


# --- the damage processing (mattsan.md:30-32, 37) -------------------------------------------


@pytest.mark.parametrize(
    ("hp", "attacks", "left", "defeated"),
    [
        (6, 2, [6, 6], 1),  # 6 - 3 - 3 = 0: defeated at exactly 0 (mattsan.md:37)
        (7, 2, [1, 6, 6], 0),  # 1 HP left: still standing
        (5, 2, [6, 6], 1),  # -1: defeated too
    ],
)
def test_a_unit_at_0_hp_or_less_is_defeated(
    hp: int, attacks: int, left: list[int], defeated: int
) -> None:
    state = game(["Boss", *FILLER], dummy_hp_1=hp)
    for _ in range(attacks):
        start(state)
        while ENGINE.choose(state)[0] != ATTACK:
            state.apply(ENGINE.choose(state))
        state.apply((ATTACK, -1))
    assert state.d_hp == left and state.dummy_defeated == defeated


def test_a_defeat_runs_soul_draw_then_re_placing() -> None:  # mattsan.md:30-31
    state = game(["Boss", *FILLER], dummy_hp_1=3, dummy_hp_2=5, dummy_soul=3, soul_draw=2)
    start(state)
    state.apply((PLACE, card(state, "Boss")))
    line = state.apply((ATTACK, -1))
    assert line == (
        "T1 attack with Boss: 3 damage to D1 3→0; defeated: D1; dummy soul draw 6 (deck 14); "
        "D2 onto the battlefield (HP 5) | dummy draws (deck 13)"
    )
    assert (state.d_ids, state.d_hp, state.d_deck) == ([2, 3], [5, 6], 13)


def test_the_whole_line_up_falls_on_the_turn_recorded() -> None:
    # 6 + 6 + 6 HP at 3 damage an attack: 6 attacks, one a turn
    state, lines = policy_game(["Boss", *FILLER])
    assert state.outcome == measures.M_WIN_LINE_UP and state.turn == 6
    assert lines[-1].endswith("→ WIN (the dummy line-up is defeated, turn 6)")
    _fast, metrics = fast_game(["Boss", *FILLER])
    assert metrics.histograms[measures.M_DEFEAT_TURN] == {6: 1}
    assert metrics.sums[measures.M_DUMMY_DEFEATED] == 3


@pytest.mark.parametrize(
    ("line_up", "damage", "turn"),
    [
        ((6, 0, 0, 0), 3, 2),
        ((6, 6, 6, 6), 3, 8),
        ((10, 1, 0, 0), 4, 4),  # 3 attacks for 10 HP, 1 for the bench unit: overkill is lost
        ((99, 0, 0, 0), 30, 4),
    ],
)
def test_turns_to_defeat_a_line_up(line_up: tuple[int, ...], damage: int, turn: int) -> None:
    hps = {f"dummy_hp_{i}": hp for i, hp in enumerate(line_up, start=1)}
    state, _lines = policy_game(["Boss", *FILLER, *FILLER], attack_damage=damage, **hps)
    assert (state.outcome, state.turn) == (measures.M_WIN_LINE_UP, turn)


# --- soul draws and the deck (mattsan.md:17-18, 31; seed:340) --------------------------------

#: opening 5 + turn 1 (draw, charge) + turn 2 (draw, charge) = 9 cards before the soul draw
BEFORE_SOUL_DRAW = ["Boss", "Chief", "Peel", "Peel", "Peel", "Peel", "Peel", "Peel", "Peel"]
HITS_BACK = {"dummy_damage": 4, "dummy_hp_1": 40, "dummy_deck": 60}


@pytest.mark.parametrize(
    ("after", "outcome", "turn", "soul_drawn"),
    [
        # Boss (soul 2) falls at the dummy's turn 2; the deck holds exactly 2: the soul draw
        # empties it without losing, turn 3's draw finds it empty and loses
        (["Peel", "Peel"], measures.M_LOSS_DECK_OUT, 3, 2),
        # only 1 card for a soul draw of 2: the second draw finds the deck empty at once
        (["Peel"], measures.M_LOSS_DECK_OUT, 2, 1),
        # 3 cards: turn 3 draws the last one; the dummy then defeats Chief (soul 1), whose
        # soul draw finds the deck empty
        (["Peel", "Peel", "Peel"], measures.M_LOSS_DECK_OUT, 3, 2),
    ],
)
def test_a_soul_draw_that_empties_the_deck(
    after: list[str], outcome: str, turn: int, soul_drawn: int
) -> None:
    order = [*BEFORE_SOUL_DRAW, *after]
    state, lines = policy_game(order, **HITS_BACK)
    assert (state.outcome, state.turn, state.soul_drawn) == (outcome, turn, soul_drawn)
    assert sum("Boss 2→0; defeated: Boss; our soul draw 2: " in line for line in lines) == 1
    fast_lines, metrics = fast_game(order, **HITS_BACK)
    assert fast_lines == lines
    assert metrics.histograms[measures.M_DECK_OUT_TURN] == {turn: 1}
    assert metrics.counts[measures.M_LOSS_DECK_OUT] == 1


def test_a_draw_from_an_empty_deck_at_the_turn_start_loses() -> None:
    order = ["Boss", "Peel", "Peel", "Peel", "Peel", "Peel", "Peel", "Peel"]
    state, lines = policy_game(order)
    # turn 1 draws the 6th card and charges the 7th; turn 2 draws the 8th; turn 3 finds none
    assert (state.outcome, state.turn) == (measures.M_LOSS_DECK_OUT, 3)
    assert lines[-1] == "T3 draw: the deck is empty → LOSS (deck-out)"


@pytest.mark.parametrize(
    ("replace_from", "battlefield", "bench", "units_in_hand"),
    [("bench", "Chief", [], ["Pika"]), ("hand", "Pika", ["Chief"], [])],
)
def test_re_placing_takes_from_the_bench_or_the_hand_first(
    replace_from: str, battlefield: str, bench: list[str], units_in_hand: list[str]
) -> None:
    # Boss on the battlefield, Chief on the bench; the soul draw for Boss brings Pika
    order = ["Boss", "Chief", "Peel", "Peel", "Peel", "Peel", "Peel", "Pika", "Peel", *FILLER]
    state = game(order, replace_from=replace_from, dummy_damage=6, dummy_hp_1=40)
    start(state)
    state.apply((PLACE, card(state, "Boss")))
    state.apply((PLACE, card(state, "Chief")))
    state.apply((ATTACK, -1))  # the dummy hits Boss for 6: defeated, soul draw 2, re-placing
    assert state.prepared.names[state.field] == battlefield
    assert names(state, state.bench) == bench
    assert [n for n in names(state, state.hand) if n != "Peel"] == units_in_hand


def test_no_unit_to_re_place_loses() -> None:  # mattsan.md:17
    order = ["Screw", "Peel", "Peel", "Peel", "Peel", "Peel", "Peel", *FILLER]
    state, lines = policy_game(order, dummy_damage=1, dummy_hp_1=40)
    assert (state.outcome, state.turn) == (measures.M_LOSS_NO_UNIT, 1)
    assert lines[-1].endswith(
        "| dummy draws (deck 19) and attacks Screw: 1 damage to Screw 1→0; defeated: Screw"
        " → LOSS (no unit to put on the battlefield)"
    )
    _fast, metrics = fast_game(order, dummy_damage=1, dummy_hp_1=40)
    assert metrics.histograms[measures.M_NO_UNIT_TURN] == {1: 1}
    assert metrics.sums[measures.M_SOUL_DRAWN] == 0  # Screw has soul 0: no soul draw


@pytest.mark.parametrize(
    ("dummy_deck", "outcome", "turn", "line_end"),
    [
        # its soul draw (2) empties its deck exactly: no loss; its turn's draw then loses
        (3, measures.M_WIN_DECK_OUT, 2, "| dummy draw: its deck is empty → WIN (dummy deck-out)"),
        # a soul draw of 2 from 1 card: it loses at once
        (
            2,
            measures.M_WIN_DECK_OUT,
            2,
            "dummy soul draw 2: deck-out; D2 onto the battlefield "
            "(HP 6) → WIN (dummy deck-out, turn 2)",
        ),
        (4, measures.M_WIN_DECK_OUT, 3, "| dummy draw: its deck is empty → WIN (dummy deck-out)"),
    ],
)
def test_the_dummy_loses_when_it_must_draw_from_its_empty_deck(
    dummy_deck: int, outcome: str, turn: int, line_end: str
) -> None:
    state, lines = policy_game(["Boss", *FILLER], dummy_deck=dummy_deck)
    assert (state.outcome, state.turn) == (outcome, turn)
    assert lines[-1].endswith(line_end)


# --- simultaneous damage (mattsan.md:33-36; seed:497-505) -----------------------------------

WHOLE = {
    "trump_damage": 6,
    "trump_target": "whole_field",
    "dummy_hp_1": 3,
    "dummy_hp_2": 6,
    "dummy_hp_3": 3,
}
#: Boss to the battlefield, Pika to the bench, Free cast at turn 1 (cost 0)
WHOLE_OPENING = ["Boss", "Pika", "Free", "Peel", "Peel", "Peel", "Base"]


@pytest.mark.parametrize(
    ("soul_drawn", "outcome", "simultaneous", "tail"),
    [
        # our soul draw brings a unit: we re-place, the dummy cannot: we win
        (
            ["Chief", "Peel", "Peel"],
            measures.M_WIN_LINE_UP,
            False,
            "; Chief from the hand onto the battlefield (HP 4)"
            " → WIN (the dummy line-up is defeated, turn 1)",
        ),
        # no unit for either: both meet a loss condition, the originator (we) loses
        (
            ["Peel", "Peel", "Peel"],
            measures.M_LOSS_NO_UNIT,
            True,
            " → both players meet a loss condition: the originator loses"
            " → LOSS (no unit to put on the battlefield)",
        ),
    ],
)
def test_simultaneous_defeats_in_the_seeds_order(
    soul_drawn: list[str], outcome: str, simultaneous: bool, tail: str
) -> None:
    order = [*WHOLE_OPENING, *soul_drawn, *FILLER]
    state, lines = policy_game(order, **WHOLE)
    cast = next(line for line in lines if "cast Free" in line)
    assert cast == (
        "T1 cast Free (cost 0, soul 1/1): 6 damage to D1 3→0, D2 6→0, D3 3→0, Boss 6→0, "
        "Pika 3→0"
        # defeats one by one: enemy battlefield, own battlefield, then the benches alternating
        "; defeated: D1, Boss, D2, Pika, D3"
        # soul draws together, ours first (we started it): Boss 2 + Pika 1; the dummy 3 × 2
        f"; our soul draw 3: {', '.join(soul_drawn)}; dummy soul draw 6 (deck 14)" + tail
    )
    assert (state.outcome, state.simultaneous, state.turn) == (outcome, simultaneous, 1)
    assert state.dummy_defeated == 3 and state.soul_drawn == 3
    fast_lines, metrics = fast_game(order, **WHOLE)
    assert fast_lines == lines
    assert metrics.counts[measures.M_SIMULTANEOUS] == int(simultaneous)


def test_both_decking_out_at_once_loses_the_originator() -> None:
    # our soul draw of 3 finds 2 cards; the dummy's of 6 finds 5: both deck out, we lose
    order = [*WHOLE_OPENING, "Peel", "Peel"]
    state, lines = policy_game(order, dummy_deck=5, **WHOLE)
    assert (state.outcome, state.simultaneous) == (measures.M_LOSS_DECK_OUT, True)
    assert "our soul draw 3: Peel, Peel: deck-out; dummy soul draw 6: deck-out" in lines[-1]


def test_a_field_wide_trump_on_the_dummy_alone_defeats_its_units_together() -> None:
    params = {"trump_damage": 6, "trump_target": "enemy_field", "dummy_hp_4": 2}
    state, lines = policy_game(["Boss", "Free", *FILLER], **params)
    assert (state.outcome, state.turn) == (measures.M_WIN_LINE_UP, 1)
    assert "; defeated: D1, D2, D3, D4; dummy soul draw 8 (deck 12)" in lines[-1]
    assert state.field_hp == 6  # our units are not hit


def test_the_dummys_attack_runs_the_damage_processing_on_our_side() -> None:
    # the dummy's attack defeats our battlefield unit: our soul draw, then Chief steps up
    order = ["Boss", "Chief", "Peel", "Peel", "Peel", "Peel", "Peel", *FILLER]
    state = game(order, dummy_damage=6, dummy_hp_1=40)
    start(state)
    state.apply((PLACE, card(state, "Boss")))
    state.apply((PLACE, card(state, "Chief")))
    line = state.apply((ATTACK, -1))
    assert line == (
        "T1 attack with Boss: 3 damage to D1 40→37 | dummy draws (deck 19) and attacks Boss: "
        "6 damage to Boss 6→0; defeated: Boss; our soul draw 2: Peel, Peel; "
        "Chief from the bench onto the battlefield (HP 4)"
    )
    assert state.bench == [] and state.soul_drawn == 2 and not state.is_over()


# --- the turn limit and the measures ------------------------------------------------------


def test_a_game_still_going_at_the_turn_limit_is_unfinished() -> None:
    state, lines = policy_game(["Boss", *FILLER], max_turns=2)
    assert (state.outcome, state.turn) == (measures.M_TURN_LIMIT, 2)
    assert lines[-1] == (
        "T2 attack with Boss: 3 damage to D1 3→0; defeated: D1; dummy soul draw 2 (deck 17); "
        "D2 onto the battlefield (HP 6) → turn limit (2)"
    )


def test_per_turn_measures_are_kept_after_the_end_and_every_name_is_present() -> None:
    # Free (0) at turn 1, Dash (1) at turn 2; the game ends at turn 6 (6+6+6 HP, 3 a turn)
    order = ["Boss", "Free", "Peel", "Peel", "Peel", "Peel", "Peel", "Dash", *FILLER]
    _lines, metrics = fast_game(order, max_turns=8)
    sums, counts = metrics.sums, metrics.counts
    assert [sums[f"soul_by_turn:{t:02d}"] for t in range(1, 9)] == [1, 2, 3, 4, 5, 6, 6, 6]
    assert [sums[f"trumps_cast_by_turn:{t:02d}"] for t in range(1, 9)] == [1, 2, 2, 2, 2, 2, 2, 2]
    assert [counts[f"trump_cast_by_turn:{t:02d}"] for t in range(1, 9)] == [1] * 8
    assert metrics.histograms[measures.M_FIRST_TRUMP] == {1: 1}
    assert sums[measures.M_DRAWN] == 11  # 5 + one draw for each of 6 turns
    for name in (*measures.OUTCOMES, measures.M_SIMULTANEOUS):
        assert name in counts
    for name in (measures.M_DUMMY_DEFEATED, measures.M_DRAWN, measures.M_SOUL_DRAWN):
        assert name in sums
    assert counts[measures.M_WIN_LINE_UP] == 1 and counts[measures.M_LOSS_DECK_OUT] == 0


def test_no_unit_in_hand_by_turn_counts_only_turns_played() -> None:
    order = ["Boss", "Peel", "Peel", "Peel", "Peel", "Peel", "Peel", "Chief", *FILLER]
    state, _lines = policy_game(order, max_turns=3)
    # turn 1: Boss in hand; turn 2 draws Chief (the 8th card): a unit; turn 3: none
    assert state.no_unit_turns == [3]
    _fast, metrics = fast_game(order, max_turns=3)
    assert {k: v for k, v in metrics.counts.items() if k.startswith("no_unit")} == {
        "no_unit_in_hand:03": 1
    }


def test_an_illegal_action_is_refused() -> None:
    state = game(["Boss", *FILLER])
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply((ATTACK, -1))
    start(state)
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply((TRUMP, card(state, "Peel")))
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply((ATTACK, -1))  # the battlefield must be filled first


# --- the fast loop, copies, determinism, play-outs -------------------------------------------

PARAM_SETS = [
    pytest.param({}, id="defaults"),
    pytest.param({"dummy_damage": 5, "dummy_hp_4": 9, "soul_draw": 2}, id="hits-back"),
    pytest.param(
        {"trump_damage": 3, "trump_target": "whole_field", "replace_from": "hand"}, id="whole"
    ),
    pytest.param(
        {
            "soul_charge_from": "hand",
            "soul_untaps": False,
            "opening_without_unit": "wait",
            "unit_order": "lowest_hp",
            "opening": 2,
            "fill_bench": False,
            "dummy_deck": 4,
        },
        id="hand-wait",
    ),
]


@pytest.mark.parametrize("params", PARAM_SETS)
def test_the_fast_loop_plays_the_same_games_as_the_state_api_for_500_seeds(
    params: dict[str, Any],
) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, params)
    clean = ENGINE.params.clean(params)
    fast_all, slow_all = Metrics(), Metrics()
    for seed in range(500):
        fast, slow = Metrics(), Metrics()
        fast_lines: list[str] = []
        slow_lines: list[str] = []
        ENGINE.play(p, clean, game_rng(7, seed), fast, fast_lines)
        Engine.play(ENGINE, p, clean, game_rng(7, seed), slow, slow_lines)
        assert fast_lines == slow_lines, f"seed {seed}"
        assert fast.to_json() == slow.to_json(), f"seed {seed}"
        fast_all.merge(fast)
        slow_all.merge(slow)
    assert fast_all.to_json() == slow_all.to_json()


def test_the_fast_loop_without_a_transcript_records_the_same_metrics() -> None:
    p = ENGINE.prepare(GOLDEN_DECK, {"dummy_damage": 4})
    quiet, loud = Metrics(), Metrics()
    for seed in range(200):
        ENGINE.play(p, {}, game_rng(3, seed), quiet)
        ENGINE.play(p, {}, game_rng(3, seed), loud, [])
    assert quiet.to_json() == loud.to_json()


@pytest.mark.parametrize("params", PARAM_SETS)
def test_a_copy_is_independent_and_plays_on_the_same(params: dict[str, Any]) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(40):
        state = ENGINE.new_game(p, {}, game_rng(13, seed))
        for _ in range(6):
            if not state.is_over():
                state.apply(ENGINE.choose(state))
        before = copy.deepcopy({k: v for k, v in vars(state).items() if k != "prepared"})
        twin = state.copy()
        twin_lines = []
        while not twin.is_over():
            twin_lines.append(twin.apply(ENGINE.choose(twin)))
        after = {k: v for k, v in vars(state).items() if k != "prepared"}
        assert after == before, f"playing a copy changed the original (seed {seed})"
        again = []
        while not state.is_over():
            again.append(state.apply(ENGINE.choose(state)))
        assert again == twin_lines


def test_the_same_seed_gives_the_same_game_whatever_the_global_rng() -> None:
    params = ENGINE.params.clean({"dummy_damage": 3})
    random.seed(1)
    first = [transcript_of(ENGINE, GOLDEN_DECK, params, run_seed=5, index=i) for i in range(20)]
    random.seed(999)
    random.random()
    again = [transcript_of(ENGINE, GOLDEN_DECK, params, run_seed=5, index=i) for i in range(20)]
    assert first == again
    assert len({tuple(t) for t in first}) > 1


def test_a_run_gives_the_same_metrics_however_it_is_split() -> None:
    whole = run_games(ENGINE, GOLDEN_DECK, {}, run_seed=11, start=0, count=300)
    parts = Metrics.merged(
        run_games(ENGINE, GOLDEN_DECK, {}, run_seed=11, start=s, count=100) for s in (200, 0, 100)
    )
    assert whole.to_json() == parts.to_json()


@pytest.mark.parametrize("params", PARAM_SETS)
def test_random_play_outs_end_and_never_run_out_of_choices(params: dict[str, Any]) -> None:
    p = ENGINE.prepare(GOLDEN_DECK, params)
    for seed in range(150):
        state = ENGINE.new_game(p, {}, game_rng(13, seed))
        chooser = random.Random(seed + 10_000)
        for _step in range(5_000):
            if state.is_over():
                break
            actions = state.legal_actions()
            assert actions, f"no legal action before the end (seed {seed})"
            state.apply(chooser.choice(actions))
        else:
            pytest.fail(f"a random play-out did not end (seed {seed})")
        assert state.outcome in measures.OUTCOMES
        ENGINE.record(state, Metrics())


# --- the golden games ----------------------------------------------------------------------


def test_the_golden_deck_is_30_cards_of_every_type() -> None:
    assert GOLDEN_DECK.size == 30  # mattsan.md:8
    kinds = {GOLDEN_DECK.cards[i].card_type for i in GOLDEN_DECK.pile()}
    assert kinds == {"unit", "trump", "trap", "terrain"}
    assert ENGINE.deck_problems(GOLDEN_DECK) == []


#: label -> what its transcript must show (the rare rule it is there for)
GOLDEN_REACHES = {
    "game0": ["WIN (the dummy line-up is defeated"],
    "no_bench_game1": ["from the hand onto the battlefield", "LOSS (no unit"],
    "hand_charge_wait_game2": ["end the turn: no unit on the battlefield", "soul 1/2"],
    "dummy_attacks_game3": ["our soul draw", "from the bench onto", "deck-out"],
    "whole_field_game4": [
        "defeated: D2, Iron-Arm Junker, D3, Tiny Screw Trooper, D4",
        "the originator loses",
    ],
    "dummy_deck_out_game5": ["dummy soul draw 3: deck-out", "WIN (dummy deck-out"],
}


def test_the_golden_games_reach_the_rules_they_are_kept_for() -> None:
    assert 4 <= len(GOLDEN_GAMES) <= 6
    assert {label for label, _i, _p in GOLDEN_GAMES} == set(GOLDEN_REACHES)
    from simulator.engine.golden import GOLDEN_RUN_SEED

    for label, index, params in GOLDEN_GAMES:
        lines = transcript_of(
            ENGINE, GOLDEN_DECK, ENGINE.params.clean(params), run_seed=GOLDEN_RUN_SEED, index=index
        )
        text = "\n".join(lines)
        for wanted in GOLDEN_REACHES[label]:
            assert wanted in text, (label, wanted)


# --- the test-hand plan --------------------------------------------------------------------


def _plan(hand: Sequence[str], **params: Any) -> list[str]:
    deck = deck_of(
        ["Giant", "Boss", "Chief", "Pika", "Screw", "Free", "Sale", "Ray", "Peel", "Base"]
    )
    index = {c.name: c.index for c in deck.cards}
    return [
        in_english(step.text, step.values)
        for step in hand_plan(deck, [index[n] for n in hand], params)
    ]


def test_hand_plan_says_what_the_policy_places_and_casts_first() -> None:
    assert _plan(["Chief", "Pika", "Boss", "Sale", "Peel"]) == [
        "Put Boss on the battlefield (HP 6): the unit with the most HP in hand.",
        "Put Chief, Pika on the bench (2 of 3 slots), reserves to re-place the battlefield unit.",
        "Cast Sale (cost 2) on turn 2 at the earliest, once enough soul charge stands ready.",
        "Peel stays in hand: this goldfish never plays traps or terrain.",
        "Attack every turn for 3 damage: the dummy's 3 units (18 HP in all) need 6 attacks.",
    ]


def test_hand_plan_follows_the_parameters() -> None:
    plan = _plan(
        ["Chief", "Pika", "Ray", "Free"],
        unit_order="lowest_hp",
        fill_bench=False,
        soul_charge=3,
        attack_damage=4,
        dummy_hp_4=2,
    )
    assert plan == [
        "Put Pika on the battlefield (HP 3): the unit with the least HP in hand.",
        "Cast Free (cost 0) on turn 1 at the earliest, once enough soul charge stands ready.",
        "Cast Ray (cost 4) on turn 2 at the earliest, once enough soul charge stands ready.",
        "Attack every turn for 4 damage: the dummy's 4 units (20 HP in all) need 7 attacks.",
    ]
    assert _plan(["Peel", "Sale"], soul_charge=0)[0].startswith("No unit in hand: unless")
    assert _plan(["Peel"], opening_without_unit="wait")[0].startswith("No unit in hand: until")
    assert "never castable" in _plan(["Boss", "Sale"], soul_charge=0)[1]


def test_hand_plan_of_a_deck_that_cannot_be_simulated_names_the_problem() -> None:
    deck = deck_of(["Peel", "Free"])
    (step,) = hand_plan(deck, [0], {})
    assert isinstance(step.text, str) and "no unit" in step.text and step.cards == ()
