"""A visitor browses the catalog in a real browser, then switches the site to Japanese."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SET_CODE = "battle-of-legends-volume-one"
SET_NAME = "Battle of Legends, Volume One"
CARD_CODE = "character-medusa"
CARD_NAME = "Medusa"


@pytest.fixture
def catalog_site(live_server: Any) -> str:
    """The live server's address, with the project's own catalogs loaded."""
    call_command("load_catalogs", verbosity=0)
    return str(live_server.url)


def heading(page: Page) -> str:
    return page.locator("h1").first.inner_text().strip()


def test_a_visitor_walks_from_the_games_to_a_card_and_reads_it_in_japanese(
    page: Page, catalog_site: str
) -> None:
    from playwright.sync_api import expect

    page.goto(f"{catalog_site}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Games")
    expect(page.locator('a[data-game="mattsan"]')).to_contain_text("Mattsan")
    page.get_by_role("link", name=re.compile(r"^Unmatched\b")).click()

    page.wait_for_url(f"{catalog_site}/games/unmatched/")
    assert heading(page) == "Unmatched"
    expect(page.get_by_role("heading", name=re.compile(r"^Sets"))).to_be_visible()
    page.get_by_role("link", name=SET_NAME, exact=True).click()

    page.wait_for_url(f"{catalog_site}/games/unmatched/sets/{SET_CODE}/")
    assert heading(page).startswith(SET_NAME)
    expect(page.locator(".result-count")).to_contain_text("cards")
    medusa = page.locator(f'a[data-card="{CARD_CODE}"]')
    expect(medusa).to_contain_text(CARD_NAME)
    medusa.click()

    page.wait_for_url(f"{catalog_site}/games/unmatched/cards/{CARD_CODE}/")
    assert heading(page).startswith(CARD_NAME)
    expect(page.get_by_role("heading", name="Printings")).to_be_visible()
    expect(page.locator("main")).to_contain_text(SET_NAME)
    expect(page.locator("main")).to_contain_text("Hero HP")

    page.locator('#language-switch button[data-language="ja"]').click()

    page.wait_for_url(f"{catalog_site}/games/unmatched/cards/{CARD_CODE}/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator('#language-switch button[data-language="ja"]')).to_have_attribute(
        "aria-current", "true"
    )
    # The game's Japanese name comes from the catalog data, not from the translations.
    expect(page.locator("nav[aria-label] .breadcrumb")).to_contain_text("アンマッチ")

    page.goto(f"{catalog_site}/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator('a[data-game="unmatched"] h2')).to_have_text("アンマッチ")
    expect(page.locator('a[data-game="mattsan"] h2')).to_have_text("マッツァンカードゲーム")
