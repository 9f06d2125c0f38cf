"""A player imports their collection and ties it to their decks, in Chromium.

Import a CSV (a Moxfield-style file with a Japanese name), see a set's completion, open a
deck and see what is owned and missing, add what is missing to the wishlist, get the card
from its page, mark the deck built, and see another deck's shortfall change.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalog.models import Card, Game
from decks.models import Deck, DeckEntry
from games import registry
from tests.browser.test_decks_flow import sign_up

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSV = (
    "Count,Tradelist Count,Name,Edition,Condition,Language,Foil,Tags,Last Modified,"
    "Collector Number,Alter,Proxy,Purchase Price\n"
    "3,0,八百屋の大将,MTD,Near Mint,Japanese,,,2025-01-01,001,False,False,\n"
    "1,0,Fishmonger Madam,MTD,Near Mint,Japanese,,,2025-01-01,002,False,False,\n"
)


def _deck(username: str, name: str, cards: dict[str, int]) -> Deck:
    owner = get_user_model().objects.get(username=username)
    deck = Deck.objects.create(owner=owner, game=Game.objects.get(slug="mattsan"), name=name)
    for zone, (code, quantity) in enumerate(cards.items()):
        DeckEntry.objects.create(
            deck=deck, card=Card.objects.get(code=code), quantity=quantity, zone=f"z{zone}"
        )
    return deck


def test_a_player_imports_a_collection_and_builds_a_deck_from_it(
    page: Page, live_server: Any
) -> None:
    from playwright.sync_api import expect

    call_command("import_catalog", str(registry.get("mattsan").catalog_file), verbosity=0)
    site = str(live_server.url)
    sign_up(page, site, "collector")
    first = _deck("collector", "Grocers", {"MTD-001": 2, "MTD-003": 1})
    second = _deck("collector", "Boss pair", {"MTD-001": 2})

    page.goto(f"{site}/collection/import/")
    page.get_by_label("Game").select_option("mattsan")
    page.get_by_label("…or paste the CSV").fill(CSV)
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#import-preview")).to_contain_text("Moxfield file: 2 rows, 4 copies")
    page.get_by_role("button", name="Import these copies").click()
    expect(page.locator("main")).to_contain_text("Imported 4 copies in 2 items.")

    page.goto(f"{site}/collection/mattsan/")
    expect(page.locator('#set-completion li[data-set="MTD"]')).to_have_attribute("data-owned", "2")
    expect(page.locator("#collection-totals")).to_have_attribute("data-copies", "4")

    page.goto(f"{site}{first.get_absolute_url()}")
    report = page.locator("#collection-report")
    expect(report.locator('tr[data-card="MTD-001"]')).to_have_attribute("data-missing", "0")
    expect(report.locator('tr[data-card="MTD-003"]')).to_have_attribute("data-missing", "1")
    expect(report.locator("#mark-built")).to_be_disabled()
    page.get_by_role("button", name="Add what is missing to my wishlist").click()
    expect(page.locator("main")).to_contain_text("1 missing copies were added to your wishlist.")
    page.goto(f"{site}/collection/wishlist/")
    expect(page.locator('#wishlist tr[data-card="MTD-003"]')).to_have_attribute(
        "data-quantity", "1"
    )

    page.goto(f"{site}/games/mattsan/cards/MTD-003/")
    page.locator("#my-copies").get_by_role("button", name="Add to my collection").click()
    expect(page.locator("#my-copies h2 .badge")).to_have_text("1")
    page.goto(f"{site}/collection/wishlist/")
    expect(page.locator("#wishlist")).to_have_count(0)

    page.goto(f"{site}{second.get_absolute_url()}")
    expect(page.locator('#collection-report [data-buildable="1"]')).to_be_visible()

    page.goto(f"{site}{first.get_absolute_url()}")
    page.get_by_role("button", name="Mark as built").click()
    expect(page.locator('#collection-report [data-built="1"]')).to_be_visible()

    page.goto(f"{site}{second.get_absolute_url()}")
    row = page.locator('#collection-report tr[data-card="MTD-001"]')
    expect(row).to_have_attribute("data-missing", "1")
    expect(row).to_contain_text(re.compile(r"Grocers \(2\)"))
