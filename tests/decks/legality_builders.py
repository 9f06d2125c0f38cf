"""Small builders of DeckFacts for the legality tests: pure data, no database.

Every game has a ``legal_<game>()`` builder returning a deck with no problem at all, with
keyword arguments to move one count to a boundary (``main=39``), so a test changes exactly one
thing and sees exactly one problem. Cards are named in both languages, so rendered messages
can be checked for the card's name in English and Japanese.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from decks.legality.facts import CardFacts, DeckFacts, EntryFacts, PrintingFacts
from decks.legality.problems import Cite, Problem
from games.recharge.catalog import POWER_PLUS
from games.unmatched.rules import ANY_FIGHTER

MH, OUKA, RECHARGE, UNMATCHED, MATTSAN = (
    "monster-hunter",
    "ouka-fushin",
    "recharge",
    "unmatched",
    "mattsan",
)
GAMES = (MH, OUKA, RECHARGE, UNMATCHED, MATTSAN)
RULES_DIR = Path(settings.BASE_DIR).parent / "shared" / "rules"


# --- cards and entries ---------------------------------------------------------------------


def card(
    code: str,
    game: str,
    card_type: str,
    *,
    name_en: str | None = None,
    name_ja: str | None = None,
    attributes: Mapping[str, Any] | None = None,
    copy_limit: int | None = None,
    printings: Sequence[PrintingFacts] = (),
) -> CardFacts:
    return CardFacts(
        code=code,
        game=game,
        card_type=card_type,
        name_en=name_en if name_en is not None else f"Card {code}",
        name_ja=name_ja if name_ja is not None else f"カード{code}",
        attributes=dict(attributes or {}),
        copy_limit=copy_limit,
        printings=tuple(printings),
    )


def entry(
    of: CardFacts, zone: str, quantity: int = 1, printing: PrintingFacts | None = None
) -> EntryFacts:
    return EntryFacts(card=of, zone=zone, quantity=quantity, printing=printing)


def deck(
    game: str,
    entries: Iterable[EntryFacts],
    *,
    variant: str = "",
    extras: Mapping[str, Any] | None = None,
) -> DeckFacts:
    return DeckFacts(game=game, entries=tuple(entries), variant=variant, extras=dict(extras or {}))


def distinct(
    game: str, zone: str, card_type: str, count: int, *, prefix: str = "filler"
) -> list[EntryFacts]:
    """``count`` different cards, one copy each: a zone of that size that no copy limit sees."""
    return [entry(card(f"{prefix}-{index:03d}", game, card_type), zone) for index in range(count)]


# --- one legal deck per game -----------------------------------------------------------------


def legal_monster_hunter(
    *, main: int = 40, hunters: int = 1, extra: Iterable[EntryFacts] = ()
) -> DeckFacts:
    cards = distinct(MH, "main", "monster", main)
    cards += distinct(MH, "hunter", "hunter", hunters, prefix="hunter")
    return deck(MH, [*cards, *extra])


PROTAGONIST = card(
    "taikoubou", OUKA, "protagonist", name_en="Taikoubou", name_ja="太公望",
    attributes={"character": "taikoubou"},
)  # fmt: skip
SUBSTITUTE = card(
    "nataku", OUKA, "protagonist", name_en="Nataku", name_ja="哪吒",
    attributes={"character": "nataku"},
)  # fmt: skip


def mission(code: str) -> CardFacts:
    return card(code, OUKA, "mission", name_en=f"Mission {code}", name_ja=f"使命{code}")


def legal_ouka_fushin(
    *,
    main: int = 40,
    protagonists: int = 1,
    missions: Sequence[CardFacts] | None = None,
    substitute: CardFacts | None = SUBSTITUTE,
    extra: Iterable[EntryFacts] = (),
) -> DeckFacts:
    """Stories only in the main deck, so no character card would need a spare."""
    cards = distinct(OUKA, "main", "story", main)
    cards += [entry(PROTAGONIST, "protagonist")] * protagonists
    chosen = missions if missions is not None else (mission("m1"), mission("m2"))
    cards += [entry(m, "missions") for m in chosen]
    if substitute is not None:
        cards.append(entry(substitute, "substitute"))
    return deck(OUKA, [*cards, *extra])


LEGAL_CHIPS: tuple[int, ...] = (2,) * 25  # 25 chips of 2: the most chips, the lowest total


def recharge_card(code: str, card_type: str = "hero") -> CardFacts:
    return card(
        code,
        RECHARGE,
        card_type,
        printings=(
            PrintingFacts("rc-test", code),
            PrintingFacts("rc-test", code, POWER_PLUS),
        ),
    )


def normal(of: CardFacts) -> PrintingFacts:
    return next(p for p in of.printings if p.variant != POWER_PLUS)


def power_plus(of: CardFacts) -> PrintingFacts:
    return next(p for p in of.printings if p.variant == POWER_PLUS)


def legal_recharge(
    *,
    main: int = 50,
    chips: Sequence[Any] | None = LEGAL_CHIPS,
    variant: str = "basic",
    extra: Iterable[EntryFacts] = (),
) -> DeckFacts:
    cards = [
        entry(recharge_card(f"rc-{index:03d}"), "main", printing=None) for index in range(main)
    ]
    extras = {} if chips is None else {"chips": list(chips)}
    return deck(RECHARGE, [*cards, *extra], variant=variant, extras=extras)


def hero(
    name: str = "Medusa",
    sidekick: str = "Harpies",
    *,
    deck_id: str = "medusa",
    name_ja: str = "メデューサ",
) -> CardFacts:
    """An Unmatched character card, printed (as the importer does) with its deck id."""
    return card(
        f"character-{deck_id}",
        UNMATCHED,
        "character",
        name_en=name,
        name_ja=name_ja,
        attributes={"hp": 16, "move": 3, "ranged": True, "sidekick": sidekick},
        printings=(PrintingFacts("um-test", deck_id, "", {"fighter": name, "boost": 0}),),
    )


def action(
    code: str, fighter: str = ANY_FIGHTER, *, deck_id: str = "other-box", card_type: str = "attack"
) -> CardFacts:
    """An action card printed once, for ``fighter``, in the hero deck ``deck_id``."""
    return card(
        code,
        UNMATCHED,
        card_type,
        attributes={"value": 3},
        printings=(PrintingFacts("um-test", deck_id, "", {"fighter": fighter, "boost": 1}),),
    )


def legal_unmatched(
    *,
    actions: int = 30,
    heroes: int = 1,
    character: CardFacts | None = None,
    extra: Iterable[EntryFacts] = (),
) -> DeckFacts:
    character = character or hero()
    cards = [entry(action(f"any-{index:03d}"), "deck") for index in range(actions)]
    cards += [entry(character, "hero")] * heroes
    return deck(UNMATCHED, [*cards, *extra])


def legal_mattsan(*, main: int = 30, extra: Iterable[EntryFacts] = ()) -> DeckFacts:
    return deck(MATTSAN, [*distinct(MATTSAN, "main", "unit", main), *extra])


def legal_deck(game: str, *, shorter_by: int = 0, extra: Iterable[EntryFacts] = ()) -> DeckFacts:
    """The game's legal deck with its deck zone ``shorter_by`` cards short, plus ``extra``."""
    if game == MH:
        return legal_monster_hunter(main=40 - shorter_by, extra=extra)
    if game == OUKA:
        return legal_ouka_fushin(main=40 - shorter_by, extra=extra)
    if game == RECHARGE:
        return legal_recharge(main=50 - shorter_by, extra=extra)
    if game == UNMATCHED:
        return legal_unmatched(actions=30 - shorter_by, extra=extra)
    if game == MATTSAN:
        return legal_mattsan(main=30 - shorter_by, extra=extra)
    raise LookupError(game)


#: the zone each game shuffles and counts (its deck proper)
DECK_ZONE = {MH: "main", OUKA: "main", RECHARGE: "main", UNMATCHED: "deck", MATTSAN: "main"}
#: a card type each game's deck zone takes
DECK_TYPE = {MH: "weapon", OUKA: "climax", RECHARGE: "power", UNMATCHED: "scheme", MATTSAN: "trap"}


# --- reading results -------------------------------------------------------------------------


def codes(problems: Iterable[Problem]) -> list[str]:
    return [p.code for p in problems]


def errors(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]


def the_one(problems: Sequence[Problem], code: str) -> Problem:
    """The only problem of the list, which must have this code."""
    assert codes(problems) == [code], [p.as_dict() for p in problems]
    return problems[0]


@cache
def _digest_lines(digest: str) -> tuple[str, ...]:
    return tuple((RULES_DIR / digest).read_text(encoding="utf-8").splitlines())


def cited_text(cite: Cite) -> str:
    """The digest line a problem cites (lines count from 1)."""
    lines = _digest_lines(cite.digest)
    assert 1 <= cite.line <= len(lines), f"{cite} is past the end of {cite.digest}"
    return lines[cite.line - 1]


def cited_bullet(cite: Cite) -> str:
    """The whole list item the cited line belongs to (a rule may wrap over several lines)."""
    lines = _digest_lines(cite.digest)
    start = cite.line - 1
    while start > 0 and lines[start].startswith("  ") and not lines[start].lstrip().startswith("-"):
        start -= 1
    end = cite.line
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    return " ".join(line.strip() for line in lines[start:end])


def section_of(cite: Cite) -> str:
    """The ``## `` heading the cited line sits under."""
    lines = _digest_lines(cite.digest)
    for line in reversed(lines[: cite.line]):
        if line.startswith("## "):
            return line[3:].strip()
    return ""


def rendered(problem: Problem) -> dict[str, dict[str, str]]:
    """Message and fix in both languages, asserting each is there and not empty."""
    record = problem.as_dict()
    out: dict[str, dict[str, str]] = {"message": record["message"]}
    if record["fix"] is not None:
        out["fix"] = record["fix"]
    for part in out.values():
        for language in ("en", "ja"):
            assert part[language].strip(), (problem.code, language)
            assert "%(" not in part[language], part[language]  # every parameter was filled
    return out
