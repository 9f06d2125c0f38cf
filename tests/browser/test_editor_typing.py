"""The deck editor in Chromium keeps every change a player makes in one tab, however fast.

A change's answer redraws the entry list; it must not replace the field the player is typing
in, and a second change made before the first is answered must not be refused as "changed
elsewhere". Another tab's or device's change still is refused, with the reload message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import registry

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "quick_typist", "a-long-browser-test-passphrase"
# two demo main-deck cards of the Monster Hunter catalog, one copy each to start with
FIRST, SECOND = ("MHD-007", "Reedskipper"), ("MHD-009", "Bramble Boar")
ADD_CARDS = [("MHD-025", "Slab Cleaver"), ("MHD-028", "Moonlit Tachi")]
QUICK_ADDS = 50


@pytest.fixture
def deck_url(live_server: Any) -> str:
    from catalog.models import Card, Game
    from decks.services import deck_create
    from decks.specs import EntrySpec

    call_command("import_catalog", str(registry.get("monster-hunter").catalog_file), verbosity=0)
    user = get_user_model().objects.create_user(USERNAME, "q@example.test", PASSWORD)
    game = Game.objects.get(slug="monster-hunter")
    entries = [
        EntrySpec(Card.objects.get(game=game, code=code), "main", 1, None)
        for code, _name in (FIRST, SECOND)
    ]
    deck = deck_create(owner=user, game=game, name="Quick fingers", entries=entries)
    return f"{live_server.url}/decks/{deck.public_id}/edit/"


def log_in(page: Page, deck_url: str) -> None:
    site, path = re.match(r"(https?://[^/]+)(/.*)", deck_url).groups()  # type: ignore[union-attr]
    page.goto(f"{site}/accounts/login/?next={path}")
    page.locator("#id_username").fill(USERNAME)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/edit/$"))


def stored_quantities() -> dict[str, int]:
    from decks.models import DeckEntry

    entries = DeckEntry.objects.filter(deck__name="Quick fingers")
    return dict(entries.values_list("card__code", "quantity"))


def record_statuses(page: Page) -> list[int]:
    statuses: list[int] = []

    def seen(response: Response) -> None:
        if response.request.method == "POST" and "/edit/" in response.url:
            statuses.append(response.status)

    page.on("response", seen)
    return statuses


def test_quantities_typed_in_two_rows_within_a_second_are_both_saved(
    page: Page, deck_url: str
) -> None:
    from playwright.sync_api import expect

    log_in(page, deck_url)
    statuses = record_statuses(page)
    first = page.get_by_label(f"Copies of {FIRST[1]}", exact=True)
    second = page.get_by_label(f"Copies of {SECOND[1]}", exact=True)
    version = page.locator("#deck-version")
    before = version.input_value()

    first.fill("3")
    # moving to the second row sends the first change (its field's change event); the player
    # is still typing in the second row when its answer redraws the list
    with page.expect_response(lambda r: "/edit/entry/" in r.url):
        second.click()
        second.press("Control+A")
        second.press_sequentially("2")
    expect(version).not_to_have_value(before)
    expect(second).to_be_focused()
    expect(second).to_have_value("2")
    second.press("Tab")

    expect(page.locator(f'li.entry-row[data-card="{SECOND[0]}"]')).to_have_attribute(
        "data-quantity", "2"
    )
    assert stored_quantities() == {FIRST[0]: 3, SECOND[0]: 2}
    assert statuses == [200, 200]
    expect(page.locator("#editor-message .alert")).to_have_count(0)


def test_fifty_quick_add_clicks_are_all_saved_without_a_conflict(page: Page, deck_url: str) -> None:
    from playwright.sync_api import expect

    log_in(page, deck_url)
    statuses = record_statuses(page)
    # two cards' buttons, clicked in turn: each click its own request, none waiting for the last
    page.locator("#card-search").fill("slab or moonlit")
    buttons = [
        page.locator(f'#search-results li.result[data-card="{code}"] button[data-add-to="main"]')
        for code, _name in ADD_CARDS
    ]
    for button in buttons:
        expect(button).to_be_visible()
    for click in range(QUICK_ADDS):
        buttons[click % 2].click(delay=0, no_wait_after=True)

    each = QUICK_ADDS // 2
    for code, _name in ADD_CARDS:
        expect(page.locator(f'li.entry-row[data-card="{code}"]')).to_have_attribute(
            "data-quantity", str(each), timeout=60_000
        )
    assert statuses == [200] * QUICK_ADDS
    assert stored_quantities() == {
        FIRST[0]: 1,
        SECOND[0]: 1,
        **{code: each for code, _name in ADD_CARDS},
    }
    expect(page.locator("#editor-message .alert")).to_have_count(0)


def test_a_change_made_in_another_tab_still_refuses_this_tabs_next_change(
    page: Page, browser: Browser, deck_url: str
) -> None:
    from playwright.sync_api import expect

    log_in(page, deck_url)
    other = browser.new_context(locale="en-US").new_page()
    try:
        log_in(other, deck_url)
        theirs = other.get_by_label(f"Copies of {FIRST[1]}", exact=True)
        theirs.fill("4")
        theirs.press("Tab")
        expect(other.locator(f'li.entry-row[data-card="{FIRST[0]}"]')).to_have_attribute(
            "data-quantity", "4"
        )
    finally:
        other.context.close()

    mine = page.get_by_label(f"Copies of {SECOND[1]}", exact=True)
    mine.fill("3")
    mine.press("Tab")
    message = page.locator('#editor-message [data-status="409"]')
    expect(message).to_contain_text("changed")
    expect(message.get_by_role("link", name="Reload the deck")).to_be_visible()
    assert stored_quantities() == {FIRST[0]: 4, SECOND[0]: 1}


def test_a_failed_search_says_so_instead_of_keeping_the_last_results(
    page: Page, deck_url: str
) -> None:
    from playwright.sync_api import Route, expect

    log_in(page, deck_url)
    results = page.locator("#search-results")
    page.locator("#card-search").fill(FIRST[1])
    expect(results.locator(f'li.result[data-card="{FIRST[0]}"]')).to_be_visible()

    # whatever makes the server fail (it answered order:number with a 500 once), the page must
    # not go on showing the previous query's cards as if they answered this one
    def fail(route: Route) -> None:
        route.fulfill(status=500, body="Server Error (500)")

    page.route("**/edit/search/**", fail)
    page.locator("#card-search").fill("order:number")
    expect(results.locator("[data-search-error]")).to_contain_text("The search failed")
    expect(results.locator("li.result")).to_have_count(0)

    page.unroute("**/edit/search/**")
    page.locator("#card-search").fill(SECOND[1])
    expect(results.locator(f'li.result[data-card="{SECOND[0]}"]')).to_be_visible()
    expect(results.locator("[data-search-error]")).to_have_count(0)


def test_a_change_the_server_fails_to_save_says_so_and_the_next_change_still_goes(
    page: Page, deck_url: str
) -> None:
    from playwright.sync_api import Route, expect

    log_in(page, deck_url)

    def fail(route: Route) -> None:
        route.fulfill(status=500, body="Server Error (500)")

    page.route("**/edit/entry/**", fail)
    first = page.get_by_label(f"Copies of {FIRST[1]}", exact=True)
    first.fill("3")
    first.press("Tab")
    expect(page.locator("#editor-message .alert-danger")).to_contain_text(
        "The server could not save this change"
    )
    page.unroute("**/edit/entry/**")
    second = page.get_by_label(f"Copies of {SECOND[1]}", exact=True)
    second.fill("2")
    second.press("Tab")
    expect(page.locator(f'li.entry-row[data-card="{SECOND[0]}"]')).to_have_attribute(
        "data-quantity", "2"
    )
    assert stored_quantities() == {FIRST[0]: 1, SECOND[0]: 2}
