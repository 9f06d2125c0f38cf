"""Benchmark: "Improve this deck" (issue 23) end to end on real workers, and its ranking's
reliability over seeds.

    .venv/bin/python bench/tuning.py [--seeds 20] [--skip-embedded] [--skip-postgres]
                                     [--repeat 2] [--pg-database NAME] [--budget GAMES]

Targets (issue 23), for a 40-card deck with 30 candidate cards and the default budget (no
budget given: ``simulator.tuning.services.DEFAULT_SECONDS`` of worker time, turned into game
plays by the cost model, ``simulator.cost.run_estimate``):

- **embedded**: the default setup (SQLite and the filesystem broker under a throwaway
  DECKLAB_VAR_DIR), one worker: the ranking within 60 s of ``tuning_create``.
- **pg**: PostgreSQL + Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/12, its queues
  purged first), two workers (``celery worker -c 1`` each): within 20 s.
- **seeds**: the planted best move ranked first in at least 19 of 20 seeds within that budget,
  played in this process with the pure ``simulator.engine.tuning.race`` on the very moves
  ``tuning_create`` races (its candidates and legality filter), at the budget in game plays the
  timed jobs got (``--budget`` to give another).

Each timed part tunes the planted deck (below) with the default budget, then the demo product
Ember Hunt as it is with that same budget in game plays (default parameters, "HR points by turn
5", the first 30 catalog cards it does not hold: its best moves are many and alike, so the race
spends the whole budget, the time's worst case), then the planted deck again ``--repeat`` - 1
times with the next seeds. For each it prints the moves, rounds, game plays spent, the budget,
the plays racing saved (``RaceState.saved``) against an even split, where the time went (each
round's worker CPU, its chunks with ``prepare`` included, against its wall time; the gaps
between rounds; ``tuning_create``), and the cost model's speed before and after (a tuning's
rounds must not change it, or every later default budget drifts). The same seed's race must be
identical on 2 workers, on 1, and in one process.

The deck (Monster Hunter, whose main deck is exactly 40 cards: shared/rules/monster-hunter.md
line 31; at most 4 copies a card, line 33) is built of the demo catalog's cards, the hunter
Wandering Hunter Ren (meat and barrel-bomb item icons) beside it: 12 monsters, 16 weapons,
8 usable items and 4 Spiral Shells, an ammo item Ren can never use (line 26). The parameters
set a training ground the hunter reaches at once (4 monsters of 6 HP that never hit back,
rank 5, all back every turn), so a slay spends four cards for attack (lines 54-55: a weapon
in hand, none equipped, or a usable item, +1 each), and the "nothing" discard policy, so a
card never used stays in the hand of 6 (line 45 lets the player keep it). The goal is the
turn 20 HR points are reached (line 41). The planted best move cuts a Spiral Shells (dead,
and clogging the hand) for a Blast Keg, the only candidate of the 30 that adds attack: the
others are the 18 demo monsters (cutting the dead card for one is the second-best kind of
move, measured about 0.15 turns behind), the 8 armors (as dead as the shells here: the
line-up never hits back) and 3 more items Ren cannot use.

Needs the local PostgreSQL (a database made and dropped here, ``--pg-database``) and Redis.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _bench import (
    ADMIN_URL,
    ROOT,
    _admin_connection,
    _close_django_connections,
    _with_database,
    django_on,
    machine,
    verdict,
)
from run_scale import Workers, worker_env

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
GAME = "monster-hunter"
SEED = 20_261_127
#: the seeds of the reliability part: this many, from here
FIRST_SEED = 1_000
TARGET_EMBEDDED = 60.0
TARGET_PG = 20.0
TARGET_FIRST = 19
#: plain runs of the deck before the timed tuning, so the cost model knows the engine's speed
#: on these workers (as a site that has played runs does): the default budget is its seconds
TEACHING_RUNS = (20_000, 200_000)

HUNTER = "MHD-001"  # Wandering Hunter Ren: attack 2, item icons meat and barrel-bomb
MAIN = {
    # monsters (line 47: one placed a turn, four areas)
    "MHD-007": 3,
    "MHD-009": 3,
    "MHD-011": 3,
    "MHD-013": 3,
    # weapons: +1 attack each when discarded in a hunt, none being equipped (line 21)
    "MHD-025": 4,
    "MHD-026": 4,
    "MHD-028": 4,
    "MHD-034": 4,
    # items Ren can use (meat): +1 attack each (the "item_effect" parameter)
    "MHD-060": 4,
    "MHD-061": 4,
    # Spiral Shells: an ammo item, never usable by Ren (line 26)
    "MHD-065": 4,
}
PARAMS: dict[str, Any] = {
    "discard_policy": "none",
    "lineup": "uniform",
    "lineup_count": 4,
    "lineup_hp": 6,
    "lineup_attack": 0,
    "lineup_reach": 0,
    "lineup_rank": 5,
    "restock": "all",
    "approach": 1,
}
GOAL = "hr_win_turn"
#: the planted best move: the dead Spiral Shells out, the one candidate adding attack in
PLANTED = ("MHD-065", "MHD-062")
CANDIDATES = (
    ["MHD-062"]  # Blast Keg: barrel-bomb, usable by Ren
    + [f"MHD-{n:03d}" for n in range(7, 25)]  # the 18 demo monsters
    + [f"MHD-{n:03d}" for n in range(52, 60)]  # the 8 armors
    + ["MHD-063", "MHD-064", "MHD-067"]  # items Ren cannot use (ball, ball, bottle)
)
#: the demo product tuned as it is, and its goal (the time's worst case: the budget spent)
DEMO_PRODUCT = "mh-demo-ember-hunt"
DEMO_GOAL = "hr_by_turn"
assert len(CANDIDATES) == 30 and sum(MAIN.values()) == 40


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


# --- data -------------------------------------------------------------------------------------


def planted_deck() -> tuple[Any, Any]:
    """A player and the planted deck, the game's catalog imported from its catalog.json."""
    from django.contrib.auth import get_user_model

    from catalog.importers.service import bundles_from_path, import_bundles
    from catalog.models import Card, Game
    from decks.services import deck_create
    from decks.specs import EntrySpec
    from games import registry

    catalog = registry.get(GAME).catalog_file
    assert catalog is not None
    import_bundles(bundles_from_path(catalog))
    user = get_user_model().objects.create_user(username="tuner", password="bench-only")
    game = Game.objects.get(slug=GAME)
    cards = {c.code: c for c in Card.objects.filter(game=game, code__in=[HUNTER, *MAIN])}
    entries = [EntrySpec(cards[HUNTER], "hunter", 1)]
    entries += [EntrySpec(cards[code], "main", n) for code, n in MAIN.items()]
    deck = deck_create(owner=user, game=game, name="Planted", entries=entries)
    assert deck.is_legal, "the planted deck must be legal"
    return user, deck


def wait_run(run_id: int, timeout: float = 600) -> None:
    from simulator.models import SimulationRun

    status = SimulationRun.objects.filter(pk=run_id).values_list("status", flat=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and status.first() in ("queued", "running"):
        time.sleep(0.02)
    if status.first() != "succeeded":
        raise RuntimeError(f"teaching run {run_id} ended {status.first()}")


def teach(user: Any, deck: Any) -> None:
    from simulator.services import run_create

    for games in TEACHING_RUNS:
        run = run_create(
            owner=user, deck=deck, engine_slug=GAME, params=PARAMS, games=games, seed=SEED
        )
        wait_run(run.pk)


def model_speed(params: dict[str, Any]) -> float:
    """Game plays a second the cost model reads now (for these parameters)."""
    from simulator import cost
    from simulator.selectors import engine_get

    engine = engine_get(GAME)
    assert engine is not None
    return cost.run_estimate(engine, engine.params.clean(params), 1).games_per_second


# --- a timed tuning ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A deck to tune and how: the planted deck, or the demo product as it is."""

    label: str
    deck: Any
    goal: str
    params: dict[str, Any]
    cards: tuple[str, ...]
    #: the move known to be best (None: not known)
    planted: tuple[str, str] | None


def demo_case(user: Any) -> Case:
    """The demo product Ember Hunt as it is (40 cards and its hunter), the engine's default
    parameters, "HR points by turn 5": most moves swap one dead card for one monster and are
    alike, so the race keeps many of them and spends its budget (the time's worst case)."""
    from catalog.models import Card, Product
    from decks.selectors import deck_entries
    from decks.services import deck_from_product

    product = Product.objects.get(game__slug=GAME, code=DEMO_PRODUCT)
    deck = deck_from_product(product=product, user=user)
    held = {entry.card.code for entry in deck_entries(deck=deck)}
    cards = (
        Card.objects.filter(game__slug=GAME)
        .exclude(card_type="hunter")
        .exclude(code__in=held)
        .order_by("code")
        .values_list("code", flat=True)[:30]
    )
    return Case("Ember Hunt as it is", deck, DEMO_GOAL, {}, tuple(cards), None)


def timed_tuning(
    user: Any, case: Case, workers: int, seed: int, budget: int | None = None
) -> dict[str, Any]:
    """One tuning from ``tuning_create`` (no budget: the default) to its job succeeded, on the
    workers running; its figures printed and returned."""
    from simulator.engine.tuning import RaceState
    from simulator.models import SimulationRun, TuningJob, TuningSource
    from simulator.tuning.report import tuning_report
    from simulator.tuning.services import tuning_create

    speed_before = model_speed(case.params)
    started = time.perf_counter()
    job = tuning_create(
        owner=user,
        deck=case.deck,
        goal=case.goal,
        source=TuningSource.LIST,
        cards=case.cards,
        params=case.params,
        seed=seed,
        budget_games=budget,
    )
    created = time.perf_counter() - started
    status = TuningJob.objects.filter(pk=job.pk).values_list("status", flat=True)
    deadline = time.monotonic() + 900
    # a light poll (the status alone): the workers share the machine's cores with this loop
    while time.monotonic() < deadline and status.first() in ("queued", "running"):
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    job = TuningJob.objects.get(pk=job.pk)
    if job.status != "succeeded":
        raise RuntimeError(f"tuning {job.status}: {job.error}")
    state = RaceState.from_json(job.state)
    report = tuning_report(job)
    best = report.rows[0]
    best_move = (best.cut.code if best.cut else None, best.add.code if best.add else None)
    rounds = list(SimulationRun.objects.filter(tuning=job).order_by("pk"))
    summary = {
        "label": case.label,
        "workers": workers,
        "seconds": elapsed,
        "create_seconds": created,
        "budget": job.budget,
        "default_budget": budget is None,
        "moves": state.moves,
        "illegal": job.spec.get("illegal", 0),
        "rounds": state.rounds,
        "games": state.games,
        "left": len(state.survivors()),
        "spent": state.spent,
        "saved": state.saved(),
        "worker_seconds": job.worker_seconds,
        "planted": case.planted,
        "first_is_planted": best_move == case.planted,
        "best": best_move,
        "speed_before": speed_before,
        "speed_after": model_speed(case.params),
        "digest": race_digest(state),
    }
    print_tuning(summary, state, rounds, job)
    return summary


def race_digest(state: Any) -> str:
    """The race's every figure but its budget (its exact sums, games and drops), hashed: the
    same seed must give the same race on any number of workers, and in one process, while
    the budget is not what ends it (the default budgets differ a little between setups: each
    measures its own workers' speed)."""
    data = {k: v for k, v in state.to_json().items() if k != "budget"}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def print_tuning(summary: dict[str, Any], state: Any, rounds: list[Any], job: Any) -> None:
    s = summary
    even = (s["moves"] + 1) * s["games"]
    share = s["budget"] // (s["moves"] + 1)
    print(
        f"  {s['moves']} moves ({s['illegal']} illegal left out), {s['rounds']} rounds, "
        f"{s['games']:,} games for the moves still in at the end"
    )
    print(
        f"  budget {s['budget']:,} game plays ({'default' if s['default_budget'] else 'given'}: "
        f"{s['budget'] / s['speed_before']:.1f} worker-s at the model's "
        f"{s['speed_before']:,.0f} plays/s); spent {s['spent']:,} "
        f"({100 * s['spent'] / s['budget']:.0f} %)"
    )
    print(
        f"  racing saved {s['saved']:,} plays against giving every move those "
        f"{s['games']:,} games ({even:,} plays): the race spent {s['spent'] / even:.3f} of an "
        f"even split, {even / s['spent']:.1f}x fewer; the leader got {s['games']:,} games, an "
        f"even split of the budget gives each move {share:,} "
        f"({s['games'] / max(1, share):.1f}x)"
    )
    if s["planted"] is None:
        known = "no planted move"
    else:
        known = "the planted move" if s["first_is_planted"] else "NOT the planted move"
    print(
        f"  first: cut {s['best'][0]} add {s['best'][1]} ({known}); {s['left']} moves left "
        "in the race at the end"
    )
    wall_rounds = 0.0
    cpu = 0.0
    previous_end = job.created_at
    gaps = 0.0
    for number, run in enumerate(rounds, 1):
        wall = (run.finished_at - run.created_at).total_seconds()
        gap = (run.created_at - previous_end).total_seconds()
        wait = (run.started_at - run.created_at).total_seconds() if run.started_at else 0.0
        previous_end = run.finished_at
        wall_rounds += wall
        cpu += run.worker_seconds
        gaps += max(0.0, gap)
        print(
            f"    round {number:>2}: {run.games:>7,} games x "
            f"{json_survivors(run)} decks, {run.chunks_total:>3} chunks of {run.chunk_size:>6,}; "
            f"wall {wall:6.2f} s (first chunk after {wait:.2f} s), worker CPU "
            f"{run.worker_seconds:6.2f} s"
        )
    tail = (job.finished_at - previous_end).total_seconds()
    print(
        f"  time: {s['seconds']:.2f} s end to end = tuning_create {s['create_seconds']:.2f} s "
        f"+ rounds {wall_rounds:.2f} s wall (worker CPU {cpu:.2f} s over {s['workers']} "
        f"worker{'s' if s['workers'] > 1 else ''}: {cpu / s['workers']:.2f} s each) + "
        f"between rounds {gaps:.2f} s + after the last {max(0.0, tail):.2f} s; {load()}"
    )
    chunks = sum(run.chunks_total for run in rounds)
    beyond = wall_rounds - cpu / s["workers"]
    print(
        f"  the rounds' wall beyond their CPU shared by the workers: {beyond:.2f} s over "
        f"{chunks} chunks ({1000 * beyond / max(1, chunks):.0f} ms a chunk: a chunk's fixed "
        "cost, a worker idle while the other plays a round's last chunk, the machine's load)"
    )
    # a round is a run of the engine: were it counted as one, the model would read the
    # engine (survivors + 1) times slower and every later default budget would shrink
    same = abs(s["speed_after"] - s["speed_before"]) <= 0.01 * s["speed_before"]
    print(
        f"  the cost model's speed: {s['speed_before']:,.0f} game plays/s before this tuning, "
        f"{s['speed_after']:,.0f} after"
        + ("" if same else " (CHANGED: the rounds were counted as runs of the engine)")
    )


def json_survivors(run: Any) -> int:
    from simulator.models import SimulationRun

    data = SimulationRun.objects.filter(pk=run.pk).values_list("deck_data", flat=True).get()
    return len(data["tuning"]["survivors"]) + 1


# --- the parts --------------------------------------------------------------------------------


@contextmanager
def named_database(name: str) -> Iterator[str]:
    """The PostgreSQL database ``name``, made empty, dropped afterwards."""
    from psycopg import sql

    with _admin_connection() as conn:  # type: ignore[attr-defined]
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield _with_database(ADMIN_URL, name)
    finally:
        _close_django_connections()
        with _admin_connection() as conn:  # type: ignore[attr-defined]
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def timed_on_workers(env: dict[str, str], count: int, log_dir: Path, repeat: int) -> dict[str, Any]:
    """The planted deck's tuning with the default budget (the cost model taught by plain runs),
    the demo deck's with that same budget in game plays (given, so that its time is the
    default budget's whatever the model reads by then), then the planted deck's again
    ``repeat`` - 1 times with the default budget and the next seeds, as a player starting
    again (the budget must not drift)."""
    user, deck = planted_deck()
    planted = Case("planted deck", deck, GOAL, PARAMS, tuple(CANDIDATES), PLANTED)
    demo = demo_case(user)
    workers = Workers(count, env, log_dir)
    try:
        lines = workers.wait_ready()
        print("\n".join(f"    worker: {line}" for line in lines))
        teach(user, deck)
        print(f"  tuning #1, the planted deck, default budget (seed {SEED}):")
        first = timed_tuning(user, planted, count, SEED)
        print(f"  tuning #2, {demo.label}, budget {first['budget']:,} (seed {SEED}):")
        spent = timed_tuning(user, demo, count, SEED, first["budget"])
        runs = [first]
        for attempt in range(1, repeat):
            seed = SEED + attempt
            print(f"  tuning #{attempt + 2}, the planted deck again, default budget (seed {seed}):")
            runs.append(timed_tuning(user, planted, count, seed))
        return {
            **first,
            "demo": spent,
            "all_seconds": [r["seconds"] for r in runs] + [spent["seconds"]],
            "all_budgets": [r["budget"] for r in runs],
            "all_planted": [r["first_is_planted"] for r in runs],
        }
    finally:
        workers.stop()


def seconds(summary: dict[str, Any]) -> str:
    times = ", ".join(f"{t:.2f}" for t in summary["all_seconds"])
    budgets = ", ".join(f"{b:,}" for b in summary["all_budgets"])
    return (
        f"{times} s (the planted deck's tunings, then the demo deck's; the planted deck's "
        f"default budgets {budgets} game plays)"
    )


def part_pg(args: argparse.Namespace) -> dict[str, Any]:
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    with named_database(args.pg_database) as url:
        django_on(url)
        from decklab.celery import app

        app.control.purge()
        print(f"PostgreSQL + Redis ({REDIS_URL}), 2 workers; {machine()}; {load()}")
        env = worker_env(DATABASE_URL=url, CELERY_BROKER_URL=REDIS_URL, DATABASE_POOL_MAX="2")
        log_dir = Path(tempfile.mkdtemp(prefix="tuning_pg_"))
        summary = timed_on_workers(env, 2, log_dir, args.repeat)
    ok = max(summary["all_seconds"]) <= TARGET_PG
    print(
        f"PostgreSQL + Redis, 2 workers: {seconds(summary)} (target <= {TARGET_PG:.0f} "
        f"s: {verdict(ok)}); worker logs: {log_dir}"
    )
    return {**summary, "ok": ok}


def part_embedded(args: argparse.Namespace) -> dict[str, Any]:
    var = Path(tempfile.mkdtemp(prefix="tuning_embedded_"))
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["DECKLAB_VAR_DIR"] = str(var)
    # the kernels' disk cache stays the machine's, not the throwaway directory's
    os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / "var" / "numba"))
    url = f"sqlite:///{var / 'decklab.sqlite3'}"
    django_on(url)
    env = worker_env(DATABASE_URL=url, DECKLAB_VAR_DIR=str(var))
    env.pop("CELERY_BROKER_URL", None)
    env.pop("REDIS_URL", None)
    print(f"embedded (SQLite, filesystem broker in {var}), 1 worker; {load()}")
    summary = timed_on_workers(env, 1, var, args.repeat)
    ok = max(summary["all_seconds"]) <= TARGET_EMBEDDED
    print(
        f"embedded, 1 worker: {seconds(summary)} (target <= {TARGET_EMBEDDED:.0f} s: {verdict(ok)})"
    )
    return {**summary, "ok": ok}


def race_inputs() -> tuple[Any, list[Any], dict[str, Any], Any, int | None]:
    """The deck, moves, new cards, goal and turn ``tuning_create`` would race (its own
    candidate lookup and legality filter), read off a throwaway SQLite database."""
    from catalog.models import Game
    from simulator.decks import deck_facts_light, sim_deck_from_facts
    from simulator.engine.goals import goal_by_code
    from simulator.models import TuningSource
    from simulator.selectors import engine_get
    from simulator.tuning.candidates import candidate_cards, legal_moves

    user, deck = planted_deck()
    facts = deck_facts_light(deck)
    sim_deck = sim_deck_from_facts(facts)
    found = candidate_cards(
        game=Game.objects.get(slug=GAME), owner=user, source=TuningSource.LIST, lines=CANDIDATES
    )
    moves = legal_moves(facts=facts, deck=sim_deck, cards=found, pins=(), sizes=False)
    engine = engine_get(GAME)
    assert engine is not None
    goal = goal_by_code(engine.goals, GOAL)
    return sim_deck, moves.moves, moves.new_cards, goal, None


def in_process_speed(engine: Any, deck: Any, goal: Any) -> float:
    """Game plays per CPU second of the goal's values on this deck, in this process: the
    cost model's figure when no timed part gave the budget."""
    params = engine.params.clean(PARAMS)
    prepared = engine.prepare(deck, params)
    engine.goal_values(prepared, params, goal, None, SEED, 0, 1_000)  # warm
    started = time.thread_time()
    count = 200_000
    engine.goal_values(prepared, params, goal, None, SEED, 0, count)
    return count / (time.thread_time() - started)


def part_seeds(args: argparse.Namespace) -> dict[str, Any]:
    var = Path(tempfile.mkdtemp(prefix="tuning_seeds_"))
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["DECKLAB_VAR_DIR"] = str(var)
    django_on(f"sqlite:///{var / 'decklab.sqlite3'}")
    from simulator.engine.tuning import Move, race
    from simulator.selectors import engine_get
    from simulator.tuning.services import DEFAULT_SECONDS

    engine = engine_get(GAME)
    assert engine is not None
    deck, moves, new_cards, goal, turn = race_inputs()
    params = engine.params.clean(PARAMS)
    engine.warm()  # the kernels loaded (or compiled) once, as a worker does when it starts
    prepare_cost(engine, deck, moves, new_cards, params, goal)
    budget = args.budget
    if budget is None:
        speed = in_process_speed(engine, deck, goal)
        budget = int(DEFAULT_SECONDS * speed)
        source = f"{DEFAULT_SECONDS:g} s x {speed:,.0f} plays/CPU-s measured here"
    else:
        source = "the timed tuning's default budget"
    planted = Move(*PLANTED)
    if args.expect:
        same = race(
            engine,
            deck,
            moves,
            new_cards=new_cards,
            params=params,
            goal=goal,
            turn=turn,
            seed=SEED,
            budget=budget,
        )
        digest = race_digest(same.state)
        print(
            f"  seed {SEED} in this process: race {digest}, the timed tuning's {args.expect}: "
            + ("the same race" if digest == args.expect else "NOT THE SAME RACE")
        )
    print(
        f"seeds: {len(moves)} moves, budget {budget:,} game plays ({source}), "
        f"{args.seeds} seeds; {load()}"
    )
    firsts = 0
    for n in range(args.seeds):
        seed = FIRST_SEED + 37 * n
        cpu, wall = time.process_time(), time.perf_counter()
        result = race(
            engine,
            deck,
            moves,
            new_cards=new_cards,
            params=params,
            goal=goal,
            turn=turn,
            seed=seed,
            budget=budget,
        )
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        state = result.state
        first = result.best.move == planted
        firsts += first
        runner_up = result.ranking[1]
        print(
            f"  seed {seed}: first {result.best.move.as_list()} "
            f"{result.best.effect.value:+.3f} [{result.best.effect.low:+.3f}, "
            f"{result.best.effect.high:+.3f}] {'ok' if first else 'NOT PLANTED'}; second "
            f"{runner_up.move.as_list()} {runner_up.effect.value:+.3f}; {state.rounds} rounds, "
            f"{len(state.survivors())} left, spent {state.spent:,} ({state.spent / budget:.0%}), "
            f"saved {state.saved():,}; {wall:.1f} s ({cpu:.1f} s CPU)"
        )
    ok = firsts >= TARGET_FIRST * args.seeds / 20
    print(
        f"planted move first in {firsts}/{args.seeds} seeds (target >= {TARGET_FIRST}/20: "
        f"{verdict(ok)})"
    )
    return {"firsts": firsts, "seeds": args.seeds, "ok": ok}


def prepare_cost(
    engine: Any, deck: Any, moves: list[Any], new_cards: Any, params: Any, goal: Any
) -> None:
    """What a worker pays before its first chunk of a tuning (every candidate's tables,
    ``PairedPlay.prepare``), and a call's fixed cost against its games."""
    from simulator.engine.tuning import moved_deck

    started = time.process_time()
    prepared = [engine.prepare(moved_deck(deck, m, new_cards), params) for m in moves]
    prepare = time.process_time() - started
    rates = []
    for count in (200, 1_000, 10_000):
        started = time.process_time()
        for tables in prepared[:50]:
            engine.goal_values(tables, params, goal, None, SEED, 0, count)
        seconds = (time.process_time() - started) / 50
        rates.append(f"{count:,} games {seconds * 1000:.2f} ms ({count / seconds:,.0f}/s)")
    print(
        f"  prepare of the {len(moves)} candidate decks: {prepare:.2f} s CPU "
        f"({prepare / len(moves) * 1000:.2f} ms each); one deck's goal values: " + "; ".join(rates)
    )


# --- main -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--seeds", type=int, default=20, help="seeds of the ranking part (0: skip)")
    parser.add_argument("--skip-embedded", action="store_true")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument(
        "--pg-database", default=f"decklab_bench_tuning_{os.getpid()}", help="made and dropped"
    )
    parser.add_argument(
        "--repeat", type=int, default=2, help="tunings timed one after another on each setup"
    )
    parser.add_argument("--budget", type=int, help="the seeds part's budget in game plays")
    parser.add_argument("--expect", help=argparse.SUPPRESS)
    parser.add_argument("--part", choices=("pg", "embedded", "seeds"), help=argparse.SUPPRESS)
    parser.add_argument("--summary", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.part:
        parts = {"pg": part_pg, "embedded": part_embedded, "seeds": part_seeds}
        result = parts[args.part](args)
        if args.summary:
            Path(args.summary).write_text(json.dumps(result))
        return 0 if result["ok"] else 1
    print(f"bench/tuning.py at {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; {load()}")
    # each part sets Django up on its own database, so each runs in a process of its own
    status = 0
    budget = args.budget
    digests: dict[str, str] = {}
    wanted = [("pg", args.skip_postgres), ("embedded", args.skip_embedded)]
    for part in [name for name, skip in wanted if not skip]:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, __file__, "--part", part, "--summary", out.name]
            command += ["--pg-database", args.pg_database, "--repeat", str(args.repeat)]
            status |= subprocess.run(command, check=False).returncode
            text = Path(out.name).read_text()
            if text:
                summary = json.loads(text)
                digests[part] = summary["digest"]
                if budget is None:
                    budget = summary["budget"]
    if len(digests) == 2:
        same = digests["pg"] == digests["embedded"]
        print(
            f"the planted deck's first tuning (seed {SEED}) on 2 workers and on 1: races "
            f"{digests['pg']} and {digests['embedded']}: {'the same' if same else 'DIFFERENT'}"
        )
    if args.seeds > 0:
        command = [sys.executable, __file__, "--part", "seeds", "--seeds", str(args.seeds)]
        if budget is not None:
            command += ["--budget", str(budget)]
        if digests and args.budget is None:
            command += ["--expect", next(iter(digests.values()))]
        status |= subprocess.run(command, check=False).returncode
    print(f"done at {time.strftime('%H:%M:%S %Z')}; {load()}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
