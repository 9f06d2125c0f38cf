"""A Japanese player in Chromium: opens the official Buffy deck (legal, with her sidekick
chosen), follows a legality problem's link to its rule, imports a list whose game: line names
another game than the Game box, and reads the history in Japanese."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import registry

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "yuki", "a-long-browser-test-passphrase"
UNMATCHED_LIST = "game: unmatched\nname: フェイント練習\n## hero\n1 Medusa\n## deck\n3 Feint\n"


@pytest.fixture
def site(live_server: Any) -> str:
    for game in ("unmatched", "monster-hunter"):
        call_command("import_catalog", str(registry.get(game).catalog_file), verbosity=0)
    get_user_model().objects.create_user(USERNAME, f"{USERNAME}@example.test", PASSWORD)
    return str(live_server.url)


@pytest.fixture
def ja_page(browser: Browser) -> Iterator[Page]:
    """A browser asking for Japanese pages."""
    context = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    try:
        yield tab
    finally:
        context.close()


def test_a_japanese_player_opens_buffy_follows_a_rule_imports_and_reads_the_history(
    site: str, ja_page: Page
) -> None:
    from playwright.sync_api import expect

    page = ja_page
    page.goto(f"{site}/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    page.locator("#id_username").fill(USERNAME)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/accounts/({USERNAME}|me)/$"))

    # The official Buffy deck: the product says how it is built, the deck is legal.
    page.goto(f"{site}/games/unmatched/products/buffy/")
    expect(page.locator("[data-product-choice=sidekick]")).to_contain_text("ジャイルズ / ザンダー")
    page.locator("form[action$='/from-product/unmatched/buffy/'] button").click()
    page.wait_for_url(re.compile(r"/decks/[^/]+/$"))
    deck_url = page.url
    expect(page.locator("#legality-panel")).to_have_attribute("data-legal", "yes")
    expect(page.locator("[data-sidekick=Giles]")).to_contain_text("ジャイルズ")

    # Choosing Xander in the editor: Giles's cards are now problems, each linked to its rule.
    page.goto(f"{deck_url}edit/")
    page.locator("#sidekick-editor input[value=Xander]").check()
    panel = page.locator("#legality-panel")
    expect(panel).to_have_attribute("data-legal", "no")
    problem = panel.locator('[data-problem="fighter"]').first
    expect(problem).to_contain_text("Xander")
    problem.locator("[data-rule-link]").click()
    page.wait_for_url(re.compile(r"/rules/unmatched/#deck-size$"))
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#deck-size")).to_contain_text("30枚のアクションカード")

    # A list naming Unmatched, imported with the Game box on Monster Hunter.
    page.goto(f"{site}/decks/import/")
    page.locator("#id_game").select_option("monster-hunter")
    page.locator("#id_text").fill(UNMATCHED_LIST)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/decks/[^/]+/$"))
    expect(page.locator("#deck-title")).to_have_text("フェイント練習")
    expect(page.locator("main")).to_contain_text("アンマッチ")

    # The Buffy deck's history, in Japanese: its creation and the sidekick changed.
    page.goto(f"{deck_url}history/")
    summaries = page.locator("[data-summary]")
    expect(summaries).to_have_count(2)
    expect(summaries.nth(0)).to_have_text("選んだサイドキック")
    expect(summaries.nth(1)).to_have_text("作成日時")
