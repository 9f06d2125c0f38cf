"""Benchmark: the deck editor's changes, the deck page's SQL queries and a deck's legality check.

    .venv/bin/python bench/decks.py [--rounds N] [--runs N] [--profile K]

Targets:

(a) an editor change is answered in at most 100 ms of server time: the median and the p90
    of the htmx POSTs that add one card to a deck and take it away again, ``--rounds`` of each
    (so 2N POSTs per deck), through Django's test client as a logged-in owner with DEBUG off,
    on a legal 40-card Monster Hunter deck and a 50-card Recharge deck with chips. Measured
    twice: as the editor usually runs (the chart drawings of the previous states cached), and
    with the chart cache emptied before each POST (every chart drawn again: the worst case).
    The SQL queries of one change are counted too.
(b) the deck page costs at most 12 SQL queries however many entries the deck has: decks of 5,
    60 and 200 entries per game, built through ``decks.services.deck_create`` from the demo
    cards plus synthetic demo cards (one in three entries pins a printing). The editor page
    is counted as well, for information.
(c) the legality check of a 60-entry deck takes at most 2 ms: ``check_deck`` on the facts of
    the 60-entry decks of (b), built once from the database; median (and p95) of ``--runs``.

The load average (``os.getloadavg()``) is printed before and after, so a run on a busy machine
is recognisable. ``--profile K`` also runs K add/remove pairs on the Monster Hunter deck under
cProfile and prints where the time goes. Runs in a throwaway PostgreSQL database (see
bench/_bench.py); exits non-zero when a figure misses its target.

Run it as a script: its name is the deck app's, so it imports the app's modules only after
``django_on`` has put the project root first on ``sys.path``, and must never be imported as
``decks`` itself.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from _bench import django_on, machine, median_ms, throwaway_database, verdict

CHANGE_TARGET_MS = 100.0
MAX_PAGE_QUERIES = 12
CHECK_TARGET_MS = 2.0
SIZES = (5, 60, 200)
GAMES = ("monster-hunter", "recharge")
HX = {"HTTP_HX_REQUEST": "true"}
VERSION = re.compile(r'id="deck-version" name="version" value="(\d+)"')
MH_HUNTER = "MHD-001"
MH_MAIN = [f"MHD-{n:03d}" for n in (7, 9, 25, 28, 43, 52, 54, 60, 63, 69)]
MH_EXTRA = "MHD-011"
RC_EXTRA = "RCD-084"
RC_CHIPS = [5] * 10 + [4] * 3


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[int(fraction * (len(ordered) - 1))] * 1000


# --- data --------------------------------------------------------------------------------------


def import_catalogs() -> None:
    from django.core.management import call_command

    from games import registry

    for game in GAMES:
        path = str(registry.get(game).catalog_file)
        call_command("import_catalog", path, stdout=io.StringIO())


def add_synthetic_cards(game_slug: str, count: int) -> None:
    """``count`` demo cards of the game, copying the demo cards' types and attributes round-robin
    (never hunters: they all go to the main deck), each with one printing in a bench set."""
    from catalog.models import Card, CardSet, Game, Printing
    from catalog.search import search_key

    game = Game.objects.get(slug=game_slug)
    models = list(
        Printing.objects.filter(card__game=game, variant="")
        .exclude(card__card_type="hunter")
        .select_related("card")
        .order_by("card__code")
    )
    card_set = CardSet.objects.create(
        game=game,
        code="bench-decks",
        name_en="Benchmark cards",
        name_ja="ベンチマークカード",
        is_demo=True,
    )
    cards = []
    for n in range(count):
        model = models[n % len(models)].card
        name_en, name_ja = f"Bench card {n:04d}", f"ベンチカード{n:04d}"
        cards.append(
            Card(
                game=game,
                code=f"bench-{n:04d}",
                name_en=name_en,
                name_ja=name_ja,
                card_type=model.card_type,
                attributes=model.attributes,
                is_demo=True,
                search_key=search_key(name_en, name_ja),
            )
        )
    Card.objects.bulk_create(cards)
    Printing.objects.bulk_create(
        Printing(
            card=card,
            card_set=card_set,
            collector_number=f"{n + 1:04d}",
            attributes=models[n % len(models)].attributes,
        )
        for n, card in enumerate(cards)
    )


def card(game: str, code: str) -> Any:
    from catalog.models import Card

    return Card.objects.get(game__slug=game, code=code)


def editor_decks(owner: Any) -> dict[str, Any]:
    """The decks the editor changes: a legal 40-card Monster Hunter deck (a hunter and ten
    cards × 4) and a 50-card Recharge deck of different cards with legal chips."""
    from catalog.models import Card, Game
    from decks.services import deck_create
    from decks.specs import EntrySpec

    mh = Game.objects.get(slug="monster-hunter")
    mh_specs = [EntrySpec(card(mh.slug, MH_HUNTER), "hunter", 1)]
    mh_specs += [EntrySpec(card(mh.slug, code), "main", 4) for code in MH_MAIN]
    rc = Game.objects.get(slug="recharge")
    rc_cards = Card.objects.filter(game=rc, code__startswith="RCD-").order_by("code")[:50]
    rc_specs = [EntrySpec(c, "main", 1) for c in rc_cards]
    return {
        "monster-hunter, 40 cards": deck_create(
            owner=owner, game=mh, name="Bench MH 40", entries=mh_specs
        ),
        "recharge, 50 cards + 13 chips": deck_create(
            owner=owner, game=rc, name="Bench RC 50", extras={"chips": RC_CHIPS}, entries=rc_specs
        ),
    }


def sized_deck(owner: Any, game_slug: str, entries: int) -> Any:
    """A public deck of ``entries`` entries of different cards (Monster Hunter: a hunter and
    entries - 1 main-deck cards); every third entry pins its card's last printing."""
    from catalog.models import Card, Game, Printing
    from decks.services import deck_create
    from decks.specs import EntrySpec

    game = Game.objects.get(slug=game_slug)
    cards = list(
        Card.objects.filter(game=game).exclude(card_type="hunter").order_by("code")[:entries]
    )
    last_printing = {
        p.card_id: p for p in Printing.objects.filter(card__in=cards).order_by("variant", "pk")
    }
    specs = []
    if game_slug == "monster-hunter":
        specs.append(EntrySpec(card(game_slug, MH_HUNTER), "hunter", 1))
        cards = cards[: entries - 1]
    for n, c in enumerate(cards):
        specs.append(EntrySpec(c, "main", 1, last_printing[c.pk] if n % 3 == 0 else None))
    if len(specs) != entries:
        raise SystemExit(f"{game_slug}: only {len(specs)} cards for a {entries}-entry deck")
    extras = {"chips": RC_CHIPS} if game_slug == "recharge" else {}
    return deck_create(
        owner=owner,
        game=game,
        name=f"Bench {game_slug} {entries}",
        visibility="public",
        extras=extras,
        entries=specs,
    )


# --- (a) editor changes ------------------------------------------------------------------------


@dataclass
class Changes:
    add: list[float]
    remove: list[float]

    @property
    def both(self) -> list[float]:
        return self.add + self.remove


class Editor:
    """Adds one card to a deck through the editor's endpoints and takes it away again."""

    def __init__(self, client: Any, deck: Any, extra_code: str) -> None:
        from django.urls import reverse

        self.client = client
        self.deck = deck
        self.extra = extra_code
        self.version = deck.version
        self.add_url = reverse("decks:edit-add", args=[deck.public_id])
        self.entry_url = reverse("decks:edit-entry", args=[deck.public_id, 0])[:-2]

    def _answer(self, response: Any) -> None:
        if response.status_code != 200:
            raise SystemExit(f"editor change answered {response.status_code}")
        found = VERSION.search(response.content.decode())
        if found is None or int(found.group(1)) != self.version + 1:
            raise SystemExit("the editor's answer does not carry the next deck version")
        self.version += 1

    def add(self) -> float:
        data = {"card": self.extra, "zone": "main", "version": self.version}
        start = time.perf_counter()
        response = self.client.post(self.add_url, data, **HX)
        elapsed = time.perf_counter() - start
        self._answer(response)
        return elapsed

    def remove(self) -> float:
        from decks.models import DeckEntry

        entry = DeckEntry.objects.get(deck=self.deck, card__code=self.extra)
        url = f"{self.entry_url}{entry.pk}/"
        start = time.perf_counter()
        response = self.client.post(url, {"delta": "-1", "version": self.version}, **HX)
        elapsed = time.perf_counter() - start
        self._answer(response)
        return elapsed

    def measure(self, rounds: int, before_each: Callable[[], None]) -> Changes:
        changes = Changes([], [])
        for _ in range(rounds):
            before_each()
            changes.add.append(self.add())
            before_each()
            changes.remove.append(self.remove())
        return changes

    def queries(self) -> tuple[int, int]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as added:
            self.add()
        with CaptureQueriesContext(connection) as removed:
            self.remove()
        return len(added.captured_queries), len(removed.captured_queries)


def summary(samples: list[float]) -> str:
    return (
        f"median {median_ms(samples):6.1f} ms  p90 {percentile(samples, 0.9):6.1f} ms  "
        f"min {min(samples) * 1000:6.1f} ms  (n={len(samples)})"
    )


def bench_changes(client: Any, decks: dict[str, Any], rounds: int) -> bool:
    from decks.views.panels import _chart_svg

    print(f"\n(a) Editor changes: add one card, then take it away (htmx POST, {rounds} of each)")
    ok = True
    editors = {
        label: Editor(client, deck, MH_EXTRA if "monster" in label else RC_EXTRA)
        for label, deck in decks.items()
    }
    for label, editor in editors.items():
        editor.measure(3, lambda: None)  # warm-up: templates compiled, connection open
        add_q, remove_q = editor.queries()
        warm = editor.measure(rounds, lambda: None)
        cold = editor.measure(rounds, _chart_svg.cache_clear)
        print(f"  {label}")
        print(f"    SQL queries of one change: add {add_q}, remove {remove_q}")
        print(f"    add     {summary(warm.add)}")
        print(f"    remove  {summary(warm.remove)}")
        print(f"    both    {summary(warm.both)}")
        print(f"    both, charts drawn afresh  {summary(cold.both)}")
        ok = ok and max(median_ms(warm.both), percentile(warm.both, 0.9)) <= CHANGE_TARGET_MS
    print(f"  target: median and p90 <= {CHANGE_TARGET_MS:.0f} ms per change: {verdict(ok)}")
    return ok


def profile_changes(client: Any, deck: Any, pairs: int) -> None:
    editor = Editor(client, deck, MH_EXTRA)
    profiler = cProfile.Profile()
    profiler.enable()
    editor.measure(pairs, lambda: None)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative")
    stats.print_stats(35)
    print(f"\ncProfile of {pairs} add/remove pairs on the Monster Hunter deck (cumulative):")
    print(out.getvalue())


# --- (b) page queries, (c) legality ------------------------------------------------------------


def count_queries(client: Any, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    return len(captured.captured_queries)


def bench_pages(owner_client: Any, visitor: Any, decks: dict[tuple[str, int], Any]) -> bool:
    from django.urls import reverse

    print(
        "\n(b) SQL queries per deck page (deck page as its owner, list view, anonymous "
        "visitor; the editor for information)"
    )
    print(f"  {'deck':<30} {'page':>5} {'list':>5} {'anon':>5} {'editor':>7}")
    worst = 0
    for (game, entries), deck in decks.items():
        detail = reverse("decks:detail", args=[deck.public_id])
        page = count_queries(owner_client, detail)
        listed = count_queries(owner_client, f"{detail}?view=list")
        anonymous = count_queries(visitor, detail)
        editor = count_queries(owner_client, reverse("decks:edit", args=[deck.public_id]))
        worst = max(worst, page, listed, anonymous)
        label = f"{game}, {entries} entries"
        print(f"  {label:<30} {page:>5} {listed:>5} {anonymous:>5} {editor:>7}")
    ok = worst <= MAX_PAGE_QUERIES
    print(f"  most queries on a deck page: {worst} (target <= {MAX_PAGE_QUERIES}: {verdict(ok)})")
    return ok


def bench_legality(decks: dict[tuple[str, int], Any], runs: int) -> bool:
    from decks.legality.check import check_deck
    from decks.selectors import deck_facts

    print(f"\n(c) Legality check of a 60-entry deck (facts built once; {runs} checks)")
    ok = True
    for (game, entries), deck in decks.items():
        if entries != 60:
            continue
        facts = deck_facts(deck=deck)
        for _ in range(runs // 10):
            problems = check_deck(facts)
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            check_deck(facts)
            samples.append(time.perf_counter() - start)
        median = statistics.median(samples) * 1000
        found = ", ".join(sorted({p.code for p in problems})) or "none"
        print(
            f"  {game:<16} median {median:.3f} ms  p95 {percentile(samples, 0.95):.3f} ms  "
            f"(problems: {found})"
        )
        ok = ok and median <= CHECK_TARGET_MS
    print(f"  target: median <= {CHECK_TARGET_MS:.0f} ms: {verdict(ok)}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="add/remove pairs per deck")
    parser.add_argument("--runs", type=int, default=5000, help="legality checks per deck")
    parser.add_argument("--profile", type=int, default=0, metavar="K")
    args = parser.parse_args()

    print(f"before: {load_average()}")
    with throwaway_database("decks") as url:
        django_on(url)
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        assert not settings.DEBUG
        import_catalogs()
        owner = get_user_model().objects.create_user(username="bench", password="bench-pw-1234")
        for game in GAMES:
            add_synthetic_cards(game, max(SIZES))
        client = Client(HTTP_HOST="localhost")
        client.force_login(owner)
        visitor = Client(HTTP_HOST="localhost")
        print("Decks: editor changes, deck page queries, legality check")
        print(f"machine: {machine()}; DEBUG={settings.DEBUG}")

        changes_ok = bench_changes(client, editor_decks(owner), args.rounds)
        sized = {(game, n): sized_deck(owner, game, n) for game in GAMES for n in SIZES}
        pages_ok = bench_pages(client, visitor, sized)
        legality_ok = bench_legality(sized, args.runs)
        if args.profile:
            profile_changes(client, editor_decks(owner)["monster-hunter, 40 cards"], args.profile)
    print(f"\nafter: {load_average()}")
    return 0 if changes_ok and pages_ok and legality_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
