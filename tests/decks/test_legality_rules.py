"""Every construction rule of the five games, exactly at its boundaries (39/40/41 and so on).

Pure: decks are built as DeckFacts (tests/decks/legality_builders.py), no database. Each
problem is checked for its code, severity, expected/actual, the cards it names, the digest
line it cites (and that this line of shared/rules/<game>.md really states the rule), and a
message and fix that render in English and Japanese.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import translation

from decks.game_rules import deck_rules
from decks.legality.check import SEVERITY_ORDER, check_deck
from decks.legality.facts import DeckFacts, PrintingFacts
from decks.legality.problems import Cite, Problem, Severity, is_legal
from decks.legality.rules import MAX_QUANTITY
from games.unmatched.rules import ANY_FIGHTER
from tests.decks.legality_builders import (
    DECK_TYPE,
    DECK_ZONE,
    GAMES,
    LEGAL_CHIPS,
    MATTSAN,
    MH,
    OUKA,
    PROTAGONIST,
    RECHARGE,
    UNMATCHED,
    action,
    card,
    cited_bullet,
    cited_text,
    codes,
    entry,
    hero,
    legal_deck,
    legal_mattsan,
    legal_monster_hunter,
    legal_ouka_fushin,
    legal_recharge,
    legal_unmatched,
    mission,
    normal,
    power_plus,
    recharge_card,
    rendered,
    section_of,
    the_one,
)

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


@dataclass(frozen=True)
class Expect:
    """One problem a deck must report, and nothing else."""

    code: str
    digest: str
    line: int
    #: words the cited line itself states (case-insensitive)
    says: tuple[str, ...] = ()
    #: words the whole list item around the cited line states, for rules that wrap
    bullet_says: tuple[str, ...] = ()
    severity: Severity = ERROR
    expected: Any = None
    actual: Any = None
    cards: tuple[str, ...] = ()
    fix_en: str | None = None


def assert_reports(deck_facts: DeckFacts, expect: Expect | None) -> Problem | None:
    """The deck reports exactly ``expect`` (or nothing at all), checked field by field."""
    problems = check_deck(deck_facts)
    if expect is None:
        assert problems == [], [p.as_dict() for p in problems]
        return None
    problem = the_one(problems, expect.code)
    assert problem.severity is expect.severity
    assert (problem.expected, problem.actual) == (expect.expected, expect.actual)
    assert problem.cite == Cite(expect.digest, expect.line)
    line = cited_text(problem.cite).casefold()
    for word in expect.says:
        assert word.casefold() in line, f"{problem.cite} does not say {word!r}: {line!r}"
    bullet = cited_bullet(problem.cite).casefold()
    for word in expect.bullet_says:
        assert word.casefold() in bullet, f"{problem.cite} does not say {word!r}: {bullet!r}"
    assert tuple(c.code for c in problem.cards) == expect.cards
    texts = rendered(problem)
    if expect.fix_en is not None:
        assert texts["fix"]["en"] == expect.fix_en
    # a card the message names appears by its name in each language
    for card_facts in problem.message.cards.values():
        assert card_facts in problem.cards
        assert card_facts.name_en in texts["message"]["en"]
        assert card_facts.name_ja in texts["message"]["ja"]
    assert problem.as_dict()["rule"] == f"{expect.digest}:{expect.line}"
    return problem


# --- Monster Hunter: monster-hunter.md lines 30-35 -----------------------------------------

MH_MD = "monster-hunter.md"
MH_CARD = card("mh-rathalos", MH, "monster", name_en="Rathalos", name_ja="リオレウス")


def mh_with(copies: int, *, split: bool = False) -> DeckFacts:
    lines = [entry(MH_CARD, "main", copies)]
    if split:
        lines = [entry(MH_CARD, "main", 2), entry(MH_CARD, "main", copies - 2)]
    return legal_monster_hunter(main=40 - copies, extra=lines)


def mh_size(actual: int) -> Expect:
    return Expect("zone-size", MH_MD, 31, ("exactly", "40"), expected=40, actual=actual)


def mh_hunters(actual: int) -> Expect:
    hunters = tuple(f"hunter-{i:03d}" for i in range(actual))
    return Expect(
        "needs-one",
        MH_MD,
        34,
        ("exactly one hunter",),
        expected=1,
        actual=actual,
        cards=hunters,
    )


@pytest.mark.parametrize(
    ("deck_facts", "expect"),
    [
        pytest.param(legal_monster_hunter(main=39), mh_size(39), id="main-39"),
        pytest.param(legal_monster_hunter(main=40), None, id="main-40"),
        pytest.param(legal_monster_hunter(main=41), mh_size(41), id="main-41"),
        pytest.param(mh_with(4), None, id="copies-4"),
        pytest.param(
            mh_with(5),
            Expect(
                "copy-limit",
                MH_MD,
                33,
                ("4 copies", "card number"),
                expected=4,
                actual=5,
                cards=("mh-rathalos",),
                fix_en="Remove 1 × Rathalos.",
            ),
            id="copies-5",
        ),
        pytest.param(
            mh_with(5, split=True),
            Expect("copy-limit", MH_MD, 33, ("4",), expected=4, actual=5, cards=("mh-rathalos",)),
            id="copies-5-over-two-lines",
        ),
        pytest.param(legal_monster_hunter(hunters=0), mh_hunters(0), id="hunters-0"),
        pytest.param(legal_monster_hunter(hunters=1), None, id="hunters-1"),
        pytest.param(legal_monster_hunter(hunters=2), mh_hunters(2), id="hunters-2"),
    ],
)
def test_monster_hunter_counts_are_judged_exactly_at_their_boundaries(
    deck_facts: DeckFacts, expect: Expect | None
) -> None:
    assert_reports(deck_facts, expect)


def test_it_refuses_a_fifth_copy_and_says_how_many_to_remove() -> None:
    problem = assert_reports(
        legal_monster_hunter(main=33, extra=[entry(MH_CARD, "main", 7)]),
        Expect("copy-limit", MH_MD, 33, ("4",), expected=4, actual=7, cards=("mh-rathalos",)),
    )
    assert problem is not None
    assert rendered(problem)["fix"]["en"] == "Remove 3 × Rathalos."


def test_a_hunter_in_the_main_deck_is_a_zone_type_error_fixed_by_moving_it_to_the_hunter_zone() -> (
    None
):
    stray = card("mh-hunter-x", MH, "hunter", name_en="Blademaster", name_ja="剣士")
    problem = assert_reports(
        legal_monster_hunter(main=39, extra=[entry(stray, "main")]),
        Expect(
            "zone-type",
            MH_MD,
            32,
            ("no hunter cards in the deck",),
            expected=["monster", "weapon", "armor", "item"],
            actual="hunter",
            cards=("mh-hunter-x",),
            fix_en="Move Blademaster to the hunter.",
        ),
    )
    assert problem is not None
    assert problem.zone == "main"
    assert "剣士" in rendered(problem)["fix"]["ja"]


# --- 央華封神: ouka-fushin.md lines 34-40 ---------------------------------------------------

OF_MD = "ouka-fushin.md"
OF_CARD = card("of-story", OUKA, "story", name_en="Trial of the Lake", name_ja="湖の試練")


def of_with(copies: int) -> DeckFacts:
    return legal_ouka_fushin(main=40 - copies, extra=[entry(OF_CARD, "main", copies)])


def of_size(actual: int) -> Expect:
    return Expect("zone-size", OF_MD, 35, ("at least", "40"), expected=40, actual=actual)


def of_protagonists(actual: int) -> Expect:
    return Expect(
        "needs-one",
        OF_MD,
        38,
        ("one protagonist set",),
        expected=1,
        actual=actual,
        cards=("taikoubou",) * actual,
    )


def of_missions(count: int) -> DeckFacts:
    return legal_ouka_fushin(missions=[mission(f"m{i}") for i in range(1, count + 1)])


def of_mission_count(actual: int) -> Expect:
    return Expect(
        "missions-count", OF_MD, 38, ("two different mission cards",), expected=2, actual=actual
    )


@pytest.mark.parametrize(
    ("deck_facts", "expect"),
    [
        pytest.param(legal_ouka_fushin(main=39), of_size(39), id="main-39"),
        pytest.param(legal_ouka_fushin(main=40), None, id="main-40"),
        pytest.param(legal_ouka_fushin(main=41), None, id="main-41"),
        pytest.param(legal_ouka_fushin(main=90), None, id="main-90"),
        pytest.param(of_with(3), None, id="copies-3"),
        pytest.param(
            of_with(4),
            Expect(
                "copy-limit",
                OF_MD,
                37,
                ("3 copies",),
                expected=3,
                actual=4,
                cards=("of-story",),
                fix_en="Remove 1 × Trial of the Lake.",
            ),
            id="copies-4",
        ),
        pytest.param(legal_ouka_fushin(protagonists=0), of_protagonists(0), id="protagonist-0"),
        pytest.param(legal_ouka_fushin(protagonists=1), None, id="protagonist-1"),
        pytest.param(legal_ouka_fushin(protagonists=2), of_protagonists(2), id="protagonist-2"),
        pytest.param(of_missions(1), of_mission_count(1), id="missions-1"),
        pytest.param(of_missions(2), None, id="missions-2"),
        pytest.param(of_missions(3), of_mission_count(3), id="missions-3"),
        pytest.param(
            legal_ouka_fushin(missions=[mission("m1"), mission("m1")]),
            Expect(
                "missions-differ",
                OF_MD,
                38,
                ("two different mission cards",),
                expected=1,
                actual=2,
                cards=("m1",),
                fix_en="Replace one Mission m1 with another mission.",
            ),
            id="the-same-mission-twice",
        ),
        pytest.param(
            legal_ouka_fushin(extra=[entry(card("taishi", OUKA, "protagonist"), "substitute")]),
            Expect(
                "substitute-count",
                OF_MD,
                38,
                ("a substitute protagonist set",),
                expected=1,
                actual=2,
                cards=("nataku", "taishi"),
            ),
            id="two-substitutes",
        ),
    ],
)
def test_ouka_fushin_counts_are_judged_exactly_at_their_boundaries(
    deck_facts: DeckFacts, expect: Expect | None
) -> None:
    assert_reports(deck_facts, expect)


@pytest.mark.parametrize(
    ("stray", "home_en"),
    [
        pytest.param(
            card("chokou", OUKA, "protagonist", name_en="Chokou", name_ja="趙公明"),
            "protagonist",
            id="a-protagonist",
        ),
        pytest.param(
            card("m9", OUKA, "mission", name_en="Seal the Gate", name_ja="門を封じよ"),
            "mission zone",  # a zone, named as one (issue 18: "The missions has 0 cards")
            id="a-mission",
        ),
    ],
)
def test_a_protagonist_or_a_mission_in_the_main_deck_is_an_error_with_a_fix_to_its_own_zone(
    stray: Any, home_en: str
) -> None:
    problem = assert_reports(
        legal_ouka_fushin(main=40, extra=[entry(stray, "main")]),
        Expect(
            "zone-type",
            OF_MD,
            36,
            ("no protagonist or mission cards in the deck",),
            expected=["character", "story", "climax"],
            actual=stray.card_type,
            cards=(stray.code,),
            fix_en=f"Move {stray.name_en} to the {home_en}.",
        ),
    )
    assert problem is not None
    assert stray.name_ja in rendered(problem)["fix"]["ja"]


def test_a_missing_substitute_is_a_warning_that_says_you_lose_if_you_cannot_substitute() -> None:
    problem = assert_reports(
        legal_ouka_fushin(substitute=None),
        Expect(
            "substitute-missing",
            OF_MD,
            40,
            ("must substitute and cannot, loses",),
            bullet_says=("substitute protagonist",),
            severity=WARNING,
            expected=1,
            actual=0,
        ),
    )
    assert problem is not None
    message = rendered(problem)["message"]["en"]
    assert "cannot substitute" in message
    assert "lose the game" in message
    # a warning, not an error: the deck may still be played
    assert is_legal(check_deck(legal_ouka_fushin(substitute=None)))


@pytest.mark.parametrize(
    "substitute",
    [
        pytest.param(PROTAGONIST, id="the-same-card"),
        pytest.param(
            card(
                "taikoubou-alt",
                OUKA,
                "protagonist",
                name_en="Taikoubou (sage)",
                name_ja="太公望（仙人）",
                attributes={"character": "taikoubou"},
            ),
            id="the-same-character",
        ),
    ],
)
def test_a_substitute_equal_to_the_protagonist_is_an_error(substitute: Any) -> None:
    assert_reports(
        legal_ouka_fushin(substitute=substitute),
        Expect(
            "substitute-same",
            OF_MD,
            39,
            ("(a different protagonist)",),
            bullet_says=("a substitute protagonist set",),
            cards=(substitute.code,),
            fix_en="Choose another protagonist as the substitute.",
        ),
    )


def of_rebuild(spares: int) -> DeckFacts:
    """Three character cards of the protagonist in the deck; ``spares`` of the substitute."""
    own = card("taikoubou-1", OUKA, "character", attributes={"character": "taikoubou"})
    spare = card("nataku-1", OUKA, "character", attributes={"character": "nataku"})
    extra = [entry(own, "main", 3)]
    if spares:
        extra.append(entry(spare, "spares", spares))
    return legal_ouka_fushin(main=37, extra=extra)


@pytest.mark.parametrize(
    ("deck_facts", "expect"),
    [
        pytest.param(
            of_rebuild(0),
            Expect(
                "spares-short",
                OF_MD,
                39,
                ("spare character cards to rebuild the deck",),
                severity=INFO,
                expected=3,
                actual=0,
                cards=("nataku",),
                fix_en="Add 3 spare character cards of Nataku.",
            ),
            id="spares-0-of-3",
        ),
        pytest.param(
            of_rebuild(2),
            Expect(
                "spares-short",
                OF_MD,
                39,
                ("spare character",),
                severity=INFO,
                expected=3,
                actual=2,
                cards=("nataku",),
                fix_en="Add 1 spare character card of Nataku.",
            ),
            id="spares-2-of-3",
        ),
        pytest.param(of_rebuild(3), None, id="spares-3-of-3"),
    ],
)
def test_it_says_when_the_spares_could_not_rebuild_the_deck_for_the_substitute(
    deck_facts: DeckFacts, expect: Expect | None
) -> None:
    assert_reports(deck_facts, expect)
    assert is_legal(check_deck(deck_facts))


# --- Recharge: recharge.md lines 23-30 ------------------------------------------------------

RC_MD = "recharge.md"
SPIDEY = recharge_card("rc-spider-man")


def rc_with(*printings: PrintingFacts | None, variant: str = "basic") -> DeckFacts:
    lines = [entry(SPIDEY, "main", printing=p) for p in printings]
    return legal_recharge(main=50 - len(lines), extra=lines, variant=variant)


def rc_all_different(actual: int = 2) -> Expect:
    return Expect(
        "all-different",
        RC_MD,
        29,
        ("all cards different",),
        expected=1,
        actual=actual,
        cards=("rc-spider-man",),
        fix_en=f"Remove {actual - 1} × Card rc-spider-man.",
    )


def rc_size(actual: int) -> Expect:
    return Expect(
        "standard-size",
        RC_MD,
        29,
        ("50 is the standard",),
        # smaller than the standard is warned of, larger only noted
        severity=WARNING if actual < 50 else INFO,
        expected=50,
        actual=actual,
    )


@pytest.mark.parametrize(
    ("deck_facts", "expect"),
    [
        pytest.param(
            legal_recharge(main=48, extra=[entry(SPIDEY, "main", 2)]),
            rc_all_different(),
            id="one-line-of-2",
        ),
        pytest.param(rc_with(None, None), rc_all_different(), id="the-same-card-twice"),
        pytest.param(
            rc_with(normal(SPIDEY), normal(SPIDEY)), rc_all_different(), id="two-normal-copies"
        ),
        pytest.param(
            rc_with(normal(SPIDEY), power_plus(SPIDEY)),
            Expect(
                "power-plus-same-card",
                RC_MD,
                24,
                ("basic rules", "the same card", "only one of the two"),
                expected=1,
                actual=2,
                cards=("rc-spider-man",),
            ),
            id="normal-and-power-plus-basic",
        ),
        pytest.param(
            rc_with(normal(SPIDEY), power_plus(SPIDEY), variant="tournament"),
            None,
            id="normal-and-power-plus-tournament",
        ),
        pytest.param(
            rc_with(power_plus(SPIDEY), power_plus(SPIDEY), variant="tournament"),
            rc_all_different(),
            id="power-plus-twice-tournament",
        ),
        pytest.param(
            rc_with(power_plus(SPIDEY), power_plus(SPIDEY)),
            rc_all_different(),
            id="power-plus-twice-basic",
        ),
        pytest.param(
            rc_with(normal(SPIDEY), power_plus(SPIDEY), normal(SPIDEY), variant="tournament"),
            rc_all_different(),
            id="normal-twice-beside-power-plus-tournament",
        ),
        pytest.param(rc_with(normal(SPIDEY)), None, id="one-normal"),
        pytest.param(rc_with(power_plus(SPIDEY)), None, id="one-power-plus"),
        pytest.param(legal_recharge(main=49), rc_size(49), id="size-49"),
        pytest.param(legal_recharge(main=50), None, id="size-50"),
        pytest.param(legal_recharge(main=51), rc_size(51), id="size-51"),
    ],
)
def test_recharge_cards_are_all_different_and_fifty_is_only_the_standard(
    deck_facts: DeckFacts, expect: Expect | None
) -> None:
    assert_reports(deck_facts, expect)


def test_under_basic_rules_the_power_plus_fix_offers_to_keep_one_or_switch_to_tournament() -> None:
    problems = check_deck(rc_with(normal(SPIDEY), power_plus(SPIDEY)))
    fix = rendered(the_one(problems, "power-plus-same-card"))["fix"]["en"]
    assert "Power Plus" in fix and "normal version" in fix
    assert "tournament rules" in fix
    # the swap the fix offers is legal both ways
    assert check_deck(rc_with(power_plus(SPIDEY))) == []
    assert check_deck(rc_with(normal(SPIDEY), power_plus(SPIDEY), variant="tournament")) == []


@pytest.mark.parametrize(
    ("size", "reported"),
    [
        (0, ("too-few-to-play", ERROR)),  # the opening draws 1 card (recharge.md:33)
        (1, ("standard-size", WARNING)),
        (49, ("standard-size", WARNING)),
        (51, ("standard-size", INFO)),
        (99, ("standard-size", INFO)),
        (250, ("standard-size", INFO)),
    ],
)
def test_a_recharge_deck_is_warned_below_50_and_refused_when_it_cannot_open(
    size: int, reported: tuple[str, Severity]
) -> None:
    problems = check_deck(legal_recharge(main=size))
    assert [(p.code, p.severity) for p in problems] == [reported]
    assert is_legal(problems) is (reported[1] is not ERROR)
    if size == 0:
        (problem,) = problems
        assert problem.cite == Cite(RC_MD, 33)
        assert "draws **1** card" in cited_text(problem.cite)
        assert rendered(problem)["message"]["en"] == (
            "The main deck has 0 cards; the opening draws 1, so a game cannot start."
        )


def chip_expect(code: str, expected: Any, actual: Any) -> Expect:
    return Expect(
        code,
        RC_MD,
        30,
        ("at most 25 chips", "1–5", "50–65"),
        expected=expected,
        actual=actual,
    )


@pytest.mark.parametrize(
    ("chips", "expect"),
    [
        pytest.param([2] * 23 + [4], None, id="count-24"),
        pytest.param([2] * 25, None, id="count-25"),
        pytest.param([2] * 24 + [1, 1], chip_expect("chip-count", 25, 26), id="count-26"),
        pytest.param([0] + [5] * 11, chip_expect("chip-value", [1, 5], [0]), id="value-0"),
        pytest.param([1] + [5] * 11, None, id="value-1"),
        pytest.param([5] + [5] * 11, None, id="value-5"),
        pytest.param([6] + [5] * 11, chip_expect("chip-value", [1, 5], [6]), id="value-6"),
        pytest.param([5] * 9 + [4], chip_expect("chip-total", [50, 65], 49), id="total-49"),
        pytest.param([5] * 10, None, id="total-50"),
        pytest.param([5] * 13, None, id="total-65"),
        pytest.param([5] * 13 + [1], chip_expect("chip-total", [50, 65], 66), id="total-66"),
        pytest.param([], chip_expect("chip-total", [50, 65], 0), id="no-chips"),
    ],
)
def test_recharge_chips_are_judged_at_each_side_of_each_bound(
    chips: list[int], expect: Expect | None
) -> None:
    assert_reports(legal_recharge(chips=chips), expect)


@pytest.mark.parametrize(
    ("chips", "fix_en"),
    [
        pytest.param([5] * 9 + [4], "Add 1 point of chips.", id="short-by-1"),
        pytest.param([5] * 13 + [1], "Remove 1 point of chips.", id="over-by-1"),
        pytest.param([2] * 27, "Remove 2 chips.", id="two-chips-too-many"),
    ],
)
def test_each_chip_fix_says_exactly_how_far_off_it_is(chips: list[int], fix_en: str) -> None:
    (problem,) = check_deck(legal_recharge(chips=chips))
    assert rendered(problem)["fix"]["en"] == fix_en


def test_the_legal_chips_of_the_builders_sit_on_two_bounds_at_once() -> None:
    assert (len(LEGAL_CHIPS), sum(LEGAL_CHIPS)) == (25, 50)


# --- Unmatched: unmatched.md lines 16-19 ----------------------------------------------------

UM_MD = "unmatched.md"


def um_heroes(actual: int) -> Expect:
    return Expect(
        "one-hero",
        UM_MD,
        19,
        ("one character card",),
        expected=1,
        actual=actual,
        cards=("character-medusa",) * actual,
    )


def um_size(actual: int) -> Expect:
    return Expect("zone-size", UM_MD, 18, ("exactly 30 action cards",), expected=30, actual=actual)


@pytest.mark.parametrize(
    ("deck_facts", "expect"),
    [
        pytest.param(legal_unmatched(heroes=0), um_heroes(0), id="hero-0"),
        pytest.param(legal_unmatched(heroes=1), None, id="hero-1"),
        pytest.param(legal_unmatched(heroes=2), um_heroes(2), id="hero-2"),
        pytest.param(legal_unmatched(actions=29), um_size(29), id="deck-29"),
        pytest.param(legal_unmatched(actions=30), None, id="deck-30"),
        pytest.param(legal_unmatched(actions=31), um_size(31), id="deck-31"),
    ],
)
def test_unmatched_counts_are_judged_exactly_at_their_boundaries(
    deck_facts: DeckFacts, expect: Expect | None
) -> None:
    assert_reports(deck_facts, expect)


def um_with(card_facts: Any, character: Any = None, printing: Any = None) -> DeckFacts:
    return legal_unmatched(
        actions=29, character=character, extra=[entry(card_facts, "deck", printing=printing)]
    )


SHERLOCK = hero("Sherlock Holmes", "Dr. Watson", deck_id="sherlock-holmes", name_ja="ホームズ")
ALICE = hero("Alice", "The Jabberwock", deck_id="alice", name_ja="アリス")
LESHEN = hero("Ancient Leshen", "Wolves", deck_id="ancient-leshen", name_ja="古代のレーシェン")
BUFFY = hero("Buffy", "Giles or Xander", deck_id="buffy", name_ja="バフィー")
HAMLET = hero("Hamlet", "Rosencrantz & Guildenstern", deck_id="hamlet", name_ja="ハムレット")
JEKYLL = hero("Jekyll & Hyde", "", deck_id="jekyll-hyde", name_ja="ジキルとハイド")
INGEN = hero("Robert Muldoon", "Ingen Workers", deck_id="ingen", name_ja="マルドゥーン")


@pytest.mark.parametrize(
    ("fighter", "character"),
    [
        pytest.param(ANY_FIGHTER, None, id="any"),
        pytest.param("Any", None, id="Any-capitalised"),
        pytest.param("Medusa", None, id="the-hero"),
        pytest.param("MEDUSA", None, id="the-hero-in-capitals"),
        pytest.param("Harpies", None, id="the-sidekick"),
        pytest.param("Harpy", None, id="the-sidekick-in-the-singular"),
        pytest.param("Holmes", SHERLOCK, id="the-hero-without-a-first-name"),
        pytest.param("Sherlock Holmes", SHERLOCK, id="the-hero-in-full"),
        pytest.param("Dr. watson", SHERLOCK, id="the-sidekick-with-a-title"),
        pytest.param("Watson", SHERLOCK, id="the-sidekick-without-a-title"),
        pytest.param("Jabberwock", ALICE, id="the-sidekick-without-the"),
        pytest.param("Leshen", LESHEN, id="the-hero-without-an-epithet"),
        pytest.param("Wolf", LESHEN, id="one-of-the-wolves"),
        pytest.param("Xander", BUFFY, id="one-of-two-sidekicks-named-with-or"),
        pytest.param("Guildenstern", HAMLET, id="one-of-two-sidekicks-named-with-and"),
        pytest.param("Hyde", JEKYLL, id="half-of-a-two-named-hero"),
        pytest.param("Ingen Worker", INGEN, id="one-of-the-workers"),
    ],
)
def test_a_card_for_any_fighter_the_hero_or_its_sidekick_is_usable(
    fighter: str, character: Any
) -> None:
    assert_reports(um_with(action("um-card", fighter), character), None)


def test_a_card_printed_in_the_heros_own_deck_is_usable_whatever_its_fighter_is_called() -> None:
    deadpool = hero("Deadpool", "", deck_id="deadpool", name_ja="デッドプール")
    for odd_name in ("Merc with a mouth", "Dp", "Deadp$$l", "Cable's only true friend"):
        own = action("um-odd", odd_name, deck_id="deadpool")
        assert_reports(um_with(own, deadpool), None)
        # the same name printed in another box is judged by name, and refused
        elsewhere = action("um-odd", odd_name, deck_id="another-box")
        assert codes(check_deck(um_with(elsewhere, deadpool))) == ["fighter"]


@pytest.mark.parametrize(
    ("fighter", "character", "names"),
    [
        pytest.param("Sherlock Holmes", None, ["Medusa", "Harpies"], id="another-hero"),
        pytest.param(
            "Dr. Malcolm", hero("Dr. Sattler", "Dr. Grant"), ["Dr. Sattler", "Dr. Grant"], id="dr"
        ),
        pytest.param("Harpy", SHERLOCK, ["Sherlock Holmes", "Dr. Watson"], id="another-sidekick"),
        pytest.param("Medusa & Achilles", ALICE, ["Alice", "The Jabberwock"], id="two-others"),
    ],
)
def test_a_card_for_another_fighter_is_an_error_naming_both(
    fighter: str, character: Any, names: list[str]
) -> None:
    character = character or hero()
    foreign = action("um-other", fighter, deck_id="another-box")
    problems = check_deck(um_with(foreign, character))
    problem = the_one(problems, "fighter")
    assert problem.cite == Cite(UM_MD, 18)
    assert problem.severity is ERROR
    assert cited_bullet(problem.cite).casefold().count("usable by the deck's hero") == 1
    assert (problem.actual, set(problem.expected)) == ([fighter], set(names))
    assert tuple(c.code for c in problem.cards) == ("um-other",)
    message = rendered(problem)["message"]
    for language in ("en", "ja"):
        assert fighter in message[language]
        for name in names:
            assert name in message[language]
    assert problem.cards[0].name_ja in message["ja"]
    assert rendered(problem)["fix"]["en"] == "Remove 1 × Card um-other."


def test_a_pinned_printing_is_judged_by_its_own_fighter_and_an_unpinned_card_by_any_printing() -> (
    None
):
    shared = card(
        "um-feint",
        UNMATCHED,
        "versatile",
        printings=(
            PrintingFacts("um-test", "medusa", "", {"fighter": "Medusa", "boost": 1}),
            PrintingFacts("um-test", "achilles", "", {"fighter": "Achilles", "boost": 1}),
        ),
    )
    achilles_printing = shared.printings[1]
    assert check_deck(um_with(shared)) == []
    assert check_deck(um_with(shared, printing=shared.printings[0])) == []
    problem = the_one(check_deck(um_with(shared, printing=achilles_printing)), "fighter")
    assert problem.actual == ["Achilles"]


def test_a_card_with_no_fighter_printed_is_not_judged() -> None:
    bare = card("um-bare", UNMATCHED, "scheme")
    assert check_deck(um_with(bare)) == []


# --- Mattsan: mattsan.md lines 8-10 ---------------------------------------------------------

MT_MD = "mattsan.md"


def mt_with(copies: int, copy_limit: int | None = None) -> DeckFacts:
    unit = card("mt-unit", MATTSAN, "unit", name_en="Mattsan", name_ja="マッツァン")
    if copy_limit is not None:
        unit = card(
            "mt-unit", MATTSAN, "unit", name_en="Swarm", name_ja="群れ", copy_limit=copy_limit
        )
    return legal_mattsan(main=30 - copies, extra=[entry(unit, "main", copies)])


def mt_size(actual: int) -> Expect:
    return Expect("zone-size", MT_MD, 8, ("exactly 30 cards",), expected=30, actual=actual)


def mt_copies(limit: int, actual: int) -> Expect:
    return Expect(
        "copy-limit",
        MT_MD,
        9,
        ("at most 3 copies", "unless the card's own text says otherwise"),
        expected=limit,
        actual=actual,
        cards=("mt-unit",),
    )


@pytest.mark.parametrize(
    ("deck_facts", "expect"),
    [
        pytest.param(legal_mattsan(main=29), mt_size(29), id="main-29"),
        pytest.param(legal_mattsan(main=30), None, id="main-30"),
        pytest.param(legal_mattsan(main=31), mt_size(31), id="main-31"),
        pytest.param(mt_with(3), None, id="copies-3"),
        pytest.param(mt_with(4), mt_copies(3, 4), id="copies-4"),
        pytest.param(mt_with(6, copy_limit=6), None, id="own-limit-6-copies-6"),
        pytest.param(mt_with(7, copy_limit=6), mt_copies(6, 7), id="own-limit-6-copies-7"),
        pytest.param(mt_with(1, copy_limit=1), None, id="own-limit-1-copies-1"),
        pytest.param(mt_with(2, copy_limit=1), mt_copies(1, 2), id="own-limit-1-copies-2"),
    ],
)
def test_mattsan_counts_are_judged_exactly_at_their_boundaries(
    deck_facts: DeckFacts, expect: Expect | None
) -> None:
    assert_reports(deck_facts, expect)


# --- every game -------------------------------------------------------------------------------

#: game -> (digest, the line of the rules every game shares, its section heading)
CONSTRUCTION = {
    MH: ("monster-hunter.md", 30, "Deck construction"),
    OUKA: ("ouka-fushin.md", 34, "Deck construction"),
    RECHARGE: ("recharge.md", 28, "Deck and chips"),
    UNMATCHED: ("unmatched.md", 16, "Deck construction"),
    MATTSAN: ("mattsan.md", 8, "Facts from the publisher's pages (not in the seed)"),
}


def common(code: str, game: str, **fields: Any) -> Expect:
    digest, line, _ = CONSTRUCTION[game]
    return Expect(code, digest, line, **fields)


@pytest.mark.parametrize("game", GAMES)
def test_each_games_legal_deck_has_no_problem_at_all(game: str) -> None:
    assert check_deck(legal_deck(game)) == []


@pytest.mark.parametrize("game", GAMES)
def test_a_card_of_another_game_is_a_foreign_card(game: str) -> None:
    alien = card("alien", "other-game", DECK_TYPE[game], name_en="Pikachu", name_ja="ピカチュウ")
    problem = assert_reports(
        legal_deck(game, shorter_by=1, extra=[entry(alien, DECK_ZONE[game])]),
        common("foreign-card", game, cards=("alien",), fix_en="Remove Pikachu."),
    )
    assert problem is not None
    assert "other-game" in rendered(problem)["message"]["en"]
    assert section_of(problem.cite) == CONSTRUCTION[game][2]


WRONG_TYPES = [
    pytest.param(
        legal_monster_hunter(hunters=0, extra=[entry(card("w", MH, "monster"), "hunter")]),
        Expect(
            "zone-type",
            MH_MD,
            34,
            ("exactly one hunter card",),
            expected=["hunter"],
            actual="monster",
            cards=("w",),
            fix_en="Move Card w to the main deck.",
        ),
        id="monster-hunter-a-monster-as-the-hunter",
    ),
    pytest.param(
        legal_ouka_fushin(
            missions=[mission("m1")], extra=[entry(card("w", OUKA, "story"), "missions")]
        ),
        Expect(
            "zone-type",
            OF_MD,
            38,
            ("mission cards",),
            expected=["mission"],
            actual="story",
            cards=("w",),
            fix_en="Move Card w to the main deck.",
        ),
        id="ouka-fushin-a-story-as-a-mission",
    ),
    pytest.param(
        legal_ouka_fushin(extra=[entry(card("w", OUKA, "climax"), "spares")]),
        Expect(
            "zone-type",
            OF_MD,
            39,
            ("spare character cards",),
            expected=["character"],
            actual="climax",
            cards=("w",),
            fix_en="Move Card w to the main deck.",
        ),
        id="ouka-fushin-a-climax-as-a-spare",
    ),
    pytest.param(
        legal_recharge(main=49, extra=[entry(card("w", RECHARGE, "villain"), "main")]),
        Expect(
            "zone-type",
            RC_MD,
            29,
            ("deck",),
            expected=["hero", "teamwork", "power"],
            actual="villain",
            cards=("w",),
            fix_en="Remove Card w.",
        ),
        id="recharge-a-type-it-does-not-have",
    ),
    pytest.param(
        legal_unmatched(actions=29, extra=[entry(card("w", UNMATCHED, "character"), "deck")]),
        Expect(
            "zone-type",
            UM_MD,
            18,
            ("30 action cards",),
            expected=["attack", "defense", "versatile", "scheme"],
            actual="character",
            cards=("w",),
            fix_en="Move Card w to the hero (character card).",
        ),
        id="unmatched-a-character-in-the-action-deck",
    ),
    pytest.param(
        legal_mattsan(main=29, extra=[entry(card("w", MATTSAN, "spell"), "main")]),
        Expect(
            "zone-type",
            MT_MD,
            12,
            ("card types", "unit", "trump", "trap", "terrain"),
            expected=["unit", "trump", "trap", "terrain"],
            actual="spell",
            cards=("w",),
            fix_en="Remove Card w.",
        ),
        id="mattsan-a-type-it-does-not-have",
    ),
]


@pytest.mark.parametrize(("deck_facts", "expect"), WRONG_TYPES)
def test_a_card_type_the_zone_does_not_take_is_a_zone_type_error(
    deck_facts: DeckFacts, expect: Expect
) -> None:
    assert_reports(deck_facts, expect)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("quantity", [-1, 0, 1, MAX_QUANTITY, MAX_QUANTITY + 1])
def test_a_quantity_outside_1_to_99_is_an_error(game: str, quantity: int) -> None:
    odd = card("odd", game, DECK_TYPE[game], name_en="Odd One", name_ja="変わり者")
    if quantity < 1:
        deck_facts = legal_deck(game, extra=[entry(odd, DECK_ZONE[game], quantity)])
    else:
        deck_facts = legal_deck(game, shorter_by=1, extra=[entry(odd, DECK_ZONE[game], quantity)])
    problems = check_deck(deck_facts)
    found = [p for p in problems if p.code == "quantity"]
    if 1 <= quantity <= MAX_QUANTITY:
        assert found == []
        return
    (problem,) = found
    if quantity == 0:
        assert problems == found  # the zone still counts right: nothing else is wrong
    assert (problem.severity, problem.expected, problem.actual) == (ERROR, 1, quantity)
    assert problem.cite == Cite(CONSTRUCTION[game][0], CONSTRUCTION[game][1])
    assert tuple(c.code for c in problem.cards) == ("odd",)
    message = rendered(problem)["message"]
    assert str(quantity) in message["en"] and "99" in message["en"]
    assert "変わり者" in message["ja"]


@pytest.mark.parametrize("game", GAMES)
def test_a_card_in_a_zone_the_game_does_not_have_is_an_unknown_zone_error(game: str) -> None:
    stray = card("stray", game, DECK_TYPE[game], name_en="Stray", name_ja="迷子")
    problem = assert_reports(
        legal_deck(game, extra=[entry(stray, "sideboard")]),
        common("unknown-zone", game, cards=("stray",)),
    )
    assert problem is not None
    assert problem.zone == "sideboard"
    fix = rendered(problem)["fix"]
    for zone in deck_rules(game).zones:
        for language in ("en", "ja"):  # each language names the zones in its own words
            with translation.override(language):
                assert str(zone.label) in fix[language]


MANY = {
    MH: (
        legal_monster_hunter(
            main=35,
            hunters=0,
            extra=[entry(MH_CARD, "main", 5), entry(card("h", MH, "hunter"), "main")],
        ),
        ["zone-type", "zone-size", "copy-limit", "needs-one"],
    ),
    OUKA: (
        legal_ouka_fushin(
            main=35,
            missions=[mission("m1"), mission("m1")],
            substitute=None,
            extra=[entry(OF_CARD, "main", 4)],
        ),
        ["zone-size", "copy-limit", "missions-differ", "substitute-missing"],
    ),
    RECHARGE: (
        legal_recharge(main=50, chips=[6] * 26, extra=[entry(SPIDEY, "main", 2)]),
        ["all-different", "chip-count", "chip-value", "chip-total", "standard-size"],
    ),
    UNMATCHED: (
        legal_unmatched(
            actions=30,
            extra=[
                entry(action("um-x", "Achilles"), "deck"),
                entry(card("q", UNMATCHED, "attack"), "deck", 0),
            ],
        ),
        ["quantity", "zone-size", "fighter"],
    ),
    MATTSAN: (
        legal_mattsan(
            main=20,
            extra=[
                entry(card("alien", "recharge", "hero"), "main"),
                entry(card("mt", MATTSAN, "trump"), "main", 4),
            ],
        ),
        ["foreign-card", "zone-size", "copy-limit"],
    ),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_deck_with_several_problems_reports_every_one_errors_first(game: str) -> None:
    deck_facts, expected = MANY[game]
    problems = check_deck(deck_facts)
    assert sorted(codes(problems)) == sorted(expected)
    ranks = [SEVERITY_ORDER[p.severity] for p in problems]
    assert ranks == sorted(ranks)
    assert not is_legal(problems)
    for problem in problems:
        rendered(problem)


def test_a_legal_deck_may_carry_information_and_warnings_but_no_error() -> None:
    problems = check_deck(legal_ouka_fushin(substitute=None))
    assert [p.severity for p in problems] == [WARNING]
    assert is_legal(problems)
    problems = check_deck(legal_recharge(main=60))
    assert [p.severity for p in problems] == [INFO]
    assert is_legal(problems)


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_cites_a_line_of_its_games_construction_rules(game: str) -> None:
    """A cite must land inside the digest's construction section (Recharge's Power Plus rules
    sit in its "Cards" section, lines 23-25)."""
    rules = deck_rules(game)
    digest, line, section = CONSTRUCTION[game]
    assert rules.construction == Cite(digest, line)
    cites = [z.cite for z in rules.zones if z.cite] + [r.cite for r in rules.rules]  # type: ignore[attr-defined]
    for cite in cites:
        assert cite.digest == digest
        assert cited_text(cite).strip()
        assert section_of(cite) == section, cite


def test_a_chip_of_true_is_not_a_one_point_chip() -> None:
    # JSON true is an int in Python; a chip list [5 x 10, true] must not count it as 1 point.
    problems = check_deck(legal_recharge(chips=[5] * 10 + [True]))
    value = the_one(problems, "chip-value")
    assert value.actual == [True]
