"""Benchmark: the community catalog (issue 21): a set sheet checked and applied, the review
queue, a card's history.

    .venv/bin/python bench/contributions.py [--rows N] [--queue N] [--changes N] [--runs N]

Database: a throwaway PostgreSQL database (bench/_bench.py: ``decklab_bench_contributions_<pid>``,
migrated, dropped at the end), with the test settings (DEBUG off; the cache is Redis when
REDIS_URL is set, else in memory). Nothing else is touched. The hourly limit on proposals is
lifted for the run (``CONTRIBUTIONS_PROPOSALS_PER_HOUR``): one player sends them all.

Figures, each with its issue target:

a. a ``--rows`` (300) row Monster Hunter set sheet, the game's template filled in, checked by
   ``contributions.sheet.sheet_check`` (<= 2 s), then applied: ``proposal_submit`` of its
   bundle and ``proposal_approve`` by an editor (<= 5 s together). Each run puts its sheet in a
   set of its own that already holds 200 cards (the near-duplicate check reads them).
b. ``contributions.selectors.review_queue`` with ``--queue`` (1,000) open proposals from 50
   players, every author and game read as a page would: statements (<= 10) and time.
c. ``card_history`` of a card with ``--changes`` (50) changes (corrections of its name, new
   printings, one revert): statements (<= 6) and time.

Pages, where they are routed when the script runs (a page not built yet is said so): the
review queue ``/contribute/review/<game>/`` and the card page with its history, through the
Django test client signed in as the editor (the card page also signed out, and for a card
with no history, to show what the history itself adds), and the API's review queue and card
history (``/api/v1/review/<game>/``, ``/api/v1/games/<game>/cards/<code>/history/``), after
three warm-up requests; statements are counted with an execute wrapper around one request (as
bench/scale.py's ``ctx.get``). The queue's targets (<= 10) apply to its page and API, the
history's (<= 6) to the card page and the history API.

Times are medians of ``--runs``. The script exits 1 when a figure is over its target.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import os
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from _bench import django_on, machine, throwaway_database, verdict

GAME = "monster-hunter"
EXISTING = 200
PLAYERS = 50
HISTORY_CARD = "HIST-001"
HISTORY_SET = "HIST"
#: in every history row's source, so the card page shows whether it lists the history
HISTORY_SOURCE = "bench history source"
SHEET_SECONDS, APPLY_SECONDS = 2.0, 5.0
QUEUE_STATEMENTS, HISTORY_STATEMENTS = 10, 6
WORDS = ("Iron", "Bone", "Wyvern", "Flame", "Frost", "Thunder", "Dragon", "Storm", "Shadow")
THINGS = ("Blade", "Hammer", "Lance", "Bow", "Mail", "Helm", "Potion", "Bomb", "Fang", "Claw")
SOURCE = {"source_kind": "in_hand", "source_detail": HISTORY_SOURCE}

ok_all: list[bool] = []


def say(label: str, value: str, target: str = "", ok: bool | None = None) -> None:
    if ok is not None:
        ok_all.append(ok)
    mark = "" if ok is None else f"  ({target}: {verdict(ok)})"
    print(f"  {label:58} {value}{mark}", flush=True)


def statements_of(call: Callable[[], Any]) -> tuple[Any, int]:
    """What ``call()`` returns and how many statements it ran."""
    from django.db import connection

    seen: list[str] = []

    def record(execute: Any, sql: str, *args: Any) -> Any:
        seen.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(record):
        result = call()
    if os.environ.get("BENCH_SHOW_SQL"):
        print("\n".join(s[:200] for s in seen))
    return result, len(seen)


def median_of(call: Callable[[], Any], runs: int) -> float:
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        samples.append(time.perf_counter() - began)
    return statistics.median(samples)


# --- data ------------------------------------------------------------------------------------
def users() -> tuple[Any, Any, list[Any]]:
    """The editor, the contributor and 50 other players."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from contributions.models import EDITORS_GROUP

    model = get_user_model()
    editor = model.objects.create_user("bench-editor", password="x")
    editor.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    contributor = model.objects.create_user("bench-contributor", password="x")
    players = [model.objects.create_user(f"bench-player-{n}", password="x") for n in range(PLAYERS)]
    return editor, contributor, players


def seed_set(code: str, cards: int) -> None:
    """A set holding ``cards`` armour cards, as the importer writes them."""
    from catalog.importers.bundle import CardRow, CatalogBundle, PrintingRow, SetRow
    from catalog.importers.service import import_bundles

    bundle = CatalogBundle(game=GAME, origin="bench", sets=[SetRow("bench", code, f"Set {code}")])
    for i in range(cards):
        bundle.cards.append(
            CardRow(
                where="bench",
                code=f"{code}-old-{i}",
                card_type="armor",
                name_en=f"Old Guard {code} {i}",
                name_ja=f"古い防具{code}の{i}",
                attributes={"defence": 1, "cost": 1},
                printings=[PrintingRow("bench", code, f"{i:03d}")],
            )
        )
    import_bundles([bundle])


def filled_sheet(rows: int, set_code: str) -> str:
    """The game's sheet template filled in with ``rows`` new cards of every type, as a player
    would: each row copies the template's example row of its type."""
    from contributions.sheet import sheet_template

    template = list(csv.DictReader(io.StringIO(sheet_template(GAME, set_code=set_code)[1:])))
    assert template, "the template has no example rows"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(template[0]), lineterminator="\r\n")
    writer.writeheader()
    for i in range(rows):
        row = dict(template[i % len(template)])
        row.update(
            code=f"{set_code}-{i:03d}",
            name_en=f"{WORDS[i % len(WORDS)]} {THINGS[(i // len(WORDS)) % len(THINGS)]} {i}",
            name_ja=f"新しいカード{set_code}の{i}",
            number=f"{EXISTING + i:03d}",
        )
        writer.writerow(row)
    return "\ufeff" + out.getvalue()


# --- measures --------------------------------------------------------------------------------
def sheet_figures(editor: Any, contributor: Any, rows: int, runs: int) -> None:
    from catalog.models import Game
    from contributions.payload import bundle_to_data
    from contributions.services import proposal_approve, proposal_submit
    from contributions.sheet import sheet_check

    checks, submits, approves = [], [], []
    for run in range(runs):
        set_code = f"S{run}"
        seed_set(set_code, EXISTING)
        text = filled_sheet(rows, set_code)
        began = time.perf_counter()
        result = sheet_check(text, game_slug=GAME)
        checks.append(time.perf_counter() - began)
        if not result.is_clean:
            for problem in result.problems[:5]:
                print(f"    line {problem.line} {problem.column}: {problem.reason}")
            raise SystemExit(f"the {rows}-row sheet is not clean ({len(result.problems)})")
        assert result.bundle is not None
        game = Game.objects.get(slug=GAME)
        began = time.perf_counter()
        proposal = proposal_submit(
            author=contributor,
            game=game,
            kind="sheet",
            payload=bundle_to_data(result.bundle),
            title=f"Set {set_code}",
            **SOURCE,
        )
        submits.append(time.perf_counter() - began)
        began = time.perf_counter()
        changes = proposal_approve(proposal=proposal, editor=editor)
        approves.append(time.perf_counter() - began)
        assert len(changes) >= rows, len(changes)
    check = statistics.median(checks)
    submit, approve = statistics.median(submits), statistics.median(approves)
    applied = statistics.median(s + a for s, a in zip(submits, approves, strict=True))
    print(f"a. a {rows}-row set sheet (sets of {EXISTING} cards), median of {runs}")
    say("sheet_check", f"{check:.3f} s", f"<= {SHEET_SECONDS:.0f} s", check <= SHEET_SECONDS)
    say("proposal_submit", f"{submit:.3f} s")
    say("proposal_approve (import + history)", f"{approve:.3f} s")
    say(
        "applied: submit + approve",
        f"{applied:.3f} s",
        f"<= {APPLY_SECONDS:.0f} s",
        applied <= APPLY_SECONDS,
    )


def queue_figures(editor: Any, players: list[Any], size: int, runs: int) -> None:
    from django.utils import timezone

    from catalog.models import Game
    from contributions.models import Proposal
    from contributions.selectors import review_queue

    game = Game.objects.get(slug=GAME)
    start = timezone.now() - timedelta(days=2)
    card_payload = {"format": "decklab-catalog", "version": 1, "game": GAME, "cards": []}
    Proposal.objects.bulk_create(
        Proposal(
            game=game,
            author=players[n % len(players)],
            kind="card",
            title=f"queued {n}",
            payload=card_payload,
            created_at=start + timedelta(seconds=n),
            **SOURCE,
        )
        for n in range(size)
    )

    def read() -> list[Any]:
        queue = review_queue(game=game, editor=editor)
        shown = [(p.author.username, p.game.slug, p.get_kind_display()) for p in queue]
        assert len(shown) == len(queue)
        return queue

    queue, statements = statements_of(read)
    seconds = median_of(read, runs)
    print(f"b. the review queue with {len(queue):,} open proposals from {len(players)} players")
    say(
        "review_queue, authors and games read: statements",
        str(statements),
        f"<= {QUEUE_STATEMENTS}",
        statements <= QUEUE_STATEMENTS,
    )
    say("review_queue: time", f"{seconds * 1000:.1f} ms")


def history_card(editor: Any, contributor: Any, changes: int) -> Any:
    """A card with ``changes`` changes: corrections of its name, every fifth a new printing,
    the last one a revert."""
    from catalog.models import Card, Game
    from contributions.services import change_revert, proposal_approve, proposal_submit

    seed_set(HISTORY_SET, 0)
    seed_cards = {"format": "decklab-catalog", "version": 1, "game": GAME}
    card = {
        "code": HISTORY_CARD,
        "type": "armor",
        "name_en": "Storied Mail",
        "name_ja": "物語の鎧",
        "attributes": {"defence": 1, "cost": 1},
        "printings": [{"set": HISTORY_SET, "number": "001"}],
    }
    from catalog.importers.decklab_json import bundle_from_decklab
    from catalog.importers.service import import_bundles

    import_bundles([bundle_from_decklab({**seed_cards, "cards": [card]}, "bench")])
    game = Game.objects.get(slug=GAME)
    last = None
    for n in range(changes - 1):
        if n % 5 == 4:
            card["printings"] = [{"set": HISTORY_SET, "number": f"P{n:02d}"}]
        else:
            card["name_en"] = f"Storied Mail, take {n}"
            card["printings"] = [{"set": HISTORY_SET, "number": "001"}]
        proposal = proposal_submit(
            author=contributor,
            game=game,
            kind="correction",
            payload={**seed_cards, "cards": [dict(card)]},
            target_kind="card",
            target_code=HISTORY_CARD,
            reason=f"correction {n}",
            **SOURCE,
        )
        [last] = proposal_approve(proposal=proposal, editor=editor)
    assert last is not None
    change_revert(change=last, editor=editor)
    return Card.objects.get(game=game, code=HISTORY_CARD)


def history_figures(editor: Any, contributor: Any, changes: int, runs: int) -> Any:
    from contributions.selectors import card_history

    card = history_card(editor, contributor, changes)

    def read() -> list[Any]:
        history = card_history(card=card)
        shown = [
            (
                change.proposed_by and change.proposed_by.username,
                change.approved_by and change.approved_by.username,
                change.proposal and change.proposal.get_state_display(),
            )
            for change in history
        ]
        assert len(shown) == len(history)
        return history

    history, statements = statements_of(read)
    seconds = median_of(read, runs)
    print(f"c. the history of a card with {len(history)} changes")
    say(
        "card_history, people and proposals read: statements",
        str(statements),
        f"<= {HISTORY_STATEMENTS}",
        statements <= HISTORY_STATEMENTS,
    )
    say("card_history: time", f"{seconds * 1000:.1f} ms")
    return card


def page_figures(editor: Any, card: Any, runs: int) -> None:
    from django.test import Client
    from django.urls import Resolver404, resolve

    client = Client(HTTP_HOST="localhost")
    client.force_login(editor)
    anonymous = Client(HTTP_HOST="localhost")
    print("pages (test client; signed in as the editor unless said)")
    card_url = f"/games/{GAME}/cards/{card.code}/"
    pages = [
        ("review queue", client, f"/contribute/review/{GAME}/", QUEUE_STATEMENTS),
        ("card page as the editor", client, card_url, HISTORY_STATEMENTS),
        # the same page of a card with no history: what the history itself adds
        ("card page as the editor, no history", client, f"/games/{GAME}/cards/S0-old-0/", None),
        ("card page, signed out", anonymous, card_url, HISTORY_STATEMENTS),
        ("API review queue", client, f"/api/v1/review/{GAME}/", QUEUE_STATEMENTS),
        (
            "API card history",
            client,
            f"/api/v1/games/{GAME}/cards/{card.code}/history/",
            HISTORY_STATEMENTS,
        ),
    ]
    counted: dict[str, int] = {}
    for label, browser, url, target in pages:
        try:
            resolve(url)
        except Resolver404:
            say(f"{label} {url}", "not routed yet")
            continue
        except Exception as exc:  # pages others are still building: say so
            say(f"{label} {url}", f"the URLs do not load: {type(exc).__name__}: {exc}")
            continue
        for _ in range(3):
            browser.get(url)
        fetch = partial(browser.get, url)
        response, statements = statements_of(fetch)
        seconds = median_of(fetch, runs)
        if response.status_code != 200:
            say(f"{label} {url}", f"HTTP {response.status_code}")
            continue
        counted[label] = statements
        if target is None:
            say(f"{label} {url}: statements", str(statements))
        elif url == card_url and HISTORY_SOURCE not in response.content.decode():
            # the target is the history's page: without the history, no verdict
            say(f"{label} {url}: statements", f"{statements} (no history on it yet)")
        else:
            say(f"{label} {url}: statements", str(statements), f"<= {target}", statements <= target)
        say(f"{label}: time", f"{seconds * 1000:.1f} ms")
    if "card page as the editor" in counted and "card page as the editor, no history" in counted:
        added = counted["card page as the editor"] - counted["card page as the editor, no history"]
        say("statements its changes add to the card page (vs none)", str(added))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300, help="rows of the set sheet")
    parser.add_argument("--queue", type=int, default=1_000, help="open proposals")
    parser.add_argument("--changes", type=int, default=50, help="changes of the card")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each figure")
    args = parser.parse_args()

    with throwaway_database("contributions") as url:
        django_on(url)
        from django.conf import settings

        settings.CONTRIBUTIONS_PROPOSALS_PER_HOUR = 1_000_000
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"bench/contributions.py at {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC")
        print(f"machine: {machine()}; load average {load}")
        editor, contributor, players = users()
        sheet_figures(editor, contributor, args.rows, args.runs)
        queue_figures(editor, players, args.queue, args.runs)
        card = history_figures(editor, contributor, args.changes, args.runs)
        page_figures(editor, card, args.runs)
        return 0 if all(ok_all) else 1


if __name__ == "__main__":
    raise SystemExit(main())
