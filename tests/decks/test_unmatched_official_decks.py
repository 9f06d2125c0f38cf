"""All 59 official Unmatched hero decks, imported from ../shared/data/unmatched, under the
Unmatched construction rules (shared/rules/unmatched.md lines 16-19).

A deck whose published list has 30 action cards is legal; the few the source lists with another
count (shared/data/unmatched/README.md: "a few decks in the source do not total 30 cards")
report exactly one problem, the deck size, with their real count. No official card is ever
refused for its fighter.

The catalog is imported once for the module inside a transaction that is rolled back, so the
tests only read pure DeckFacts and the database is left as it was found.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import transaction

from catalog.models import Product
from decks.legality.check import check_deck
from decks.legality.facts import DeckFacts
from decks.legality.load import product_facts
from decks.legality.problems import Cite, Severity
from games.official import start_deck
from games.unmatched.catalog import HERO_DECK
from games.unmatched.rules import ANY_FIGHTER, fighter_names, may_use
from tests.decks.legality_builders import cited_text, rendered

SHARED = Path(settings.BASE_DIR).parent / "shared" / "data" / "unmatched"
DECK_FILES = sorted((SHARED / "decks").glob("*.json")) if SHARED.is_dir() else []

pytestmark = [
    pytest.mark.skipif(not DECK_FILES, reason="needs ../shared/data/unmatched"),
    # tells pytest-django the module uses the database, so the test database is created
    # before the module fixture below imports into it
    pytest.mark.django_db,
]


def published(file: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return data


#: deck id -> the number of action cards its published list adds up to
PUBLISHED_SIZES = {
    published(f)["id"]: sum(c["quantity"] for c in published(f)["cards"]) for f in DECK_FILES
}
ODD_SIZES = {deck: size for deck, size in PUBLISHED_SIZES.items() if size != 30}

# Fighter names that match neither the hero nor the sidekick by name: Deadpool's cards are
# printed for joke names, and the source gives Bigfoot the sidekick "Outlaws" and Robin Hood
# none (its seed V2__insert.sql attaches sidekicks to deck ids 6 and 7, one off: The Jackalope
# lands on Bruce Lee). Only the own-deck rule keeps these cards legal in their own deck.
KNOWN_BY_NAME_MISMATCHES = {
    ("bigfoot", "Jackalope"),
    ("deadpool", "Cable's only true friend"),
    ("deadpool", "Deadp$$l"),
    ("deadpool", "Deadp♥️♥️l"),
    ("deadpool", "Deadp👁👁l"),
    ("deadpool", "Dp"),
    ("deadpool", "Merc with a mouth"),
    ("deadpool", "Pool"),
    ("robin-hood", "Outlaw"),
}


@pytest.fixture(scope="module")
def official(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, DeckFacts]]:
    """Every hero-deck product of the real data, as the checker sees it."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("import_catalog", str(SHARED), stdout=StringIO())
        products = (
            Product.objects.filter(game__slug="unmatched", kind=HERO_DECK)
            .prefetch_related("items__printing__card_set", "items__printing__card__game")
            .order_by("code")
        )
        facts = {p.code: product_facts(p.items.all(), "unmatched") for p in products}
        transaction.set_rollback(True)
    yield facts


def test_every_published_deck_file_became_a_hero_deck_product(
    official: dict[str, DeckFacts],
) -> None:
    assert len(DECK_FILES) == 59
    assert sorted(official) == sorted(PUBLISHED_SIZES)


def test_the_decks_not_of_30_are_the_ones_the_source_documents() -> None:
    # computed from the data above; pinned here so a change in the data is noticed
    assert ODD_SIZES == {
        "black-widow": 31,
        "buffy": 35,
        "daredevil": 22,
        "elektra": 20,
        "geralt-of-rivia": 36,
    }


@pytest.mark.parametrize("deck_id", sorted(PUBLISHED_SIZES))
def test_each_official_list_alone_is_legal_unless_it_is_not_30_cards(
    official: dict[str, DeckFacts], deck_id: str
) -> None:
    """The product's list with no choice made and no note applied (what a custom deck with
    the same cards would be)."""
    facts = official[deck_id]
    problems = [p for p in check_deck(facts) if p.code != "sidekick-choice"]
    assert facts.count("hero") == 1
    assert facts.count("deck") == PUBLISHED_SIZES[deck_id]
    assert [p for p in problems if p.code == "fighter"] == []
    if deck_id not in ODD_SIZES:
        assert problems == [], [p.as_dict() for p in problems]
        return
    (problem,) = problems
    assert (problem.code, problem.severity) == ("zone-size", Severity.ERROR)
    assert (problem.expected, problem.actual) == (30, ODD_SIZES[deck_id])
    assert problem.cite == Cite("unmatched.md", 18)
    assert "exactly 30 action cards" in cited_text(problem.cite)
    message = rendered(problem)["message"]["en"]
    assert str(ODD_SIZES[deck_id]) in message and "30" in message


def started(facts: DeckFacts, deck_id: str) -> DeckFacts:
    """The deck a player gets from the product: the game's default choices applied."""
    entries, extras = start_deck("unmatched", deck_id, list(facts.entries))
    return dataclasses.replace(facts, entries=tuple(entries), extras=extras)


@pytest.mark.parametrize("deck_id", sorted(PUBLISHED_SIZES))
def test_every_official_deck_started_from_its_product_is_legal(
    official: dict[str, DeckFacts], deck_id: str
) -> None:
    problems = check_deck(started(official[deck_id], deck_id))
    assert [p for p in problems if p.is_error] == [], [p.as_dict() for p in problems]


# the decks our data notes explain, with the count their source lists (Buffy's is 30 once the
# sidekick is chosen, so it has nothing left to explain)
NOTED = {"black-widow": 31, "daredevil": 22, "elektra": 20, "geralt-of-rivia": 36}


@pytest.mark.parametrize("deck_id", sorted(NOTED))
def test_an_official_deck_the_source_lists_otherwise_is_explained_by_its_data_note(
    official: dict[str, DeckFacts], deck_id: str
) -> None:
    (problem,) = check_deck(started(official[deck_id], deck_id))
    assert (problem.code, problem.severity) == ("official-list", Severity.WARNING)
    assert (problem.expected, problem.actual) == (30, NOTED[deck_id])
    message = rendered(problem)["message"]
    assert "UnmatchedTracker" in message["en"] and f"decks/{deck_id}.json" in message["en"]
    assert "Add" not in message["en"] and "出典" in message["ja"]


def test_an_official_deck_changed_away_from_its_listed_count_is_held_to_30_again(
    official: dict[str, DeckFacts],
) -> None:
    facts = started(official["daredevil"], "daredevil")
    first = facts.in_zone("deck")[0]
    shorter = tuple(e for e in facts.entries if e is not first)
    (problem,) = check_deck(dataclasses.replace(facts, entries=shorter))
    assert (problem.code, problem.severity, problem.actual) == (
        "zone-size",
        Severity.ERROR,
        22 - first.quantity,
    )


def test_buffy_started_from_her_box_plays_giles_and_leaves_xanders_cards_out(
    official: dict[str, DeckFacts],
) -> None:
    facts = started(official["buffy"], "buffy")
    assert facts.extras == {"official": "buffy", "sidekick": "Giles"}
    assert facts.count("deck") == 30
    fighters = {str(e.printing.attributes["fighter"]) for e in facts.in_zone("deck") if e.printing}
    assert fighters == {"Buffy", "Giles", "any"}
    assert check_deck(facts) == []


def test_buffy_with_xander_chosen_but_giles_cards_kept_is_told_which_cards_to_remove(
    official: dict[str, DeckFacts],
) -> None:
    facts = started(official["buffy"], "buffy")
    problems = check_deck(dataclasses.replace(facts, extras={"sidekick": "Xander"}))
    assert sorted((p.code, p.cards[0].name_en) for p in problems) == [
        ("fighter", "Insight"),
        ("fighter", "Training"),
    ]


@pytest.mark.parametrize(
    ("extras", "codes"),
    [
        ({}, ["sidekick-choice"]),  # both sidekicks' cards and no choice
        ({"sidekick": "Spike"}, ["sidekick-choice"]),  # not one of hers
    ],
)
def test_buffy_needs_one_of_her_own_sidekicks_chosen(
    official: dict[str, DeckFacts], extras: dict[str, str], codes: list[str]
) -> None:
    facts = dataclasses.replace(official["buffy"], extras=extras)
    problems = [p for p in check_deck(facts) if p.code != "zone-size"]
    assert [p.code for p in problems] == codes
    assert problems[0].severity is Severity.ERROR
    assert (
        "Giles / Xander"
        in rendered(problems[0])["fix"]["en"] + rendered(problems[0])["message"]["en"]
    )


def test_by_name_alone_only_the_known_odd_fighters_need_the_own_deck_rule(
    official: dict[str, DeckFacts],
) -> None:
    """The name matcher (games/unmatched/rules.py) on its own: every fighter printed in an
    official deck names its hero or sidekick, apart from the known cases above."""
    mismatches = set()
    for deck_id, facts in official.items():
        (character,) = (e.card for e in facts.in_zone("hero"))
        sidekick = str(character.attributes.get("sidekick") or "")
        names = fighter_names(character.name_en, sidekick, character.code)
        for line in facts.in_zone("deck"):
            assert line.printing is not None
            fighter = str(line.printing.attributes["fighter"])
            assert line.printing.number == deck_id  # printed in this very deck
            if fighter != ANY_FIGHTER and not may_use(fighter, names):
                mismatches.add((deck_id, fighter))
    assert mismatches == KNOWN_BY_NAME_MISMATCHES


@pytest.mark.parametrize(
    ("deck_id", "spelled"),
    [("bloody-mary", "Bloody Mary"), ("the-genie", "The Genie"), ("black-widow", "Maria Hill")],
)
def test_fighters_are_spelled_as_their_character_card_spells_them(
    official: dict[str, DeckFacts], deck_id: str, spelled: str
) -> None:
    """The source writes "Bloody mary"; the reader takes the character card's spelling."""
    fighters = {
        str(e.printing.attributes["fighter"])
        for e in official[deck_id].in_zone("deck")
        if e.printing
    }
    assert spelled in fighters
    assert not any(f.casefold() == spelled.casefold() and f != spelled for f in fighters)


def test_the_committed_catalog_spells_fighters_as_the_character_cards_do() -> None:
    data = json.loads((Path(settings.BASE_DIR) / "games/unmatched/catalog.json").read_text("utf-8"))
    names: dict[str, list[str]] = {}
    for card in data["cards"]:
        if card["type"] == "character":
            sidekick = card["attributes"].get("sidekick")
            for printing in card["printings"]:
                names[printing["number"]] = [card["name_en"], *([sidekick] if sidekick else [])]
    misspelt = {
        (printing["number"], fighter)
        for card in data["cards"]
        for printing in card.get("printings", [])
        if (fighter := printing.get("attributes", {}).get("fighter"))
        and any(
            n.casefold() == fighter.casefold() and n != fighter
            for n in names.get(printing["number"], [])
        )
    }
    assert misspelt == set()
