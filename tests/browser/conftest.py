"""Fixtures for the browser tests: the system Chromium driven by Playwright (sync API).

The tests never download a browser: they launch Debian's /usr/bin/chromium (scripts/test
installs it). A missing Chromium is a failure, not a skip, unless scripts/test could not
install it and said so by setting DECKLAB_NO_BROWSER=1 (it then reports the tests as not run).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# Playwright's sync API keeps an event loop running in this thread; Django's guard against
# calling the ORM from async code would otherwise refuse the live_server tests' queries.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path(os.environ.get("DECKLAB_CHROMIUM", "/usr/bin/chromium"))
# Without the background-networking flags Chromium keeps calling Google's hosts, which this
# network refuses; --no-sandbox because the tests run as root on CI.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-results"
NO_BROWSER = "DECKLAB_NO_BROWSER=1: Chromium could not be installed, browser tests not run"
MISSING = (
    f"Chromium is not installed at {CHROMIUM}. Install it with `apt-get install chromium` "
    "(scripts/test does this when run as root), or set DECKLAB_NO_BROWSER=1 to skip the "
    "browser tests knowingly."
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if os.environ.get("DECKLAB_NO_BROWSER") == "1":
        pytest.skip(NO_BROWSER)
    if not CHROMIUM.exists():
        pytest.fail(MISSING, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser context (no cookies) asking for English pages."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    try:
        yield tab
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            tab.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    # Keep each phase's report on the test item so the page fixture can see a failure.
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
