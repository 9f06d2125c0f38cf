"""Recharge's chip fields in Chromium: a value above 5 is saved (and explained by the legality
panel), a value beyond what is stored is refused with the reason; neither is silently dropped."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import registry

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "chipper", "a-long-browser-test-passphrase"


@pytest.fixture
def deck_url(live_server: Any) -> str:
    from catalog.models import Product
    from decks.services import deck_from_product

    call_command("import_catalog", str(registry.get("recharge").catalog_file), verbosity=0)
    user = get_user_model().objects.create_user(USERNAME, "c@example.test", PASSWORD)
    product = Product.objects.filter(game__slug="recharge", items__isnull=False).first()
    assert product is not None
    deck = deck_from_product(product=product, user=user)
    return f"{live_server.url}/decks/{deck.public_id}/edit/"


def login_url(deck_url: str) -> str:
    """The login page that comes back to the editor."""
    site, path = re.match(r"(https?://[^/]+)(/.*)", deck_url).groups()  # type: ignore[union-attr]
    return f"{site}/accounts/login/?next={path}"


def log_in(page: Page, url: str) -> None:
    page.goto(url)
    page.locator("#id_username").fill(USERNAME)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/edit/$"))


def test_a_chip_of_9_typed_in_the_editor_is_saved_and_explained(page: Page, deck_url: str) -> None:
    from playwright.sync_api import expect

    log_in(page, login_url(deck_url))
    first = page.locator("#chips-editor input[name=chip]").first
    first.fill("9")
    first.press("Tab")
    expect(page.locator('#legality-panel [data-problem="chip-value"]')).to_have_count(1)
    page.reload()
    expect(page.locator("#chips-editor input[name=chip]").first).to_have_value("9")


def test_a_chip_beyond_what_is_stored_is_refused_with_the_reason(page: Page, deck_url: str) -> None:
    from playwright.sync_api import expect

    log_in(page, login_url(deck_url))
    first = page.locator("#chips-editor input[name=chip]").first
    first.fill("150")
    first.press("Tab")
    expect(page.locator("#editor-message")).to_contain_text("Chip 1 is 150")
    page.reload()
    expect(page.locator("#chips-editor input[name=chip]").first).to_have_value("5")


def test_a_quantity_beyond_99_is_refused_with_the_reason(page: Page, deck_url: str) -> None:
    from playwright.sync_api import expect

    log_in(page, login_url(deck_url))
    quantity = page.locator("#editor-entries input[name=quantity]").first
    quantity.fill("150")
    quantity.press("Tab")
    expect(page.locator("#editor-message")).to_contain_text("whole number from 1 to 99")
    page.reload()
    expect(page.locator("#editor-entries input[name=quantity]").first).to_have_value("1")
