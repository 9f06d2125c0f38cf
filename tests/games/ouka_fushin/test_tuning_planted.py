"""Tuning 央華封神 decks whose best move is known by construction (simulator/engine/tuning.py
racing one-card moves on ``OukaEngine.goal_values``): for 20 seeds each, the planted move
ranks first, and a move that changes nothing shows exactly 0 with an interval of width 0.

  * a dead story: the protagonist can never pass its check (target 14 against combat 3-5: the
    die would have to show 9 or more, ouka-fushin.md:62-63), so cutting it for a sure 30-point
    story beats cutting it for a 5-point one with the same keyword, cutting the only card that
    grows the protagonist to destiny 2 (ouka-fushin.md:23) or cutting a live story;
  * a climax that cannot be played before turn 3: its three condition keywords are on three
    different stories and a turn plays one story (ouka-fushin.md:60, 70), so for "first climax
    by turn 2" it is dead, and the best move swaps it for a one-keyword climax;
  * a deck one card short: a deck of climaxes without conditions plays one each turn, and
    three rounds need 6 + 2 + 2 + 1 = 11 cards (ouka-fushin.md:45, 50, 56): with 10 the deck
    is empty at the start of turn 3 in every game (a deck-out), with 11 never. A legal deck
    has at least 40 cards (ouka-fushin.md:35) and no such edge, so the deck is a small one.

Every move touches the draw zone only (the protagonist stays). Swaps keep the deck's size, so
the two decks share each game's shuffle (``SimDeck.draw_order``); the engine's shuffle is a
Fisher-Yates on the game's Mersenne Twister, so a move that changes the size deals other
games altogether, which the third case does not mind (its outcome is the same in every game).
About 15 s."""

from __future__ import annotations

from typing import Any

import pytest

from games.ouka_fushin.engine import ENGINE
from games.ouka_fushin.goals import GOALS
from simulator.engine.cards import SimCard, SimDeck
from simulator.engine.goals import Goal, goal_by_code, values_by_play
from simulator.engine.tuning import Move, Race, moved_deck, race

SEEDS = range(20)
Card = tuple[str, dict[str, Any]]


def _story(words: str, points: int, target: int = 0, ability: str = "", pre: str = "") -> Card:
    attributes: dict[str, Any] = {"story_kind": "normal", "keywords": words.split()}
    attributes["points"] = points
    if target:
        attributes.update(target=target, ability=ability)
    if pre:
        attributes["prerequisites"] = pre.split()
    return ("story", attributes)


def _person(character: str, destiny: int) -> Card:
    return ("character", {"character": character, "destiny": destiny, "school": "goton"})


def _climax(conditions: str, bonus: int, kind: str = "slay") -> Card:
    return ("climax", {"conditions": conditions.split(), "bonus": bonus, "climax_type": kind})


#: combat / exploration / negotiation at destiny 1, 2, 3
_ABILITIES = ((3, 2, 0), (4, 3, 1), (5, 4, 2))
HERO: Card = (
    "protagonist",
    {
        "character": "Hero",
        "school": "goton",
        **{
            f"{key}_{destiny}": value
            for destiny, row in enumerate(_ABILITIES, start=1)
            for key, value in zip(("combat", "exploration", "negotiation"), row, strict=True)
        },
    },
)
POOL: dict[str, Card] = {
    "Hero": HERO,
    "Hero2": _person("Hero", 2),
    "Hero3": _person("Hero", 3),
    "Imm1": _person("Imm", 1),
    "Imm2": _person("Imm", 2),
    "Trip": _story("journey", 10, 4, "any"),
    "Tea": _story("journey feast", 5),
    "Fiend": _story("fiend", 15, 6, "exploration"),
    "Shadow": _story("foe", 15, 6, "combat"),
    "Valley": _story("vault", 20, 7, "exploration", "journey"),
    "Plea": _story("village pact", 20, 6, "negotiation", "journey"),
    "Hunt": _story("fiend foe", 35, 9, "combat", "fiend"),
    "Never": _story("foe", 40, 14, "combat"),  # needs a 9 or more at every destiny: dead
    "Exorcism": _climax("fiend", 30),
    "King": _climax("fiend foe", 60),
    "Ends": _climax("journey vault", 40, "quest"),
    "Rebuild": _climax("village pact", 50, "save"),
    "Slow": _climax("journey fiend foe", 90),  # three stories: turn 3 at the earliest
    "Quick": _climax("journey", 20, "quest"),
    **{f"Finale{n}": _climax("", 10 + n, "save") for n in range(1, 11)},
}
#: the cards only a move brings in
NEW = {
    "Boon": _story("journey", 30),  # Tea2 with 25 points more
    "Tea2": _story("journey", 5),
    "Quick2": _climax("journey", 20, "quest"),
    "Finale11": _climax("", 21, "save"),
}


def code(name: str) -> str:
    return f"t-{name.lower()}"


NEW_CARDS = {
    code(name): SimCard(0, code(name), name, kind, dict(attributes))
    for name, (kind, attributes) in NEW.items()
}


def deck_of(main: list[tuple[str, int]]) -> SimDeck:
    names = list(POOL)
    cards = tuple(
        SimCard(i, code(name), name, POOL[name][0], dict(POOL[name][1]))
        for i, name in enumerate(names)
    )
    at = {name: i for i, name in enumerate(names)}
    zones = {
        "main": tuple((at[name], copies) for name, copies in main),
        "protagonist": ((at["Hero"], 1),),
    }
    return SimDeck("ouka-fushin", cards, zones, "main")


def move(cut: str | None, add: str | None) -> Move:
    return Move(cut and code(cut), add and code(add))


def goal(name: str) -> Goal:
    found = goal_by_code(GOALS, name)
    assert found is not None
    return found


DEAD_DECK = deck_of(
    [
        *(("Hero2", 1), ("Hero3", 3), ("Imm1", 4)),
        *(("Trip", 3), ("Tea", 3), ("Fiend", 3), ("Shadow", 3), ("Valley", 3), ("Plea", 3)),
        *(("Hunt", 2), ("Never", 4)),
        *(("Exorcism", 2), ("King", 2), ("Ends", 2), ("Rebuild", 2)),
    ]
)
DEAD_MOVES = [
    move("Never", "Boon"),  # planted
    move("Never", "Tea2"),
    move("Hero2", "Boon"),
    move("Shadow", "Boon"),
    move("Never", "Never"),  # changes nothing
]
SLOW_DECK = deck_of(
    [
        *(("Hero2", 2), ("Hero3", 2), ("Imm1", 3), ("Imm2", 2)),
        *(("Trip", 3), ("Tea", 3), ("Fiend", 3), ("Shadow", 3), ("Valley", 3), ("Plea", 3)),
        *(("Slow", 3), ("Quick", 1), ("King", 3), ("Ends", 3), ("Rebuild", 3)),
    ]
)
SLOW_MOVES = [
    move("Slow", "Quick2"),  # planted
    move("Slow", "Tea2"),
    move("Tea", "Quick2"),
    move("Trip", "Quick2"),
    move("Slow", "Slow"),
]
SHORT_DECK = deck_of([(f"Finale{n}", 1) for n in range(1, 11)])
SHORT_MOVES = [
    move(None, "Finale11"),  # planted: the eleventh card
    move("Finale1", None),
    move("Finale1", "Finale11"),
    move("Finale2", "Finale2"),
]


def assert_planted_first_and_noop_zero(result: Race, moves: list[Move]) -> None:
    ranking = result.ranking
    assert {r.move for r in ranking} == set(moves) and len(ranking) == len(moves)
    assert ranking[0].move == moves[0], [(r.move, r.effect.value) for r in ranking]
    assert ranking[0].effect.value > 0 and not ranking[0].tied
    (noop,) = (r for r in ranking if r.move.is_noop)
    assert (noop.effect.value, noop.effect.low, noop.effect.high) == (0.0, 0.0, 0.0)
    assert noop.games > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_the_dead_story_is_the_card_to_cut_for_a_sure_one(seed: int) -> None:
    result = race(
        ENGINE,
        DEAD_DECK,
        DEAD_MOVES,
        new_cards=NEW_CARDS,
        params={},
        goal=goal("points_total"),
        turn=None,
        seed=seed,
        budget=15_000,
    )
    assert_planted_first_and_noop_zero(result, DEAD_MOVES)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_climax_that_cannot_come_before_turn_3_is_swapped_for_the_turn_2_goal(
    seed: int,
) -> None:
    result = race(
        ENGINE,
        SLOW_DECK,
        SLOW_MOVES,
        new_cards=NEW_CARDS,
        params={},
        goal=goal("first_climax_by"),
        turn=2,
        seed=seed,
        budget=20_000,
    )
    assert_planted_first_and_noop_zero(result, SLOW_MOVES)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_deck_one_card_short_of_three_rounds_gains_the_card(seed: int) -> None:
    result = race(
        ENGINE,
        SHORT_DECK,
        SHORT_MOVES,
        new_cards=NEW_CARDS,
        params={},
        goal=goal("deck_out"),
        turn=None,
        seed=seed,
        budget=5_000,
    )
    assert_planted_first_and_noop_zero(result, SHORT_MOVES)
    # every game decks out with 10 cards and none with 11: exactly one deck-out fewer a game
    best = result.ranking[0].effect
    assert (best.value, best.low, best.high) == (1.0, 1.0, 1.0)
    for ranked in result.ranking[1:]:
        assert ranked.effect.value == 0.0


# --- the constructions hold ----------------------------------------------------------------


def test_the_dead_story_is_kept_at_no_value_and_never_placed() -> None:
    p = ENGINE.prepare(DEAD_DECK, {})
    never = next(c.index for c in DEAD_DECK.cards if c.name == "Never")
    assert all(row[never] == 0 for row in p.static_value)  # prepared._passable
    assert all(p.need[0][d][never] > 6 for d in (1, 2, 3))


def test_the_slow_climax_first_comes_on_turn_3() -> None:
    # alone among the climaxes, it is never played by turn 2 and sometimes by turn 3
    alone = deck_of(
        [("Trip", 3), ("Tea", 3), ("Fiend", 3), ("Shadow", 3), ("Slow", 3), ("Imm1", 5)]
    )
    p = ENGINE.prepare(alone, {})
    by = goal("first_climax_by")
    assert ENGINE.goal_values(p, {}, by, 2, 1, 0, 2000).sum() == 0
    assert ENGINE.goal_values(p, {}, by, 3, 1, 0, 2000).sum() > 0


def test_ten_cards_always_deck_out_and_eleven_never() -> None:
    out = goal("deck_out")
    short = ENGINE.prepare(SHORT_DECK, {})
    full = ENGINE.prepare(moved_deck(SHORT_DECK, SHORT_MOVES[0], NEW_CARDS), {})
    assert set(ENGINE.goal_values(short, {}, out, None, 3, 0, 500).tolist()) == {1}
    assert set(ENGINE.goal_values(full, {}, out, None, 3, 0, 500).tolist()) == {0}
    assert values_by_play(ENGINE, full, {}, out, None, 3, 0, 50).tolist() == [0] * 50


def test_the_moves_touch_only_the_draw_zone_and_a_swap_keeps_the_shuffle() -> None:
    for deck, moves in ((DEAD_DECK, DEAD_MOVES), (SLOW_DECK, SLOW_MOVES)):
        for m in moves:
            moved = moved_deck(deck, m, NEW_CARDS)
            assert moved.zones["protagonist"] == deck.zones["protagonist"]
            assert moved.size == deck.size
            # the swapped-in card sits where the cut copy was; the rest of the pile is as it was
            pairs = zip(deck.pile(), moved.pile(), strict=True)
            changed = [i for i, (a, b) in enumerate(pairs) if a != b]
            assert len(changed) == (0 if m.is_noop else 1)
