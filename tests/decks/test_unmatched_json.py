"""Unmatched decks as unmatched.cards deck JSON: the 59 official decks, fan-made decks with
their own cards (kept out of the public catalog), and exact round trips."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from catalog.models import Card, CardSet, Game, Printing, Product
from decks.imports.errors import DeckImportError
from decks.imports.service import deck_export, deck_import, deck_import_into
from decks.imports.text import parse_deck_text
from decks.models import Deck, DeckEntry, DeckRevision
from decks.services import deck_from_product
from games.unmatched.deck_json import export_unmatched_json, parse_unmatched_json

pytestmark = pytest.mark.django_db

DECKS_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "unmatched" / "decks"
DECK_FILES = sorted(DECKS_DIR.glob("*.json"))


@pytest.fixture(scope="module")
def catalog(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The project's committed catalogs, loaded once for this module (1-2 s each time)."""
    with django_db_blocker.unblock():
        games_before = set(Game.objects.values_list("pk", flat=True))
        call_command("load_catalogs", stdout=io.StringIO())
    yield
    with django_db_blocker.unblock():
        # committed outside the tests' transactions, so removed by hand for the next module
        for model in (Product, Card, CardSet):
            model.objects.all().delete()
        Game.objects.exclude(pk__in=games_before).delete()


@pytest.fixture(autouse=True)
def _catalog(catalog: None, db: None) -> None:
    """Every test here reads the catalog."""


@pytest.fixture
def unmatched() -> Game:
    return Game.objects.get(slug="unmatched")


def official(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DECKS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def custom_deck() -> dict[str, Any]:
    """A fan-made deck: its hero and two of its cards are in no catalog; Feint is."""

    def card(title: str, kind: str, value: int | None, boost: int, qty: int, who: str) -> Any:
        return {
            "title": title,
            "type": kind,
            "characterName": who,
            "value": value,
            "boost": boost,
            "quantity": qty,
            "basicText": "Some prose we never keep.",
        }

    return {
        "name": "Captain Custom",
        "hero": {"name": "Captain Custom", "hp": 15, "move": 2, "isRanged": False},
        "sidekick": {"name": "Sparky", "hp": 4, "move": 3, "isRanged": True, "quantity": 1},
        "cards": [
            card("Custom Strike", "attack", 4, 2, 3, "Captain Custom"),
            card("Spark Plan", "scheme", None, 3, 2, "Any"),
            card("Feint", "versatile", 2, 1, 3, "Any"),
        ],
    }


def entries_of(deck: Deck) -> list[tuple[str, str, int | None, int]]:
    return sorted(
        (e.zone, e.card.code, e.printing_id, e.quantity)
        for e in DeckEntry.objects.filter(deck=deck).select_related("card")
    )


def row_counts() -> tuple[int, ...]:
    return tuple(
        m.objects.count() for m in (Deck, DeckEntry, DeckRevision, Card, CardSet, Printing)
    )


# --- the official decks ------------------------------------------------------------------------


def test_the_shared_folder_holds_the_59_official_decks() -> None:
    assert len(DECK_FILES) == 59


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.stem)
def test_an_official_deck_reads_as_its_catalog_hero_deck_without_custom_cards(
    path: Path, owner: Any
) -> None:
    parsed = parse_unmatched_json(json.loads(path.read_text(encoding="utf-8")), user=owner)
    assert parsed.ok, parsed.problems
    assert parsed.new_rows == []
    assert all(e.card.owner_id is None and e.printing is not None for e in parsed.entries)
    items = Product.objects.get(game__slug="unmatched", code=path.stem).items.all()
    assert sorted((e.zone, e.card.pk, e.printing.pk, e.quantity) for e in parsed.entries) == sorted(
        (i.zone, i.printing.card_id, i.printing_id, i.quantity) for i in items
    )


def test_an_official_deck_imports_as_a_legal_deck(owner: Any, unmatched: Game) -> None:
    before = Card.objects.count()
    deck = deck_import(owner=owner, game=unmatched, data=official("achilles"), fmt="unmatched-json")
    assert (deck.name, deck.card_count, deck.is_legal) == ("Achilles", 30, True)
    assert Card.objects.count() == before


def test_a_deck_can_be_given_as_json_text(owner: Any, unmatched: Game) -> None:
    text = json.dumps(official("bullseye"))
    deck = deck_import(owner=owner, game=unmatched, data=text, fmt="unmatched-json")
    assert deck.card_count == 30
    with pytest.raises(DeckImportError):
        deck_import(owner=owner, game=unmatched, data="{not json", fmt="unmatched-json")


def test_deck_json_is_refused_for_another_game(owner: Any) -> None:
    mattsan = Game.objects.get(slug="mattsan")
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=mattsan, data=official("alice"), fmt="unmatched-json")
    assert refused.value.problems[0].code == "format"


def test_a_broken_deck_is_reported_by_json_path_and_nothing_is_saved(
    owner: Any, unmatched: Game
) -> None:
    data = official("alice")
    data["cards"][2]["quantity"] = 0
    data["cards"][3]["quantity"] = 120
    del data["hero"]["hp"]
    before = row_counts()
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=unmatched, data=data, fmt="unmatched-json")
    paths = {p.text for p in refused.value.problems}
    assert {"hero.hp", "cards[2].quantity"} <= paths
    assert row_counts() == before


# --- exporting ---------------------------------------------------------------------------------


def test_the_export_has_the_deck_json_shape_with_every_text_empty(owner: Any) -> None:
    deck = deck_from_product(product=Product.objects.get(code="alice"), user=owner)
    data = export_unmatched_json(deck)
    assert data["set"] == "Battle of Legends, Volume One"
    assert data["hero"]["name"] == "Alice" and data["sidekick"]["name"] == "The Jabberwock"
    assert sum(c["quantity"] for c in data["cards"]) == 30
    feint = next(c for c in data["cards"] if c["title"] == "Feint")
    assert (feint["type"], feint["characterName"], feint["value"], feint["boost"]) == (
        "versatile",
        "Any",
        2,
        2,
    )
    texts = ("imageUrl", "basicText", "immediateText", "duringText", "afterText")
    assert all(card[key] == "" for card in data["cards"] for key in texts)
    assert data["hero"]["specialAbility"] == ""


@pytest.mark.parametrize("code", ["alice", "bullseye", "raptors", "deadpool"])
def test_export_then_import_gives_back_the_same_deck(owner: Any, code: str) -> None:
    deck = deck_from_product(product=Product.objects.get(code=code), user=owner)
    data = deck_export(deck=deck, fmt="unmatched-json")
    again = deck_import(owner=owner, game=deck.game, data=data, fmt="unmatched-json")
    assert entries_of(again) == entries_of(deck)
    assert again.name == deck.name


# --- a fan-made deck ---------------------------------------------------------------------------


def test_a_custom_deck_creates_the_players_own_cards(owner: Any, unmatched: Game) -> None:
    deck = deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    mine = Card.objects.filter(owner=owner)
    assert sorted(mine.values_list("code", flat=True)) == [
        f"u{owner.pk}-character-captain-custom",
        f"u{owner.pk}-custom-strike",
        f"u{owner.pk}-spark-plan",
    ]
    hero = mine.get(card_type="character")
    assert hero.attributes["hp"] == 15 and hero.attributes["sidekick"] == "Sparky"
    custom_set = CardSet.objects.get(owner=owner)
    assert custom_set.code == f"custom-{owner.pk}-captain-custom"
    strike = Printing.objects.get(card__code=f"u{owner.pk}-custom-strike")
    assert strike.card_set == custom_set
    assert strike.attributes == {"fighter": "Captain Custom", "boost": 2}
    feint = DeckEntry.objects.get(deck=deck, card__code="feint")
    assert feint.card.owner is None
    assert deck.card_count == 8


def test_custom_cards_stay_out_of_the_public_catalog(owner: Any, unmatched: Game) -> None:
    deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    public = Card.objects.filter(owner__isnull=True)
    assert not public.filter(name_en__in=["Custom Strike", "Spark Plan", "Captain Custom"]).exists()
    assert not public.filter(code__startswith=f"u{owner.pk}-").exists()
    assert not CardSet.objects.filter(owner__isnull=True, code__startswith="custom-").exists()


def test_another_player_cannot_match_someone_elses_custom_cards(
    owner: Any, stranger: Any, unmatched: Game
) -> None:
    deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    assert parse_deck_text("1 Custom Strike", game=unmatched, user=owner).ok
    (problem,) = parse_deck_text("1 Custom Strike", game=unmatched, user=stranger).problems
    assert problem.code == "unknown-card"
    (problem,) = parse_deck_text(f"1 #u{owner.pk}-custom-strike", game=unmatched).problems
    assert problem.code == "unknown-card"
    deck = deck_import(owner=stranger, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    codes = {e.card.code for e in DeckEntry.objects.filter(deck=deck).select_related("card")}
    assert f"u{stranger.pk}-custom-strike" in codes
    assert not any(code.startswith(f"u{owner.pk}-") for code in codes)


def test_importing_the_same_custom_deck_again_reuses_the_players_cards(
    owner: Any, unmatched: Game
) -> None:
    first = deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    before = (Card.objects.count(), CardSet.objects.count(), Printing.objects.count())
    again = deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    assert (Card.objects.count(), CardSet.objects.count(), Printing.objects.count()) == before
    assert entries_of(again) == entries_of(first)


def test_a_custom_card_with_other_facts_is_a_new_card_of_its_own(
    owner: Any, unmatched: Game
) -> None:
    deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    changed = custom_deck()
    changed["cards"][0]["value"] = 5
    deck = deck_import(owner=owner, game=unmatched, data=changed, fmt="unmatched-json")
    strike = DeckEntry.objects.get(deck=deck, card__name_en="Custom Strike").card
    assert (strike.code, strike.attributes) == (f"u{owner.pk}-custom-strike-2", {"value": 5})


def test_a_custom_deck_round_trips_through_its_export(owner: Any, unmatched: Game) -> None:
    deck = deck_import(owner=owner, game=unmatched, data=custom_deck(), fmt="unmatched-json")
    before = Card.objects.count()
    data = deck_export(deck=deck, fmt="unmatched-json")
    assert isinstance(data, dict)
    assert data["hero"]["name"] == "Captain Custom"
    again = deck_import(owner=owner, game=unmatched, data=data, fmt="unmatched-json")
    assert entries_of(again) == entries_of(deck)
    assert Card.objects.count() == before
    text = deck_export(deck=deck, fmt="text")
    assert isinstance(text, str)
    assert entries_of(deck_import(owner=owner, game=unmatched, text=text)) == entries_of(deck)


def test_bad_custom_values_are_reported_and_nothing_is_saved(owner: Any, unmatched: Game) -> None:
    data = custom_deck()
    data["hero"]["hp"] = 0
    data["cards"][0]["value"] = 25
    data["cards"][1]["boost"] = 12
    before = row_counts()
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=unmatched, data=data, fmt="unmatched-json")
    assert {p.text for p in refused.value.problems} == {
        "hero.hp",
        "cards[0].value",
        "cards[1].boost",
    }
    assert row_counts() == before


def test_a_refused_import_into_a_deck_leaves_no_custom_cards(owner: Any, unmatched: Game) -> None:
    deck = deck_from_product(product=Product.objects.get(code="alice"), user=owner)
    before = row_counts()
    with pytest.raises(DeckImportError):
        bad = copy.deepcopy(custom_deck())
        bad["cards"][0]["quantity"] = 100
        deck_import_into(
            deck=deck, user=owner, expected_version=deck.version, data=bad, fmt="unmatched-json"
        )
    assert row_counts() == before


def test_a_stale_import_into_a_deck_rolls_its_custom_cards_back(
    owner: Any, unmatched: Game
) -> None:
    deck = deck_from_product(product=Product.objects.get(code="alice"), user=owner)
    before = row_counts()
    with pytest.raises(Exception, match="changed elsewhere"):
        deck_import_into(
            deck=deck, user=owner, expected_version=0, data=custom_deck(), fmt="unmatched-json"
        )
    assert row_counts() == before


def test_custom_cards_need_an_account() -> None:
    parsed = parse_unmatched_json(custom_deck(), user=None)
    assert [p.code for p in parsed.problems] == ["account"]
    assert parsed.entries == [] and parsed.new_rows == []
