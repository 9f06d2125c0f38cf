"""A player signs up, builds a legal deck in the editor, and round-trips a list with chips.

Both tests drive the real pages in Chromium: the sign-up form, the deck editor's htmx
endpoints (every change answered with out-of-band fragments, never a page load), the import
form and the text export.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command

from games import registry

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-test-passphrase"
#: set on the editor page once it has loaded; a full page load would wipe it
MARKER = "decklab-editor-still-here"

HUNTER = ("MHD-001", "Wandering Hunter Ren")
# Ten demo main-deck cards × 4 = 40. The first five reach 4 through the + button, the
# other five through the quantity field.
MAIN_CARDS = [
    ("MHD-007", "Reedskipper"),
    ("MHD-009", "Bramble Boar"),
    ("MHD-025", "Slab Cleaver"),
    ("MHD-028", "Moonlit Tachi"),
    ("MHD-043", "Sparrow Repeater"),
    ("MHD-052", "Patchwork Jerkin"),
    ("MHD-054", "Thornhide Mail"),
    ("MHD-060", "Smoked Haunch"),
    ("MHD-063", "Dazzle Orb"),
    ("MHD-069", "Herbal Tonic"),
]
COPIES = 4

# 13 chips worth 62 points: within at most 25 chips of 1-5 points, 50-65 in all.
RECHARGE_LIST = """\
name: Browser chips deck
game: recharge
rules: basic
chips: 5x10, 4x3

## main
1 Captain Meridian
1 シルバー・ケストレル
1 Doctor Umbral (rc-demo) 003PP [power-plus]
1 Tidebreaker
1 Madame Vesper
1 Ironbark
1 Static Queen
1 Shoulder to Shoulder
1 Rooftop Rendezvous
1 Kinetic Surge
1 Adamant Will
1 #RCD-060
"""
RECHARGE_CODES = {f"RCD-{n:03d}" for n in (1, 2, 3, 4, 5, 6, 7, 33, 34, 57, 58, 60)}
CHIPS = [5] * 10 + [4] * 3


def _site(live_server: Any, *games: str) -> str:
    for game in games:
        call_command("import_catalog", str(registry.get(game).catalog_file), verbosity=0)
    return str(live_server.url)


@pytest.fixture
def monster_hunter_site(live_server: Any) -> str:
    return _site(live_server, "monster-hunter")


@pytest.fixture
def recharge_site(live_server: Any) -> str:
    return _site(live_server, "recharge")


def sign_up(page: Page, site: str, username: str) -> None:
    """Create an account through the sign-up form and the mailed link, which logs the player in."""
    import re

    from django.core import mail
    from playwright.sync_api import expect

    page.goto(f"{site}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("E-mail address").fill(f"{username}@example.test")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{site}/accounts/signup/sent/")
    # the live server runs in this process: its locmem outbox is ours to read
    (body,) = [m.body for m in mail.outbox if m.to == [f"{username}@example.test"]]
    link = re.search(r"https?://\S+/accounts/signup/confirm/\S+/", body)
    assert link is not None
    page.goto(link.group(0))
    page.get_by_role("button", name="Confirm my account").click()
    page.wait_for_url(f"{site}/accounts/{username}/")
    expect(page.locator("main")).to_contain_text(f"Welcome to DeckLab, {username}.")


def zone_count(page: Page, zone: str) -> Locator:
    return page.locator(f'#zone-counts li[data-zone="{zone}"] .badge')


def entry_row(page: Page, code: str) -> Locator:
    return page.locator(f'#editor-entries li.entry-row[data-card="{code}"]')


def add_from_search(page: Page, code: str, name: str, zone: str) -> None:
    """Search the card by name and press its "+ Add to …" button for ``zone``."""
    from playwright.sync_api import expect

    page.locator("#card-search").fill(name)
    result = page.locator(f'#search-results li.result[data-card="{code}"]')
    expect(result).to_be_visible()
    result.locator(f'button[data-add-to="{zone}"]').click()
    expect(entry_row(page, code)).to_have_attribute("data-quantity", "1")


def legality_text(page: Page) -> Locator:
    return page.locator("#legality-panel .legal-verdict")


def test_a_new_player_builds_a_legal_monster_hunter_deck_in_the_editor(
    page: Page, monster_hunter_site: str
) -> None:
    from playwright.sync_api import expect

    site = monster_hunter_site
    sign_up(page, site, "hunter_builder")

    page.goto(f"{site}/decks/new/")
    page.get_by_label("Game").select_option("monster-hunter")
    page.get_by_label("Name").fill("Forty from scratch")
    page.get_by_role("button", name="Create and add cards").click()
    page.wait_for_url(re.compile(r"/decks/[^/]+/edit/$"))
    expect(page.locator("#deck-title")).to_have_text("Forty from scratch")

    page.evaluate(f"window.decklabMarker = {MARKER!r}")
    loads: list[str] = []
    page.on("load", lambda _page: loads.append("load"))

    # An empty deck: no main deck (0 of 40) and no hunter.
    panel = page.locator("#legality-panel")
    expect(panel).to_have_attribute("data-legal", "no")
    expect(legality_text(page)).to_have_text("✖ Not legal: 2 problems to fix.")
    expect(panel.locator('[data-problem="zone-size"]')).to_contain_text("0 cards")
    expect(panel.locator('[data-problem="needs-one"]')).to_be_visible()
    expect(page.locator('#zone-counts [data-legal="no"]')).to_have_text("✖ not legal")

    hunter_code, hunter_name = HUNTER
    add_from_search(page, hunter_code, hunter_name, "hunter")
    expect(zone_count(page, "hunter")).to_have_text("1")
    expect(legality_text(page)).to_have_text("✖ Not legal: 1 problem to fix.")
    expect(panel.locator('[data-problem="needs-one"]')).to_have_count(0)

    total = 0
    for index, (code, name) in enumerate(MAIN_CARDS):
        add_from_search(page, code, name, "main")
        row = entry_row(page, code)
        if index < len(MAIN_CARDS) // 2:
            for quantity in range(2, COPIES + 1):
                page.get_by_role("button", name=f"One more {name}", exact=True).click()
                expect(row).to_have_attribute("data-quantity", str(quantity))
        else:
            copies = page.get_by_label(f"Copies of {name}", exact=True)
            copies.fill(str(COPIES))
            copies.press("Tab")  # the field saves on change
            expect(row).to_have_attribute("data-quantity", str(COPIES))
        total += COPIES
        expect(zone_count(page, "main")).to_have_text(str(total))
        if total < 40:
            expect(panel).to_have_attribute("data-legal", "no")
            expect(panel.locator('[data-problem="zone-size"]')).to_contain_text(
                f"has {total} cards"
            )

    expect(panel).to_have_attribute("data-legal", "yes")
    expect(legality_text(page)).to_have_text("✓ Legal: this deck follows every construction rule.")
    expect(panel.locator("[data-problem]")).to_have_count(0)
    expect(page.locator('#zone-counts [data-legal="yes"]')).to_have_text("✓ legal")
    expect(page.locator("#editor-message .alert")).to_have_count(0)

    # Every change was answered in place: the page's own state survived, nothing reloaded.
    assert page.evaluate("window.decklabMarker") == MARKER
    assert loads == []

    # The deck page, loaded afresh, agrees with what the editor showed.
    page.get_by_role("link", name="Deck page").click()
    page.wait_for_url(re.compile(r"/decks/[^/]+/$"))
    expect(page.locator("#legality-panel")).to_have_attribute("data-legal", "yes")
    expect(zone_count(page, "main")).to_have_text("40")
    expect(zone_count(page, "hunter")).to_have_text("1")


def deck_entries(page: Page, deck_url: str) -> list[tuple[str, str, str]]:
    """(card code, quantity, printing shown) of every row of the deck page's list view."""
    page.goto(f"{deck_url}?view=list")
    rows = page.locator("tr.deck-entry")
    found = []
    for index in range(rows.count()):
        row = rows.nth(index)
        printing = row.locator("td").nth(4).inner_text().strip()
        found.append(
            (
                str(row.get_attribute("data-card")),
                str(row.get_attribute("data-quantity")),
                printing,
            )
        )
    return sorted(found)


def editor_chips(page: Page, deck_url: str) -> list[int]:
    from playwright.sync_api import expect

    page.goto(f"{deck_url}edit/")
    chips = page.locator("#chips-editor input[name=chip]")
    expect(page.locator("#chips-editor")).to_be_visible()
    return [int(chips.nth(i).input_value()) for i in range(chips.count())]


def import_list(page: Page, site: str, *, text: str = "", file: Path | None = None) -> str:
    """Import a Recharge list through /decks/import/; return the new deck's address."""
    page.goto(f"{site}/decks/import/")
    page.get_by_label("Game").select_option("recharge")
    if file is not None:
        page.locator("#id_file").set_input_files(str(file))
    else:
        page.locator("#id_text").fill(text)
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_url(re.compile(r"/decks/[^/]+/$"))
    return page.url


def test_a_recharge_list_with_chips_imports_exports_and_imports_again_unchanged(
    page: Page, recharge_site: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    site = recharge_site
    sign_up(page, site, "chip_counter")

    first_url = import_list(page, site, text=RECHARGE_LIST)
    expect(page.locator("main")).to_contain_text("Deck imported.")
    expect(page.locator("#deck-title")).to_have_text("Browser chips deck")
    expect(zone_count(page, "main")).to_have_text(str(len(RECHARGE_CODES)))
    # The chips follow the rules; of the rules only the warning that the deck is smaller
    # than the standard size remains.
    panel = page.locator("#legality-panel")
    expect(panel).to_have_attribute("data-legal", "yes")
    problems = panel.locator("[data-problem]")
    expect(problems).to_have_count(1)
    expect(problems.first).to_have_attribute("data-problem", "standard-size")
    expect(problems.first).to_have_attribute("data-severity", "warning")
    expect(problems.first).to_contain_text("50 is the standard size")

    first_entries = deck_entries(page, first_url)
    assert {code for code, _qty, _printing in first_entries} == RECHARGE_CODES
    assert {qty for _code, qty, _printing in first_entries} == {"1"}
    pinned = [printing for code, _qty, printing in first_entries if code == "RCD-003"]
    assert pinned and pinned[0] != "—"

    # The chips show in the editor, counted and totalled.
    assert editor_chips(page, first_url) == CHIPS
    expect(page.locator("#chips-editor [data-chip-count]")).to_have_text(str(len(CHIPS)))
    expect(page.locator("#chips-editor [data-chip-total]")).to_have_text(str(sum(CHIPS)))
    expect(page.locator('#legality-panel [data-problem^="chip-"]')).to_have_count(0)

    # Export the list as text from the deck page's Export menu.
    page.goto(first_url)
    page.get_by_role("button", name="Export").click()
    with page.expect_download() as download_info:
        page.locator('a[data-export="text"]').click()
    download = download_info.value
    exported = tmp_path / download.suggested_filename
    download.save_as(exported)
    assert exported.suffix == ".txt"
    text = exported.read_text(encoding="utf-8")
    assert "name: Browser chips deck" in text
    assert re.search(r"^chips: 5x10, 4x3$", text, re.MULTILINE), text

    # Reading the export back (as the file) gives a second deck with the same list and chips.
    second_url = import_list(page, site, file=exported)
    assert second_url != first_url
    expect(page.locator("#deck-title")).to_have_text("Browser chips deck")
    expect(page.locator("#legality-panel")).to_have_attribute("data-legal", "yes")
    assert deck_entries(page, second_url) == first_entries
    assert editor_chips(page, second_url) == CHIPS
    second_export = page.request.get(f"{second_url}export/text/")
    assert second_export.ok
    assert second_export.text() == text
