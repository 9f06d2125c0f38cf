"""A player deals a test hand of the Medusa hero deck, then simulates the deck on a real worker.

In Chromium: log in through the login form, open the deck page, deal a test hand (five cards,
the seed in the address), draw the next turn (one more card, swapped in by htmx), then start a
20,000-game goldfish run and watch the run page poll its progress until the results replace
it, after which the page must stop polling.

The run is played by a real ``celery worker`` subprocess on the pytest test database and the
Redis broker of CELERY_BROKER_URL, as in tests/simulator/test_runs_worker.py: nothing is eager
and nothing is mocked. Without PostgreSQL or a reachable Redis the test fails and says why;
only DECKLAB_NO_BROWSER=1 (set by scripts/test when Chromium cannot be installed) skips it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from catalog.models import Product
from decks.models import Deck
from decks.services import deck_from_product
from simulator.models import RunStatus, SimulationRun
from tests.celery_logs import CeleryLogs
from tests.celery_process import test_database_url

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(settings.BASE_DIR)
CATALOG = ROOT / "games" / "unmatched" / "catalog.json"
CELERY = Path(sys.executable).parent / "celery"
USERNAME = "gorgon_tester"
PASSWORD = "a-long-simulation-test-passphrase"
GAMES = 20_000
#: simulator/cost.py: with no earlier run to measure, an engine is taken to play 10,000 games
#: a second; 20,000 games (2 s) go in 8 chunks, as many as a player may have in flight
CHUNKS = 8
OPENING_HAND = 5
RESULTS_WITHIN_MS = 90_000
WORKER_READY_WITHIN = 60.0
#: the run page polls every second; this long without a request means polling has stopped
QUIET_MS = 3_000
RUN_PATH = re.compile(r"^/sim/runs/[^/]+/$")
RUN_URL = re.compile(r"/sim/runs/[^/?#]+/$")


# --- Services -------------------------------------------------------------------------------


def _where(url: str) -> str:
    """A broker or database URL without its credentials, for messages."""
    parts = urlsplit(url)
    if not parts.hostname:
        return f"{parts.scheme}://"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path}"


def _require_services() -> str:
    """The broker URL, once Redis and PostgreSQL are known to be there (else the test fails)."""
    if os.environ.get("DECKLAB_NO_BROWSER") == "1":
        pytest.skip("DECKLAB_NO_BROWSER=1: Chromium could not be installed, browser tests not run")
    broker = str(settings.CELERY_BROKER_URL)
    if not broker.startswith(("redis://", "rediss://")):
        pytest.fail(
            f"This test needs a Redis broker for its Celery worker, but CELERY_BROKER_URL is "
            f"{_where(broker)!r}. Set CELERY_BROKER_URL=redis://127.0.0.1:6379/<db>.",
            pytrace=False,
        )
    import redis

    problem = ""
    try:
        redis.Redis.from_url(broker, socket_connect_timeout=3, socket_timeout=3).ping()
    except redis.RedisError as exc:
        problem = str(exc)
    if problem:
        pytest.fail(
            f"Redis does not answer at {_where(broker)} ({problem}). The simulation flow needs "
            "a real broker and worker: start Redis (or point CELERY_BROKER_URL at one).",
            pytrace=False,
        )
    if connection.vendor != "postgresql":
        pytest.fail(
            f"This test needs PostgreSQL (DATABASE_URL), not {connection.vendor}: the Celery "
            "worker subprocess must share the test database with the live server.",
            pytrace=False,
        )
    return broker


class CeleryWorker:
    """One ``celery worker`` node (one prefork child) in its own process group."""

    def __init__(self, broker: str, log: Path) -> None:
        self.name = f"simflow{os.getpid()}"
        self.log = log
        self._log_file = log.open("wb")
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": broker,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        command = [str(CELERY), "-A", "decklab", "worker", "-c", "1", "--pool", "prefork"]
        command += ["-n", f"{self.name}@%h", "-l", "info", "--without-gossip", "--without-mingle"]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def tail(self, chars: int = 4000) -> str:
        self._log_file.flush()
        return f"--- worker log {self.log}\n{self.log.read_text(errors='replace')[-chars:]}"

    def wait_ready(self, timeout: float) -> None:
        from decklab.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(
                    f"the Celery worker exited with {self.process.returncode}\n{self.tail()}",
                    pytrace=False,
                )
            replies = app.control.ping(timeout=0.5) or []
            if any(name.startswith(f"{self.name}@") for reply in replies for name in reply):
                return
        pytest.fail(f"the Celery worker did not answer within {timeout:g} s\n{self.tail()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self._log_file.close()


@pytest.fixture
def start_worker(
    transactional_db: None, tmp_path: Path, celery_logs: CeleryLogs
) -> Iterator[Callable[[], CeleryWorker]]:
    """Starts a real worker on the test database, from the test itself, so missing services
    fail the test; the worker is stopped before the database is flushed."""
    started: list[CeleryWorker] = []

    def start() -> CeleryWorker:
        broker = _require_services()
        from decklab.celery import app

        app.control.purge()  # chunks left behind by an interrupted earlier session
        worker = CeleryWorker(broker, celery_logs.watch(tmp_path / "worker.log"))
        started.append(worker)
        worker.wait_ready(WORKER_READY_WITHIN)
        return worker

    yield start
    for worker in started:
        worker.stop()


# --- Data -----------------------------------------------------------------------------------


@pytest.fixture
def medusa_deck(live_server: Any) -> tuple[str, Deck]:
    """The live server's address and a deck made from the Medusa hero-deck product."""
    call_command("import_catalog", str(CATALOG), verbosity=0)
    user = get_user_model().objects.create_user(
        username=USERNAME, email=f"{USERNAME}@example.test", password=PASSWORD
    )
    product = Product.objects.get(game__slug="unmatched", code="medusa")
    return str(live_server.url), deck_from_product(product=product, user=user)


def log_in(page: Page, site: str) -> None:
    """Log in through the login form; it lands on the player's own page."""
    from playwright.sync_api import expect

    page.goto(f"{site}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main form").get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(rf"/accounts/({USERNAME}|me)/$"))
    expect(page.locator("h1")).to_have_text(USERNAME)


def query_of(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


# --- The flow -------------------------------------------------------------------------------


def test_a_player_deals_a_test_hand_then_watches_a_simulation_run_to_its_results(
    page: Page, medusa_deck: tuple[str, Deck], start_worker: Callable[[], CeleryWorker]
) -> None:
    from playwright.sync_api import expect

    celery_worker = start_worker()
    site, deck = medusa_deck
    deck_path = deck.get_absolute_url()
    log_in(page, site)
    page.locator(f'main a[href="{deck_path}"]').click()
    page.wait_for_url(f"{site}{deck_path}")
    expect(page.locator("#deck-title")).to_have_text("Medusa")

    # --- A test hand: five cards, the seed in the address, then one more card.
    page.locator('a[data-action="test-hand"]').click()
    page.wait_for_url(re.compile(r"/test-hand/\?seed=\d+&turn=0$"))
    seed = query_of(page.url)["seed"]
    hand = page.locator("#test-hand")
    expect(hand).to_have_attribute("data-seed", seed)
    expect(hand).to_have_attribute("data-turn", "0")
    expect(hand.locator('section[data-turn="0"]')).to_have_attribute(
        "data-drawn", str(OPENING_HAND)
    )
    expect(hand.locator("li[data-card]")).to_have_count(OPENING_HAND)
    opening = hand.locator("li[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")

    page.evaluate("window.decklabSameDocument = true")
    page.locator("[data-next-turn]").click()
    page.wait_for_url(re.compile(rf"/test-hand/\?seed={seed}&turn=1$"))
    expect(hand).to_have_attribute("data-turn", "1")
    expect(hand.locator("li[data-card]")).to_have_count(OPENING_HAND + 1)
    expect(hand.locator('section[data-turn="1"]')).to_have_attribute("data-drawn", "1")
    expect(hand).to_have_attribute("data-seed", seed)
    # Same seed, same opening hand: the draw only added a card. htmx swapped the hand in place.
    after = hand.locator('section[data-turn="0"] li[data-card]').evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert after == opening
    assert page.evaluate("window.decklabSameDocument") is True

    # --- Start a run from the deck page.
    page.locator("header.page-head").get_by_role("link", name="Deck page").click()
    page.wait_for_url(f"{site}{deck_path}")
    page.locator('a[data-action="simulate"]').click()
    page.wait_for_url(re.compile(r"/sim/decks/[^/]+/$"))
    expect(page.locator("h1")).to_have_text("Goldfish simulation")
    page.locator("#id_games").fill(str(GAMES))

    polls: list[tuple[str, int]] = []

    def record_poll(response: Response) -> None:
        path = urlsplit(response.url).path
        if RUN_PATH.match(path) and response.request.headers.get("hx-request") == "true":
            polls.append((path, response.status))

    page.on("response", record_poll)

    def is_run_page(response: Response) -> bool:
        return bool(RUN_PATH.match(urlsplit(response.url).path)) and (
            response.request.resource_type == "document"
        )

    with page.expect_response(is_run_page) as landing:
        page.locator("#simulate-form").get_by_role("button", name="Simulate").click()
    page.wait_for_url(RUN_URL)
    run_path = urlsplit(page.url).path
    run = SimulationRun.objects.get(public_id=run_path.rstrip("/").rsplit("/", 1)[-1])
    assert (run.games, run.chunks_total) == (GAMES, CHUNKS)
    # As first served, the run was still going and its status section polled itself.
    assert 'hx-trigger="every 1s"' in landing.value.text()
    expect(page.locator("#run-seed")).to_have_text(str(run.seed))

    # --- Watch the progress bar until the results replace it.
    try:
        expect(page.locator("#run-results")).to_be_visible(timeout=RESULTS_WITHIN_MS)
    except AssertionError:
        run.refresh_from_db()
        pytest.fail(
            f"no results after {RESULTS_WITHIN_MS // 1000} s: the run is {run.status} "
            f"({run.chunks_done}/{run.chunks_total} chunks, error {run.error!r}); "
            f"polls seen: {polls[-5:]}\n{celery_worker.tail()}",
            pytrace=False,
        )
    status = page.locator("#run-status")
    expect(status).to_have_attribute("data-status", RunStatus.SUCCEEDED.value)
    expect(page.locator("#run-badge")).to_have_text("Succeeded")
    bar = status.get_by_role("progressbar", name="Simulation progress")
    expect(bar).to_have_attribute("aria-valuenow", "100")
    expect(bar.locator(".progress-bar")).to_have_text("100%")
    expect(status).to_contain_text(f"{CHUNKS} of {CHUNKS} chunks")

    # Polling stopped: nothing on the page asks to be polled, the last poll was answered 286
    # (htmx's "stop polling"), and no request follows it.
    expect(page.locator("[hx-trigger]")).to_have_count(0)
    expect(page.locator("#cancel-form")).to_have_count(0)
    assert polls, "the run page never polled its progress"
    assert {path for path, _status in polls} == {run_path}
    assert polls[-1][1] == 286, polls
    assert all(code == 200 for _path, code in polls[:-1]), polls
    seen = len(polls)
    page.wait_for_timeout(QUIET_MS)
    assert len(polls) == seen, f"the page kept polling after the results: {polls[seen:]}"

    # The results: tables with intervals and at least one chart.
    results = page.locator("#run-results")
    expect(results).to_contain_text(f"Over {GAMES:,} games")
    tables = results.locator("table.catalog-table")
    assert tables.count() >= 1
    expect(tables.first).to_be_visible()
    assert results.locator("table.catalog-table tbody tr[data-metric]").count() >= 1
    charts = results.locator("figure[data-chart] svg")
    assert charts.count() >= 1
    expect(charts.first).to_be_visible()
    expect(page.locator("#run-replay")).to_be_visible()

    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert (run.chunks_done, run.games_done) == (CHUNKS, GAMES)
    workers = set(run.chunks.values_list("worker", flat=True))
    assert {name.split("@")[0] for name in workers} == {celery_worker.name}
