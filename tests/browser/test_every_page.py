"""Every kind of page, signed in, in English and in Japanese, with nothing going wrong in it.

Chromium walks the site as a player who owns decks, a collection and a finished simulation
run (played by a real ``celery worker``, as in test_simulation_flow.py), and fails on:

- any console error or uncaught script error;
- any Content Security Policy violation (a ``securitypolicyviolation`` listener installed by
  an init script on every page, reporting straight back to the test);
- any request to the site answered 4xx or 5xx (or failing), except the one 404 asked for;
- a chart drawn as a black box: pygal's SVG has no style of its own under the policy, so its
  shapes must take their colours from the chart stylesheet (computed fills, and a screenshot
  whose pixels are not mostly black);
- template text shown to players: a ``{#`` or ``#}`` (a multi-line ``{# #}`` is not a comment
  in Django templates) or an empty item between two "·" separators.

The editor is used, not only opened: a quantity goes down and up again and a Recharge chip
changes, so htmx's swaps run under the watch too. The community catalog's pages are walked
too (tests/contributions/pages_helpers.py): the proposal forms, the walker's proposals and
their resubmit pages, and, the walker being staff and so a catalog editor, the review queue,
a proposal's diff with its decision forms, an approved one and a card's history. Every
problem of every page is collected and reported together, page by page. DECKLAB_SHOTS=<folder>
also saves a screenshot of each page.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.services import signup_tokens
from catalog.models import Game, Product
from collection.services import collection_add, product_specs, wishlist_add_missing
from contributions.models import EDITORS_GROUP
from decks.imports.service import deck_import
from decks.models import Deck
from decks.services import deck_from_product
from games import registry
from simulator.models import RunStatus, SimulationRun
from tests.browser.test_simulation_flow import CeleryWorker, start_worker  # noqa: F401
from tests.contributions.pages_helpers import ContributePages, contribute_pages

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request, Response

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "every_page", "a-long-walking-test-passphrase"
NEWCOMER, OTHER, EDITOR = "newcomer", "other_player", "catalog_editor"
LANGUAGES = {"en": "en-US", "ja": "ja-JP"}
SIM_GAMES = 2_000
RESULTS_WITHIN_MS = 90_000
MISSING_PATH = "/no-such-page/"
SHOTS = os.environ.get("DECKLAB_SHOTS", "")
#: a chart whose style was refused is a box of black; a drawn one has a few dark pixels (text)
DARK_SHARE_LIMIT = 0.25

RECHARGE_LIST = """\
name: Walking chips deck
game: recharge
rules: basic
chips: 5x10, 4x3

## main
2 Captain Meridian
2 Tidebreaker
2 Madame Vesper
2 Ironbark
"""

# Reports every CSP violation to the test the moment it happens, before the page can leave.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.decklabCspViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile}:${event.lineNumber} ${event.sample || ""}`.trim()
  );
});
"""

# The page's text as drawn, the separators of ::before/::after included (innerText leaves
# them out, and the "· ·" of an empty list item is made of two of them).
RENDERED_TEXT = """
(root) => {
  const parts = [];
  const pseudo = (el, which) => {
    const content = getComputedStyle(el, which).content;
    if (content && content !== "none" && content !== "normal") {
      parts.push(content.replace(/^"(.*)"$/, "$1"));
    }
  };
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const tag = node.tagName.toLowerCase();
    if (tag === "script" || tag === "style" || tag === "svg" || tag === "template") return;
    if (getComputedStyle(node).display === "none") return;
    pseudo(node, "::before");
    node.childNodes.forEach(walk);
    pseudo(node, "::after");
  };
  walk(root);
  return parts.join(" ").replace(/\\s+/g, " ");
}
"""

# Shapes of a chart filled opaque black: what every path and rect becomes without its style.
BLACK_SHAPES = """
(svg) => [...svg.querySelectorAll("rect, path, circle, polygon")].filter((el) => {
  const style = getComputedStyle(el);
  const box = el.getBBox();
  return style.fill === "rgb(0, 0, 0)" && Number(style.fillOpacity) > 0 &&
    style.display !== "none" && box.width * box.height > 4;
}).map((el) => `${el.tagName}.${el.getAttribute("class") || ""}`)
"""

# The share of near-black pixels in a PNG, decoded by the browser itself.
DARK_SHARE = """
async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] < 60 && data[i + 1] < 60 && data[i + 2] < 60) dark += 1;
  }
  return dark / (data.length / 4);
}
"""

# What a chart's plot and its first series are filled with, for the record and the check.
CHART_FILLS = """
(svg) => {
  const fill = (selector) => {
    const el = svg.querySelector(selector);
    return el ? getComputedStyle(el).fill : null;
  };
  // a pygal chart's series, or a tuning's forest plot's points
  return {
    background: fill(".plot > .background"),
    series: fill(".series .reactive") ?? fill(".forest-point"),
  };
}
"""


@dataclass(frozen=True)
class Visit:
    kind: str
    path: str
    status: int = 200
    #: something to do once the page is there (an edit, so htmx swaps run under the watch)
    act: Callable[[Page], None] | None = None
    #: False for Swagger UI's own page, which is in English whatever the language
    translated: bool = True


@dataclass
class Watch:
    """Everything that went wrong in a browser context, filed under the page being walked."""

    site: str
    where: str = ""
    expected: set[tuple[str, int]] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    pages: int = 0
    charts: int = 0

    def add(self, problem: str) -> None:
        self.problems.append(f"[{self.where}] {problem}")

    def console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        url = message.location.get("url", "")
        # Chromium logs every 4xx as a console error: the 404 asked for is not a problem
        if message.text.startswith("Failed to load resource") and any(
            urlsplit(url).path == path for path, _status in self.expected
        ):
            return
        self.add(f"console error: {message.text} ({url})")

    def page_error(self, error: Exception) -> None:
        self.add(f"script error: {error}")

    def csp(self, report: str) -> None:
        self.add(f"Content Security Policy: {report}")

    def response(self, response: Response) -> None:
        if not response.url.startswith(self.site) or response.status < 400:
            return
        path = urlsplit(response.url).path
        if (path, response.status) in self.expected:
            return
        self.add(f"{response.request.method} {path} answered {response.status}")

    def request_failed(self, request: Request) -> None:
        failure = request.failure or ""
        # a navigation cancels the requests still in flight: not the site's fault
        if request.url.startswith(self.site) and "ERR_ABORTED" not in failure:
            self.add(f"{request.method} {urlsplit(request.url).path} failed: {failure}")

    def attach(self, context: BrowserContext) -> None:
        context.expose_function("decklabCspViolation", self.csp)
        context.add_init_script(CSP_LISTENER)


@dataclass(frozen=True)
class World:
    site: str
    medusa: Deck
    recharge: Deck
    set_code: str
    card_code: str
    reset_path: str
    confirm_path: str
    #: the community catalog's pages (the walker is staff, so an editor too)
    contribute: ContributePages


@pytest.fixture
def world(live_server: Any) -> World:
    for game in ("unmatched", "recharge"):
        call_command("import_catalog", str(registry.get(game).catalog_file), verbosity=0)
    # staff, so the admin and the catalog import page are on the walk too
    user = get_user_model().objects.create_superuser(USERNAME, f"{USERNAME}@example.test", PASSWORD)
    product = Product.objects.get(game__slug="unmatched", code="medusa")
    medusa = deck_from_product(product=product, user=user)
    medusa.visibility = Deck.Visibility.PUBLIC
    medusa.save(update_fields=["visibility"])
    recharge = deck_import(
        owner=user, game=Game.objects.get(slug="recharge"), text=RECHARGE_LIST, fmt="text"
    )
    collection_add(owner=user, specs=product_specs(product=product))
    wishlist_add_missing(owner=user, deck=recharge)
    item = product.items.select_related("printing__card", "printing__card_set").first()
    assert item is not None
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    # a player who signed up and has not yet followed the mailed link, and whose profile
    # the walker visits
    newcomer = get_user_model().objects.create_user(
        NEWCOMER, f"{NEWCOMER}@example.test", PASSWORD, is_active=False
    )
    newcomer_uid = urlsafe_base64_encode(force_bytes(newcomer.pk))
    other = get_user_model().objects.create_user(OTHER, f"{OTHER}@example.test", PASSWORD)
    # proposals of the walker and of another player, decided by an editor who is neither
    editor = get_user_model().objects.create_user(EDITOR, f"{EDITOR}@example.test", PASSWORD)
    editor.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    contribute = contribute_pages(slug="unmatched", author=user, other=other, decider=editor)
    return World(
        site=str(live_server.url),
        medusa=medusa,
        recharge=recharge,
        set_code=item.printing.card_set.code,
        card_code=item.printing.card.code,
        reset_path=f"/accounts/password/reset/{uid}/{default_token_generator.make_token(user)}/",
        confirm_path=(
            f"/accounts/signup/confirm/{newcomer_uid}/{signup_tokens.make_token(newcomer)}/"
        ),
        contribute=contribute,
    )


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Callable[[str], BrowserContext]]:
    opened: list[BrowserContext] = []

    def open_context(locale: str) -> BrowserContext:
        context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        opened.append(context)
        return context

    yield open_context
    for context in opened:
        context.close()


# --- What is done on a page -----------------------------------------------------------------


def edit_a_quantity(page: Page) -> None:
    """One copy fewer, then one more, of the first card of the deck zone: two htmx saves."""
    row = page.locator('section.zone-block[data-zone="deck"] li.entry-row').first
    buttons = row.locator(".entry-qty button")
    for button in (buttons.first, buttons.last):
        with page.expect_response(lambda r: "/edit/entry/" in r.url) as answer:
            button.click()
        assert answer.value.status == 200, answer.value.status
        page.wait_for_load_state("networkidle")


def edit_a_chip(page: Page) -> None:
    """A chip's value changed in the Recharge chips panel: one htmx save of the extras."""
    chip = page.locator("#chips-editor input.chip-value").first
    value = "3" if chip.input_value() != "3" else "4"
    with page.expect_response(lambda r: "/edit/extras/" in r.url) as answer:
        chip.fill(value)
        chip.press("Tab")
    assert answer.value.status == 200, answer.value.status
    page.wait_for_load_state("networkidle")


def log_in(page: Page, site: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.locator("#id_username").fill(USERNAME)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/accounts/({USERNAME}|me)/$"))


def run_a_simulation(page: Page, site: str, deck: Deck) -> str:
    """Start a run from the simulate page and wait for its results; the run page's path."""
    page.goto(f"{site}/sim/decks/{deck.public_id}/")
    page.locator("#id_games").fill(str(SIM_GAMES))
    page.locator("#simulate-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/sim/runs/[^/?#]+/$"))
    path = urlsplit(page.url).path
    page.locator("#run-results").wait_for(timeout=RESULTS_WITHIN_MS)
    run = SimulationRun.objects.get(public_id=path.rstrip("/").rsplit("/", 1)[-1])
    assert run.status == RunStatus.SUCCEEDED, run.error
    return path


def tune_a_deck(page: Page, site: str, deck: Deck) -> str:
    """Start a tuning of the deck from its simulate page (two typed candidates, a budget of
    two seconds) and wait for its ranking; the tuning page's path."""
    page.goto(f"{site}/sim/decks/{deck.public_id}/")
    page.locator("#tuning-source input[value=list]").check()
    page.locator("#id_tune-cards").fill("Silver Kestrel\nDoctor Umbral")
    page.locator("#id_tune-budget_seconds").fill("2")
    page.locator("#tuning-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/sim/tunings/[^/?#]+/$"))
    path = urlsplit(page.url).path
    page.locator('#tuning-status[data-status="succeeded"]').wait_for(timeout=RESULTS_WITHIN_MS)
    return path


# --- The checks on each page ----------------------------------------------------------------


def check_text(page: Page, watch: Watch) -> None:
    shown = page.locator("body").inner_text()
    for mark in ("{#", "#}", "{%", "%}"):
        if mark in shown:
            at = shown.index(mark)
            watch.add(f"template text shown: {shown[max(0, at - 40) : at + 60]!r}")
    drawn = str(page.locator("body").evaluate(RENDERED_TEXT))
    for found in re.finditer(r"·\s*·", drawn):
        watch.add(
            "empty item between separators: "
            f"{drawn[max(0, found.start() - 40) : found.end() + 40]!r}"
        )


def check_charts(page: Page, watch: Watch) -> None:
    charts = page.locator("figure[data-chart] svg")
    for index in range(charts.count()):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        name = chart.evaluate("svg => svg.closest('figure').dataset.chart")
        black = chart.evaluate(BLACK_SHAPES)
        if black:
            watch.add(f"chart {name}: shapes filled black: {black[:5]}")
        fills = chart.evaluate(CHART_FILLS)
        if fills["series"] in (None, "rgb(0, 0, 0)"):
            watch.add(f"chart {name}: its series is not coloured ({fills})")
        png = base64.b64encode(chart.screenshot()).decode()
        dark = float(page.evaluate(DARK_SHARE, png))
        if dark > DARK_SHARE_LIMIT:
            watch.add(f"chart {name}: {dark:.0%} of its pixels are black")
        watch.charts += 1


def walk(page: Page, watch: Watch, visits: list[Visit], language: str) -> None:
    for visit in visits:
        watch.where = f"{language} {visit.kind} {visit.path}"
        if visit.status != 200:
            watch.expected.add((visit.path, visit.status))
        response = page.goto(f"{watch.site}{visit.path}")
        assert response is not None
        if response.status != visit.status:
            watch.add(f"answered {response.status}, not {visit.status}")
        page.wait_for_load_state("networkidle")
        if visit.translated and page.locator("html").get_attribute("lang") != language:
            watch.add(f"the page is not in {language}")
        if visit.act is not None:
            visit.act(page)
        check_text(page, watch)
        check_charts(page, watch)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            slug = re.sub(r"[^a-z0-9]+", "-", visit.kind.lower()).strip("-")
            page.screenshot(path=str(Path(SHOTS) / f"{language}-{slug}.png"), full_page=True)
        watch.pages += 1


def signed_out_visits(world: World) -> list[Visit]:
    return [
        Visit("login", "/accounts/login/"),
        Visit("sign-up", "/accounts/signup/"),
        Visit("sign-up sent", "/accounts/signup/sent/"),
        Visit("sign-up confirmation token", world.confirm_path),
        Visit("password reset", "/accounts/password/reset/"),
        Visit("password reset sent", "/accounts/password/reset/sent/"),
        # the mailed link: Django moves the token into the session and shows the new-password form
        Visit("password reset token", world.reset_path),
    ]


def signed_in_visits(world: World, run_path: str, tuning_path: str) -> list[Visit]:
    medusa, recharge = world.medusa.public_id, world.recharge.public_id
    return [
        Visit("home (game list)", "/"),
        Visit("game", "/games/unmatched/"),
        Visit("game search", "/games/unmatched/?q=value%3E%3D3"),
        Visit("game recharge", "/games/recharge/"),
        Visit("search help", "/search/"),
        Visit("set", f"/games/unmatched/sets/{world.set_code}/"),
        Visit("card", f"/games/unmatched/cards/{world.card_code}/"),
        Visit("product", "/games/unmatched/products/medusa/"),
        Visit("rules unmatched", "/rules/unmatched/"),
        Visit("rules recharge", "/rules/recharge/"),
        Visit("deck browser", "/decks/browse/unmatched/"),
        Visit("new deck", "/decks/new/"),
        Visit("deck import", "/decks/import/"),
        Visit("deck", f"/decks/{medusa}/"),
        Visit("deck editor", f"/decks/{medusa}/edit/", act=edit_a_quantity),
        Visit("deck recharge", f"/decks/{recharge}/"),
        Visit("deck editor recharge", f"/decks/{recharge}/edit/", act=edit_a_chip),
        Visit("deck history", f"/decks/{medusa}/history/"),
        Visit("deck diff", f"/decks/{medusa}/diff/?a=1&b=2"),
        Visit("test hand", f"/decks/{medusa}/test-hand/?seed=7&turn=1"),
        Visit("odds", f"/decks/{medusa}/odds/"),
        Visit("simulate", f"/sim/decks/{medusa}/"),
        Visit("simulation results", run_path),
        Visit("simulate recharge (improve this deck)", f"/sim/decks/{recharge}/"),
        Visit("tuning", tuning_path),
        Visit("my simulations", "/sim/runs/"),
        Visit("collection", "/collection/"),
        Visit("collection game", "/collection/unmatched/"),
        Visit("collection import", "/collection/import/"),
        Visit("set completion", f"/collection/unmatched/sets/{world.set_code}/missing/"),
        Visit("wishlist", "/collection/wishlist/"),
        Visit("profile", f"/accounts/{USERNAME}/"),
        Visit("another player's profile", f"/accounts/{OTHER}/"),
        Visit("API token", "/accounts/me/token/"),
        Visit("password change", "/accounts/password/change/"),
        Visit("API docs", "/api/v1/docs/", translated=False),
        Visit("catalog import", "/catalog-imports/"),
        *(Visit(f"contribute {kind}", path) for kind, path in world.contribute.player.items()),
        *(Visit(f"editor {kind}", path) for kind, path in world.contribute.editor.items()),
        Visit("admin", "/admin/"),
        Visit("not found", MISSING_PATH, status=404),
    ]


def test_every_page_kind_in_both_languages_draws_without_an_error_a_refusal_or_a_black_chart(
    world: World,
    contexts: Callable[[str], BrowserContext],
    start_worker: Callable[[], CeleryWorker],  # noqa: F811 (test_simulation_flow's fixture)
) -> None:
    start_worker()
    watches: dict[str, Watch] = {}
    run_path = tuning_path = ""
    for language, locale in LANGUAGES.items():
        watch = watches[language] = Watch(site=world.site)
        context = contexts(locale)
        watch.attach(context)
        page = context.new_page()
        page.on("console", watch.console)
        page.on("pageerror", watch.page_error)
        page.on("response", watch.response)
        page.on("requestfailed", watch.request_failed)

        walk(page, watch, signed_out_visits(world), language)
        watch.where = f"{language} logging in"
        log_in(page, world.site)
        if not run_path:
            watch.where = f"{language} starting a simulation"
            run_path = run_a_simulation(page, world.site, world.medusa)
            watch.where = f"{language} starting a tuning"
            tuning_path = tune_a_deck(page, world.site, world.recharge)
        walk(page, watch, signed_in_visits(world, run_path, tuning_path), language)

    kinds = len(signed_out_visits(world)) + len(signed_in_visits(world, run_path, tuning_path))
    for language, watch in watches.items():
        assert watch.pages == kinds, (language, watch.pages)
        # deck, editor, results and tuning pages, in each language, each with a chart
        assert watch.charts >= 5, (language, watch.charts)
    problems = [problem for watch in watches.values() for problem in watch.problems]
    summary = ", ".join(
        f"{lang}: {w.pages} pages, {w.charts} charts" for lang, w in watches.items()
    )
    assert not problems, f"{len(problems)} problems ({summary}):\n" + "\n".join(problems)
