"""Writes: create, replay and cancel runs, and play one chunk of a run (what a worker does).

How a run is made reliable on workers that may die or receive a task twice:

- ``run_create`` freezes everything the run depends on (the engine version, the cleaned
  parameters, the seed, the deck as ``deck_data``) and splits the games into chunks. Game *i*
  is seeded from (run seed, *i*), so results never depend on the split or on who plays what.
- ``run_chunk_execute`` stores a chunk with a conditional UPDATE (``status != done``) under the
  run's row lock, and counts it only when that UPDATE changed a row: a chunk delivered twice
  (acks_late, a worker killed before it acknowledged) counts once.
- The call that stores the last chunk finalises the run in the same transaction, still holding
  the lock: the chunks' metrics merged in index order, summarised, the run succeeded. Either the
  last chunk and the results commit together or neither does, so it happens exactly once.
- Which chunks are queued, and what happens to those whose message or worker is lost, is the
  supervisor's (``simulator/supervisor.py``): a worker claims a chunk and keeps its lease
  while it plays.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from decks.models import Deck, DeckRevision
from simulator.cost import MAX_CHUNKS, MAX_RUN_WORKER_SECONDS, chunk_size_for, run_estimate
from simulator.decks import sim_deck_for
from simulator.engine.engine import Engine, play_prepared
from simulator.engine.metrics import Metrics, summarise
from simulator.engine.params import Param, ParamErrors
from simulator.engine.rng import MAX_SEED, new_run_seed
from simulator.models import (
    ACTIVE_STATUSES,
    MAX_CHUNK_SIZE,
    MAX_GAMES,
    MIN_CHUNK_SIZE,
    MIN_GAMES,
    ChunkStatus,
    RunChunk,
    RunFailure,
    RunStatus,
    SimulationRun,
)
from simulator.run_cache import RunPlay, chunk_bounds, run_play_forget, run_play_keep, run_play_kept
from simulator.selectors import engine_get
from simulator.serialise import sim_deck_to_json
from simulator.supervisor import (
    ChunkAbandoned,
    chunk_claim,
    chunk_transaction,
    chunks_in_flight,
    feed_after_store,
    lease_kept,
    owner_feed,
    run_feed_first,
    run_stop,
    runs_supervise,
    worker_tag,
)
from simulator.tuning.play import is_round, round_play

logger = logging.getLogger(__name__)

#: queued or running runs a player may have at once (the workers are shared by everyone)
MAX_ACTIVE_RUNS = 3
DEFAULT_GAMES = 10_000
#: database errors worth retrying the chunk for (a restart, a dropped connection, a deadlock)
TRANSIENT_DB_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)

UNKNOWN_ENGINE = _("No simulation engine with this name.")
ENGINE_WRONG_GAME = _("The %(engine)s engine plays %(engine)s decks; this is a %(game)s deck.")
NO_DECK = _("The deck of this run no longer exists.")
DECK_EMPTY_REVISION = _("This deck has no saved revision to simulate.")
GAMES_BOUNDS = _("Give a whole number of games from %(min)s to %(max)s.")
SEED_BOUNDS = _("A seed is a whole number from 0 to %(max)s.")
CHUNK_BOUNDS = _("A chunk is a whole number of games from %(min)s to %(max)s.")
TOO_MANY_CHUNKS = _("Split %(games)s games into at most %(max)s chunks: give at least %(min)s.")
TOO_MANY_RUNS = _(
    "You already have %(count)s simulations queued or running; wait for one to finish or "
    "cancel one (at most %(max)s at a time)."
)
ENGINE_CHANGED = _(
    "The engine has changed since this run (version %(old)s, now %(new)s), so it would not "
    "replay the same games."
)
RUN_TOO_DEAR = _(
    "These games would take about %(minutes)s minutes of worker time; a run may take at most "
    "%(max)s. With these settings, up to %(games)s games fit."
)
PARAM_UNKNOWN = _("This engine has no such parameter.")
PARAM_BOOL = _("Give true or false.")
PARAM_CHOICE = _("Give one of: %(choices)s.")
PARAM_WHOLE = _("Give a whole number.")
PARAM_WHOLE_RANGE = _("Give a whole number from %(min)s to %(max)s.")
PARAM_WHOLE_MIN = _("Give a whole number of at least %(min)s.")
PARAM_WHOLE_MAX = _("Give a whole number of at most %(max)s.")
PARAM_NUMBER = _("Give a number.")
PARAM_NUMBER_RANGE = _("Give a number from %(min)s to %(max)s.")
PARAM_NUMBER_MIN = _("Give a number of at least %(min)s.")
PARAM_NUMBER_MAX = _("Give a number of at most %(max)s.")


class RunError(Exception):
    """A refused run. ``errors`` maps each field to its messages (``params`` maps each
    parameter to its messages); ``code`` "too_many_runs" is the per-player limit."""

    def __init__(self, errors: Mapping[str, Any], code: str = "invalid") -> None:
        self.errors = dict(errors)
        self.code = code
        super().__init__(_flatten(self.errors))


def _flatten(errors: Mapping[str, Any]) -> str:
    parts = []
    for field, messages in errors.items():
        if isinstance(messages, Mapping):
            parts.append(_flatten({f"{field}.{k}": v for k, v in messages.items()}))
        else:
            parts.append(f"{field}: {' '.join(str(m) for m in messages)}")
    return "; ".join(parts)


# --- validation ------------------------------------------------------------------------------


def param_message(param: Param | None) -> Promise | str:
    """Why a value was refused, said by what the parameter accepts (the core's own reasons are
    English; this is the same rule in the reader's language)."""
    if param is None:
        return PARAM_UNKNOWN
    if param.kind == "bool":
        return PARAM_BOOL
    if param.kind == "choice":
        return PARAM_CHOICE % {"choices": ", ".join(code for code, _label in param.choices)}
    low, high = param.minimum, param.maximum
    bounds = {
        "min": f"{low:g}" if low is not None else "",
        "max": f"{high:g}" if high is not None else "",
    }
    whole = param.kind == "int"
    if low is not None and high is not None:
        return (PARAM_WHOLE_RANGE if whole else PARAM_NUMBER_RANGE) % bounds
    if low is not None:
        return (PARAM_WHOLE_MIN if whole else PARAM_NUMBER_MIN) % bounds
    if high is not None:
        return (PARAM_WHOLE_MAX if whole else PARAM_NUMBER_MAX) % bounds
    return PARAM_WHOLE if whole else PARAM_NUMBER


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_numbers(games: Any, seed: Any, chunk_size: Any) -> dict[str, list[Any]]:
    errors: dict[str, list[Any]] = {}
    if not _whole(games) or not MIN_GAMES <= games <= MAX_GAMES:
        errors["games"] = [GAMES_BOUNDS % {"min": MIN_GAMES, "max": f"{MAX_GAMES:,}"}]
    if seed is not None and (not _whole(seed) or not 0 <= seed <= MAX_SEED):
        errors["seed"] = [SEED_BOUNDS % {"max": MAX_SEED}]
    if chunk_size is not None and (
        not _whole(chunk_size) or not MIN_CHUNK_SIZE <= chunk_size <= MAX_CHUNK_SIZE
    ):
        errors["chunk_size"] = [CHUNK_BOUNDS % {"min": MIN_CHUNK_SIZE, "max": MAX_CHUNK_SIZE}]
    elif "games" not in errors and chunk_size and math.ceil(games / chunk_size) > MAX_CHUNKS:
        least = math.ceil(games / MAX_CHUNKS)
        errors["chunk_size"] = [TOO_MANY_CHUNKS % {"games": games, "max": MAX_CHUNKS, "min": least}]
    return errors


def _clean_params(engine: Engine[Any, Any], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    try:
        return engine.params.clean(raw)
    except ParamErrors as exc:
        known = {p.name: p for p in engine.params.params}
        raise RunError(
            {"params": {name: [param_message(known.get(name))] for name in exc.errors}}
        ) from exc


# --- creating runs ---------------------------------------------------------------------------


def _check_limit(owner: Any) -> None:
    """Refuse a run beyond the player's limit. Locking the player's row first serialises their
    concurrent requests, so two of them cannot both see room for one more run."""
    user_model = get_user_model()
    user_model.objects.select_for_update().filter(pk=owner.pk).first()
    active = SimulationRun.objects.filter(owner=owner, status__in=ACTIVE_STATUSES).count()
    if active >= MAX_ACTIVE_RUNS:
        message = TOO_MANY_RUNS % {"count": active, "max": MAX_ACTIVE_RUNS}
        raise RunError({"non_field_errors": [message]}, code="too_many_runs")


def _chunks(games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [chunk_bounds(games, chunk_size, i) for i in range(math.ceil(games / chunk_size))]


def _start(
    *,
    owner: Any,
    deck: Deck | None,
    revision: DeckRevision | None,
    engine: Engine[Any, Any],
    params: dict[str, Any],
    games: int,
    seed: int,
    chunk_size: int,
    deck_data: dict[str, Any],
    deck_name: str,
    estimated_seconds: float,
    tuning: Any = None,
) -> SimulationRun:
    """Store the run and its chunks; the chunks are queued once the transaction commits.
    ``tuning``: the deck tuning the run is a round of (``simulator.tuning``)."""
    chunks = _chunks(games, chunk_size)
    run = SimulationRun.objects.create(
        owner=owner,
        deck=deck,
        revision=revision,
        deck_name=deck_name,
        revision_number=revision.number if revision else None,
        game=engine.slug,
        engine=engine.slug,
        engine_version=engine.version,
        params=params,
        games=games,
        seed=seed,
        chunk_size=chunk_size,
        chunks_total=len(chunks),
        deck_data=deck_data,
        estimated_seconds=estimated_seconds,
        tuning=tuning,
    )
    RunChunk.objects.bulk_create(
        RunChunk(run=run, index=index, start=start, count=count)
        for index, (start, count) in enumerate(chunks)
    )
    run_id, owner_id = run.pk, run.owner_id
    transaction.on_commit(lambda: run_feed_first(run_id=run_id, owner_id=owner_id))
    return run


def run_create(
    *,
    owner: Any,
    deck: Deck,
    engine_slug: str,
    params: Mapping[str, Any] | None,
    games: int,
    seed: int | None = None,
    chunk_size: int | None = None,
) -> SimulationRun:
    """A run of ``games`` goldfish games of the deck as it is now (its latest revision).

    The caller has checked the player may see the deck. Every refusal is a RunError naming
    its fields (all at once where they can be judged together)."""
    engine = engine_get(engine_slug)
    if engine is None:
        raise RunError({"engine": [UNKNOWN_ENGINE]})
    if engine.slug != deck.game.slug:
        raise RunError(
            {"engine": [ENGINE_WRONG_GAME % {"engine": engine.slug, "game": deck.game.slug}]}
        )
    errors: dict[str, Any] = _check_numbers(games, seed, chunk_size)
    try:
        cleaned = _clean_params(engine, params)
    except RunError as exc:
        errors.update(exc.errors)
    if not errors:
        estimate = run_estimate(engine, cleaned, games)
        if estimate.too_dear:
            errors["games"] = [
                RUN_TOO_DEAR
                % {
                    "minutes": f"{estimate.seconds / 60:,.0f}",
                    "max": f"{MAX_RUN_WORKER_SECONDS / 60:,.0f}",
                    "games": f"{estimate.max_games:,}",
                }
            ]
    if errors:
        raise RunError(errors)
    with transaction.atomic():
        _check_limit(owner)
        # The deck's row lock holds off an edit between reading its latest revision and its
        # entries, so deck_data is exactly that revision.
        locked = Deck.objects.select_for_update(no_key=True).select_related("game").get(pk=deck.pk)
        revision = DeckRevision.objects.filter(deck=locked).order_by("-number").first()
        if revision is None:
            raise RunError({"deck": [DECK_EMPTY_REVISION]})
        sim_deck = sim_deck_for(locked)
        problems = engine.deck_problems(sim_deck)
        if problems:
            raise RunError({"deck": [_(problem) for problem in problems]})
        return _start(
            owner=owner,
            deck=locked,
            revision=revision,
            engine=engine,
            params=cleaned,
            games=games,
            seed=new_run_seed() if seed is None else seed,
            # without a size asked for, chunks are sized by their cost in worker time
            chunk_size=chunk_size or chunk_size_for(estimate, games, chunks_in_flight()),
            deck_data=sim_deck_to_json(sim_deck),
            deck_name=locked.name,
            estimated_seconds=estimate.seconds,
        )


def run_replay(*, run: SimulationRun, owner: Any) -> SimulationRun:
    """The same games again: the frozen deck, parameters, seed and split of ``run``, so the
    new run's results equal the old one's (refused if the engine has changed since)."""
    engine = engine_get(run.engine)
    if engine is None:
        raise RunError({"engine": [UNKNOWN_ENGINE]})
    if engine.version != run.engine_version:
        message = ENGINE_CHANGED % {"old": run.engine_version, "new": engine.version}
        raise RunError({"engine": [message]})
    with transaction.atomic():
        _check_limit(owner)
        return _start(
            owner=owner,
            deck=run.deck,
            revision=run.revision,
            engine=engine,
            params=dict(run.params),
            games=run.games,
            seed=run.seed,
            chunk_size=run.chunk_size,
            deck_data=run.deck_data,
            deck_name=run.deck_name,
            estimated_seconds=run_estimate(engine, run.params, run.games).seconds,
        )


def run_cancel(*, run: SimulationRun) -> bool:
    """Stop a queued or running run: its unplayed chunks are skipped at once and a worker
    playing one stops within a second. False if it had already finished."""
    cancelled = run_stop(run_id=run.pk, status=RunStatus.CANCELLED)
    if cancelled:
        run.refresh_from_db(fields=["status", "finished_at"])
    return cancelled


def run_fail(*, run_id: int, error: str, failure: str = RunFailure.ENGINE) -> bool:
    return run_stop(run_id=run_id, status=RunStatus.FAILED, failure=failure, error=error)


# --- playing a chunk (the worker's side) -----------------------------------------------------


def _json_safe(value: Any) -> Any:
    """jsonb refuses NaN and infinities; an estimate over no games is null instead."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def run_results(metrics: Metrics) -> dict[str, Any]:
    """What a finished run stores: the exact merged metrics and their summary."""
    return {"metrics": metrics.to_json(), "summary": _json_safe(summarise(metrics))}


def _finalise(run: SimulationRun) -> None:
    """Merge the chunks in index order and summarise (the caller holds the run's lock)."""
    rows = list(RunChunk.objects.filter(run=run).order_by("index").values_list("status", "metrics"))
    if len(rows) != run.chunks_total or any(status != ChunkStatus.DONE for status, _m in rows):
        raise RuntimeError(f"run {run.pk}: finalising with chunks missing")
    merged = Metrics.merged(Metrics.from_json(metrics or {}) for _status, metrics in rows)
    if merged.games != run.games:
        raise RuntimeError(f"run {run.pk}: the chunks played {merged.games} of {run.games} games")
    run.results = run_results(merged)
    run.status = RunStatus.SUCCEEDED
    run.finished_at = timezone.now()


# What a worker reads of a run once (the run's frozen data, ``run_cache``) and what storing a
# chunk and finalising read of it (not its deck data or parameters).
_PLAY_FIELDS = (
    "public_id",
    "status",
    "owner",
    "engine",
    "engine_version",
    "params",
    "seed",
    "games",
    "chunk_size",
    "deck_data",
)
_STORE_FIELDS = (
    "status",
    "games",
    "chunks_total",
    "chunks_done",
    "games_done",
    "worker_seconds",
    "tuning",
)


def _run_play(run_id: int) -> RunPlay | None:
    """The run as this worker plays it: kept from an earlier chunk, or read (one query).
    None if it is gone or finished, or its engine is not this worker's (the run then fails)."""
    play = run_play_kept(run_id)
    if play is not None:
        return play
    run = SimulationRun.objects.filter(pk=run_id).only(*_PLAY_FIELDS).first()
    if run is None or run.is_finished:
        return None
    engine = engine_get(run.engine)
    if engine is None or engine.version != run.engine_version:
        found = f"v{engine.version}" if engine else "none"
        error = f"engine {run.engine} v{run.engine_version} not found (this worker: {found})"
        run_fail(run_id=run_id, error=error, failure=RunFailure.ENGINE_MISSING)
        return None
    plays: Any = engine
    deck_data = run.deck_data
    if is_round(deck_data):
        # a round of a deck tuning: the baseline and its moves, paired (simulator/tuning/)
        try:
            plays, deck_data = round_play(engine, deck_data)
        except (KeyError, TypeError, ValueError) as exc:
            run_fail(run_id=run_id, error=f"tuning round unreadable: {exc!r}")
            return None
    play = RunPlay(
        run_id=run_id,
        public_id=run.public_id,
        owner_id=run.owner_id,
        engine=plays,
        params=run.params,
        seed=run.seed,
        games=run.games,
        chunk_size=run.chunk_size,
        deck_data=deck_data,
        started=run.status != RunStatus.QUEUED,
    )
    run_play_keep(play)
    return play


def _chunk_store(
    play: RunPlay, index: int, count: int, metrics: Metrics, seconds: float, worker: str
) -> tuple[bool, set[int]]:
    """Store a played chunk and feed the player, in one transaction. Returns whether this call
    stored it, and the player's runs with an expired lease (to sweep once committed)."""
    with chunk_transaction():  # a store lost in a crash is played again, the same
        # The run's lock orders this against the other chunks' stores and against a cancel
        # (which locks the run, then its chunks: so does this).
        run = SimulationRun.objects.select_for_update().only(*_STORE_FIELDS).get(pk=play.run_id)
        if run.is_finished:
            return False, set()
        stored = (
            RunChunk.objects.filter(run_id=play.run_id, index=index)
            .exclude(status=ChunkStatus.DONE)
            .update(
                status=ChunkStatus.DONE,
                metrics=metrics.to_json(),
                seconds=seconds,
                worker=worker,
                finished_at=timezone.now(),
                lease_until=None,
            )
        )
        if not stored:
            return False, set()  # another delivery of this chunk got there first
        run.chunks_done += 1
        run.games_done += count
        run.worker_seconds += seconds
        fields = ["chunks_done", "games_done", "worker_seconds"]
        if run.chunks_done == run.chunks_total:
            _finalise(run)
            fields += ["results", "status", "finished_at"]
        run.save(update_fields=fields)
        if run.tuning_id is not None and run.status == RunStatus.SUCCEEDED:
            # the race takes the round and queues the next, in this same transaction
            from simulator.tuning.services import tuning_round_done

            tuning_round_done(run=run)
        # The store freed a place among the player's chunks out: fill it (rarely needed, as
        # the claim filled the queue's; one query when it is not).
        expired = feed_after_store(owner_id=play.owner_id)
    return True, expired


def _claim(play: RunPlay, index: int, worker: str) -> bool:
    claimed = chunk_claim(
        run_id=play.run_id,
        public_id=play.public_id,
        index=index,
        worker=worker,
        owner_id=play.owner_id,
        start_run=not play.started,
    )
    play.started = True
    return claimed


def run_chunk_execute(*, run_id: int, index: int, worker: str = "") -> bool:
    """Play chunk ``index`` of the run and store it. True if this call completed the chunk;
    False if there was nothing to do (run finished or cancelled, chunk already stored or
    played by a live worker) or the run ended while it played.

    Its bookkeeping is two transactions: the claim (which also queues the player's next chunk)
    and the store (which also finalises the run after its last chunk), plus one read of the
    run the first time this worker plays one of its chunks."""
    play = _run_play(run_id)
    if play is None:
        return False
    tag = worker_tag(worker)
    owner_id = play.owner_id
    stored = False
    expired: set[int] = set()
    try:
        claimed = _claim(play, index, tag)
        if not claimed and play.kept:
            # Kept from an earlier chunk, the run may since have ended, or the id be another
            # run's (an id rolled back and given again, on SQLite): read it once more.
            run_play_forget(run_id)
            again = _run_play(run_id)
            if again is None or not _claim(again, index, tag):
                return False
            play, owner_id, claimed = again, again.owner_id, True
        if not claimed:
            return False
        start, count = play.bounds(index)
        if getattr(connection, "pool", None) is not None and not connection.in_atomic_block:
            # Back to the pool while the engine plays (free with a pool): the lease's thread
            # needs a connection too, and a worker may have a pool of one (README).
            connection.close()
        # CPU time, not wall time: the cost model sizes chunks by this, and a loaded machine
        # stretches wall time, which cut chunks smaller and smaller (each starting cold).
        began = time.thread_time()
        with lease_kept(run_id=run_id, index=index, worker=tag) as lease:
            metrics = play_prepared(
                play.engine,
                play.prepared(),
                play.params,
                run_seed=play.seed,
                start=start,
                count=count,
                on_progress=lease.check,
            )
        seconds = time.thread_time() - began
        stored, expired = _chunk_store(play, index, count, metrics, seconds, worker)
    except ChunkAbandoned:
        # cancelled (nothing to feed) or taken over: feed in case the player has room now
        owner_feed(owner_id=owner_id)
    except TRANSIENT_DB_ERRORS:
        raise  # the task retries these (and the chunk's lease lapses if it cannot)
    except Exception as exc:
        # A bug or a time limit: retrying would fail the same way, so the run fails, visibly.
        logger.exception("simulation run %s chunk %s failed", run_id, index)
        run_fail(run_id=run_id, error=f"chunk {index}: {type(exc).__name__}: {exc}")
        run_play_forget(run_id)
        raise
    # A chunk of this run whose worker was lost is put back as soon as its lease has expired.
    if expired:
        runs_supervise(run_ids=sorted(expired))
    return stored
