"""The seam's proof, every feature: the sixth game (Pebbles, tests/games/sixth_game.py), one
package outside the repository declaring every part of the contract, gets each feature a
built-in game gets with no edit to shared code: its own search fields, a sideboard zone and a
resource extra in the editor and the legality panel, its own deck and catalog formats, an
official product with its data notes and start, collection items in its own finishes, a CSV
import and the owned/missing report of a deck, its rules reference, its labels in Japanese
and the engine conformance checks."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from catalog.models import Card, Game, Printing, Product
from collection.models import CollectionItem
from decks.imports.errors import DeckImportError
from decks.imports.service import deck_export, deck_import
from decks.models import Deck
from games import registry
from games.contract import declared_parts
from games.registry import Game as GameEntry
from simulator.conformance import CHECKS
from tests.games import sixth_game_fixtures as fixtures
from tests.games.sixth_game import DECK_FORMAT, JAPANESE, PACKAGE, SLUG

HTMX = {"HTTP_HX_REQUEST": "true"}
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
# the fixtures this module uses (pytest finds them by their names here)
pebbles, catalog, deck = fixtures.pebbles, fixtures.catalog, fixtures.deck
japanese_labels = fixtures.japanese_labels


def _codes(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return sorted(c["code"] for c in response.json()["results"])


def test_it_declares_every_part_of_the_contract(pebbles: Path) -> None:
    """Nothing is left at its default: each part below is the game's own."""
    game = registry.get(SLUG)
    missing = [name for name in declared_parts(GameEntry) if not getattr(game, name)]
    assert missing == []
    for path in ("catalog.json", "reference.json", "templates/face.html", "static/face.css"):
        assert (game.directory / path).exists(), path


def test_its_own_search_fields_find_its_cards_on_its_pages_and_in_the_api(
    catalog: Game, client: Client
) -> None:
    api = f"/api/v1/games/{SLUG}/cards/"
    assert _codes(client.get(api, {"q": "hue:red"})) == ["PB-002"]
    assert _codes(client.get(api, {"q": "weight>=2 -hue:blue"})) == ["PB-002", "PB-004"]
    # its search.py field reads two attributes: a pebble's hue, a keeper's lantern
    assert _codes(client.get(api, {"q": "colour:red"})) == ["PB-002", "PB-100"]
    # its facets filter the API too
    assert _codes(client.get(api, {"hue": "blue"})) == ["PB-003"]
    page = client.get(reverse("catalog:game", args=[SLUG]), {"q": "hue:green"})
    html = page.content.decode()
    assert page.status_code == 200 and "Green Pebble" in html and "Grey Pebble" not in html
    assert "/static/games/pebbles/face.css" in html  # its stylesheet, from its static/
    wrong = client.get(api, {"q": "hue:purple"})
    assert wrong.status_code == 400
    help_page = client.get(reverse("catalog:search-help")).content.decode()
    assert "hue:red" in help_page and "colour:red" in help_page  # its fields' examples


def test_its_sideboard_is_kept_checked_and_never_drawn(deck: Deck, owner_client: Client) -> None:
    zones = {e.zone: 0 for e in deck.entries.all()}
    for entry in deck.entries.all():
        zones[entry.zone] += entry.quantity
    assert zones == {"keeper": 1, "bag": 10, "pouch": 2}
    assert deck.extras == {"tokens": 7, "marks": [2, 1]}
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert "pouch" in page and "Green Pebble" in page and "Marks: 2 1 (3 points)" in page
    # a pouch of 4 breaks its rule (pebbles.md:7); the bag stays legal
    url = reverse("decks:edit-add", args=[deck.public_id])
    form = {"version": deck.version, "card": "PB-004", "zone": "pouch", "delta": 2}
    added = owner_client.post(url, form, **HTMX)
    assert added.status_code == 200, added.content
    # added without a printing: pinned by its default_printing hook
    assert deck.entries.get(zone="pouch").printing.collector_number == "004"
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert 'data-problem="zone-size"' in page and "pebbles.md:7" in page
    # the pouch is never drawn: ten pebbles in the deck proper, the test hand deals from them
    odds = owner_client.get(
        f"/api/v1/decks/{deck.public_id}/odds/", {"group": "type:pebble", "k": 1, "turns": 0}
    ).json()
    assert odds["deck_size"] == 10
    hand = owner_client.get(f"/api/v1/decks/{deck.public_id}/test-hand/", {"seed": 3, "turns": 7})
    drawn = [c["name"] for d in hand.json()["draws"] for c in d["cards"]]
    assert len(drawn) == 10 and "Green Pebble" not in drawn  # the whole bag, no pouch


def test_its_resource_extra_is_edited_and_checked(deck: Deck, owner_client: Client) -> None:
    editor = owner_client.get(reverse("decks:edit", args=[deck.public_id])).content.decode()
    assert 'id="marks-editor"' in editor
    url = reverse("decks:edit-extra", args=[deck.public_id, "marks"])
    refused = owner_client.post(url, {"version": deck.version, "marks": "3 3 3 3 3"}, **HTMX)
    assert refused.status_code == 400 and "At most 4 marks." in refused.content.decode()
    saved = owner_client.post(url, {"version": deck.version, "marks": "3 3 1"}, **HTMX)
    assert saved.status_code == 200, saved.content
    deck.refresh_from_db()
    assert deck.extras["marks"] == [3, 3, 1]
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert 'data-problem="too-many-mark-points"' in page and "pebbles.md:8" in page


def test_its_text_list_round_trips_with_its_sideboard_and_extras(deck: Deck, owner: Any) -> None:
    text = deck_export(deck=deck)
    assert isinstance(text, str)
    assert "## pouch" in text and "2 Green Pebble" in text and "marks: 2 1" in text
    again = deck_import(owner=owner, game=deck.game, text=text)
    assert again.extras == deck.extras
    assert sorted((e.zone, e.card.code, e.quantity) for e in again.entries.all()) == sorted(
        (e.zone, e.card.code, e.quantity) for e in deck.entries.all()
    )


def test_its_own_deck_format_imports_and_exports(
    deck: Deck, owner: Any, owner_client: Client
) -> None:
    exported = deck_export(deck=deck, fmt=DECK_FORMAT)
    assert exported == {
        "format": DECK_FORMAT,
        "name": "Bag of stones",
        "keeper": {"PB-100": 1},
        "bag": {"PB-001": 4, "PB-002": 3, "PB-003": 3},
        "pouch": {"PB-004": 2},
        "tokens": 7,
    }
    page = owner_client.get(reverse("decks:export", args=[deck.public_id, DECK_FORMAT]))
    assert page.status_code == 200 and page.json() == exported
    twin = deck_import(owner=owner, game=deck.game, data={**exported, "tokens": 1}, fmt=DECK_FORMAT)
    assert twin.extras == {"tokens": 1}
    assert twin.entries.get(zone="pouch").quantity == 2
    # its JSON pasted as a text list is recognised as its format
    pasted = deck_import(owner=owner, game=deck.game, text=json.dumps(exported))
    assert pasted.entries.count() == deck.entries.count() and pasted.extras == {"tokens": 7}
    unknown = {"format": DECK_FORMAT, "bag": {"PB-999": 1}}
    with pytest.raises(DeckImportError) as refused:
        deck_import(owner=owner, game=deck.game, data=unknown, fmt=DECK_FORMAT)
    assert "bag.PB-999" in str(refused.value.problems)
    menu = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert reverse("decks:export", args=[deck.public_id, DECK_FORMAT]) in menu


def test_its_own_catalog_format_loads_new_cards(catalog: Game, pebbles: Path) -> None:
    call_command("import_catalog", str(pebbles / "pebble-bag.json"), verbosity=0)
    card = Card.objects.get(game=catalog, code="PBS-001")
    assert (card.name_ja, card.attributes) == ("シーグラス", {"weight": 4, "hue": "blue"})


def test_its_official_product_shows_its_notes_and_starts_a_deck(
    catalog: Game, owner_client: Client
) -> None:
    url = reverse("catalog:product", args=[SLUG, "PB-START"])
    page = owner_client.get(url).content.decode()
    assert "data-data-note" in page and "the rulebook forgets it" in page
    ja = owner_client.get(url, **JA).content.decode()
    assert "ルールブックには載っていません" in ja and "ペブルス スターター" in ja
    started = owner_client.post(reverse("decks:from-product", args=[SLUG, "PB-START"]))
    assert started.status_code == 302, started.content
    deck = Deck.objects.get(source_product__code="PB-START")
    assert deck.extras == {"tokens": 2, "marks": [2, 1]}  # its start_deck
    assert deck.entries.get(zone="pouch").card.code == "PB-004"
    assert deck.is_legal


def test_its_collection_takes_its_finishes_a_csv_and_reports_a_deck(
    deck: Deck, owner: Any, owner_client: Client
) -> None:
    csv = (
        "game,card,set,number,quantity,finish,language\n"
        "pebbles,PB-001,PB,001,4,polished,ja\n"
        "pebbles,PB-002,PB,002,3,normal,en\n"
        "pebbles,PB-100,PB,100,1,normal,en\n"
    )
    preview = owner_client.post(reverse("collection:import"), {"game": SLUG, "text": csv})
    assert preview.status_code == 200, preview.content.decode()
    batch = preview.context["preview"].batch
    committed = owner_client.post(reverse("collection:import-commit", args=[batch.pk]))
    assert committed.status_code in (200, 302), committed.content
    items = CollectionItem.objects.filter(owner=owner)
    assert sorted((i.printing.card.code, i.quantity, i.finish, i.language) for i in items) == [
        ("PB-001", 4, "polished", "ja"),
        ("PB-002", 3, "normal", "en"),
        ("PB-100", 1, "normal", "en"),
    ]
    # a finish another game has is not this game's
    foil = csv.replace("polished", "foil")
    refused = owner_client.post(reverse("collection:import"), {"game": SLUG, "text": foil})
    assert refused.status_code == 400 and "is not a finish of this game" in refused.content.decode()
    # the deck: 3 Blue Pebbles and 2 Green missing
    report = owner_client.get(f"/api/v1/decks/{deck.public_id}/collection/").json()
    assert (report["needed"], report["owned"], report["missing"]) == (13, 8, 5)
    missing = {e["card"]: e["missing"] for e in report["entries"] if e["missing"]}
    assert missing == {"PB-003": 3, "PB-004": 2}
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert 'data-missing-card="PB-003"' in page and 'data-missing-card="PB-004"' in page
    # owned and missing in its card search
    api = f"/api/v1/games/{SLUG}/cards/"
    assert _codes(owner_client.get(api, {"q": "is:owned"})) == ["PB-001", "PB-002", "PB-100"]
    assert _codes(owner_client.get(api, {"q": "is:missing"})) == ["PB-003", "PB-004"]
    # the polished copies are shown by their label
    mine = owner_client.get(reverse("collection:game", args=[SLUG])).content.decode()
    assert "Polished" in mine


def test_its_rules_page_and_citations_link_to_its_reference(
    deck: Deck, client: Client, owner_client: Client
) -> None:
    url = reverse("games:rules", args=[SLUG])
    page = client.get(url).content.decode()
    assert 'id="the-pouch"' in page and "The pouch and marks" in page
    assert "小袋と印" in client.get(url, **JA).content.decode()
    detail = owner_client.get(reverse("decks:detail", args=[deck.public_id])).content.decode()
    assert f"{url}#the-bag" in detail  # pebbles.md:4 (too many tokens) is the-bag's rule


def test_its_pages_in_japanese_show_its_names_and_labels(
    deck: Deck, japanese_labels: Path, owner_client: Client
) -> None:
    home = owner_client.get(reverse("catalog:game", args=[SLUG]), **JA).content.decode()
    assert "ペブルス" in home and "ペブルス基本" in home
    assert JAPANESE["Quarry"] in home and JAPANESE["Pouch box"] in home  # its own kinds
    set_page = owner_client.get(reverse("catalog:set", args=[SLUG, "PB"]), **JA).content.decode()
    assert "灰色の小石" in set_page
    assert JAPANESE["Hue"] in set_page and JAPANESE["Weight"] in set_page  # its facets
    page = owner_client.get(reverse("decks:detail", args=[deck.public_id]), **JA).content.decode()
    assert JAPANESE["pouch"] in page and "緑の小石" in page  # its zone, its card
    help_page = owner_client.get(reverse("catalog:search-help"), **JA).content.decode()
    assert JAPANESE["Any colour"] in help_page  # its search.py field
    # its extra's label, where the history names what changed
    url = reverse("decks:edit-extra", args=[deck.public_id, "marks"])
    assert (
        owner_client.post(url, {"version": deck.version, "marks": "1"}, **HTMX).status_code == 200
    )
    history = owner_client.get(reverse("decks:history", args=[deck.public_id]), **JA)
    assert JAPANESE["Pebble marks"] in history.content.decode()


def test_its_engine_passes_the_conformance_checks(pebbles: Path) -> None:
    """``manage.py check_game`` runs on it every check a built-in engine passes
    (simulator/conformance.py), its citations read from its own digest."""
    call_command("regenerate_golden", SLUG, verbosity=0)
    out = io.StringIO()
    call_command("check_game", PACKAGE, "--rules", str(pebbles), stdout=out)
    assert f"{SLUG}: all {len(CHECKS)} checks passed" in out.getvalue()
    golden = pebbles / "golden" / "game0.txt"
    golden.write_text(golden.read_text("utf-8").replace("turn 1:", "turn 9:"), "utf-8")
    with pytest.raises(CommandError, match="golden"):
        call_command("check_game", PACKAGE, "--rules", str(pebbles), stdout=io.StringIO())
    call_command("regenerate_golden", SLUG, verbosity=0)


def test_its_printings_and_products_are_in_the_catalog(catalog: Game) -> None:
    assert Printing.objects.filter(card__game=catalog).count() == 5
    assert Product.objects.get(game=catalog, code="PB-START").items.count() == 5
