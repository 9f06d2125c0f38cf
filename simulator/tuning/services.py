"""Writes of deck tunings: create one, advance it after each round, cancel it, apply a move.

A tuning's rounds are simulation runs (``SimulationRun.tuning``): ``tuning_create`` freezes
the race and queues its first round; the worker that stores a round's last chunk calls
``tuning_round_done`` in the same transaction, which adds the round to the race and queues
the next round or finishes the job. A round lost to a dead worker is recovered by the runs'
sweep like any run; a round that fails or is cancelled ends its job
(``simulator.supervisor.run_stop``). docs/tuning.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from decks.imports.text import visible_cards
from decks.legality.load import card_facts_for
from decks.models import Deck, DeckRevision
from decks.selectors import deck_entries
from decks.services import deck_replace
from decks.specs import EntrySpec
from games import registry
from simulator import cost
from simulator.decks import deck_facts_light, sim_deck_from_facts
from simulator.engine.goals import goal_by_code, turn_limit
from simulator.engine.metrics import Metrics
from simulator.engine.rng import MAX_SEED, new_run_seed
from simulator.engine.tuning import Move, RaceState, default_resolution
from simulator.models import RunStatus, SimulationRun, TuningJob, TuningSource
from simulator.selectors import engine_get
from simulator.serialise import card_to_json, sim_deck_to_json
from simulator.services import RunError, _check_limit, _clean_params, _start
from simulator.supervisor import chunks_in_flight, run_stop
from simulator.tuning.candidates import (
    MAX_MOVES,
    CandidateError,
    candidate_cards,
    error_keys,
    legal_moves,
    moved_facts,
    new_errors,
)
from simulator.tuning.play import ROUND_KEY

#: worker seconds a tuning gets when the player gives no budget
DEFAULT_SECONDS = 12.0
MIN_SECONDS, MAX_SECONDS = 1.0, cost.MAX_RUN_WORKER_SECONDS
#: game plays, when the budget is given in games
MIN_BUDGET, MAX_BUDGET = 10_000, 100_000_000

NOT_TUNABLE = _("This game's engine offers no goal to tune a deck for.")
UNKNOWN_GOAL = _("Choose one of the engine's goals.")
TURN_BOUNDS = _("Give a turn from 1 to %(max)s.")
NO_TURN = _("This goal is not read at a turn.")
SEED_BOUNDS = _("A seed is a whole number from 0 to %(max)s.")
BUDGET_BOUNDS = _("Give a number of games from %(min)s to %(max)s.")
SECONDS_BOUNDS = _("Give a number of seconds from %(min)s to %(max)s.")
BUDGET_ONE = _("Give the budget in games or in seconds, not both.")
DECK_EMPTY = _("This deck has no saved revision to tune.")
NO_MOVES = _(
    "No move to try: every swap of these candidates would break a rule of the deck, or every "
    "card is pinned."
)
TOO_MANY_MOVES = _(
    "These candidates give %(count)s moves; a tuning races at most %(max)s. Pin cards you keep, "
    "or narrow the candidates."
)
UNKNOWN_PIN = _("“%(code)s” is not a card of this deck's %(zone)s.")
BAD_MOVE = _("Choose one of this tuning's moves.")
NOT_FINISHED = _("The tuning has not finished yet.")
DECK_GONE = _("The deck of this tuning no longer exists.")
MOVE_STALE = _("The deck has changed: it no longer holds a copy of “%(card)s” to cut.")
MOVE_ILLEGAL = _("The deck would break a rule with this move now: %(problems)s")


@dataclass(frozen=True)
class Budget:
    games: int
    seconds: float | None


def _budget(
    engine: Any, params: Mapping[str, Any], games: Any, seconds: Any
) -> tuple[Budget | None, dict[str, list[Any]]]:
    if games is not None and seconds is not None:
        return None, {"budget": [BUDGET_ONE]}
    if games is not None:
        if not isinstance(games, int) or isinstance(games, bool):
            games = -1
        if not MIN_BUDGET <= games <= MAX_BUDGET:
            bounds = {"min": f"{MIN_BUDGET:,}", "max": f"{MAX_BUDGET:,}"}
            return None, {"budget_games": [BUDGET_BOUNDS % bounds]}
        return Budget(games, None), {}
    if seconds is None:
        seconds = DEFAULT_SECONDS
    if (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not math.isfinite(seconds)
        or not MIN_SECONDS <= seconds <= MAX_SECONDS
    ):
        bounds = {"min": f"{MIN_SECONDS:g}", "max": f"{MAX_SECONDS:g}"}
        return None, {"budget_seconds": [SECONDS_BOUNDS % bounds]}
    speed = cost.run_estimate(engine, params, 1).games_per_second
    return Budget(max(MIN_BUDGET, min(MAX_BUDGET, int(seconds * speed))), float(seconds)), {}


def _goal_and_turn(
    engine: Any, params: Mapping[str, Any], code: Any, turn: Any
) -> tuple[Any, int | None, dict[str, list[Any]]]:
    goal = goal_by_code(engine.goals, str(code or "")) if engine.goals else None
    if code in (None, "") and engine.goals:
        goal = engine.goals[0]
    if goal is None:
        return None, None, {"goal": [UNKNOWN_GOAL]}
    if not goal.at_turn:
        if turn not in (None, ""):
            return goal, None, {"turn": [NO_TURN]}
        return goal, None, {}
    last = turn_limit(engine, params)
    if turn in (None, ""):
        return goal, min(goal.turn or 1, last), {}
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= last:
        return goal, None, {"turn": [TURN_BOUNDS % {"max": last}]}
    return goal, turn, {}


def tuning_create(
    *,
    owner: Any,
    deck: Deck,
    goal: str | None = None,
    turn: int | None = None,
    source: str = TuningSource.OWNED,
    cards: Sequence[str] = (),
    pins: Sequence[str] = (),
    sizes: bool = False,
    budget_games: int | None = None,
    budget_seconds: float | None = None,
    seed: int | None = None,
    params: Mapping[str, Any] | None = None,
) -> TuningJob:
    """A tuning of the deck as it is now, its first round queued. Every refusal is a
    RunError naming its fields (the caller has checked the player may see the deck)."""
    engine = engine_get(deck.game.slug)
    if engine is None or not engine.goals:
        raise RunError({"deck": [NOT_TUNABLE]})
    errors: dict[str, Any] = {}
    cleaned: dict[str, Any] = {}
    try:
        cleaned = _clean_params(engine, params)
    except RunError as exc:
        errors.update(exc.errors)
    the_goal, the_turn, problems = _goal_and_turn(engine, cleaned, goal, turn)
    errors.update(problems)
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED
    ):
        errors["seed"] = [SEED_BOUNDS % {"max": MAX_SEED}]
    if source not in TuningSource.values:
        errors["source"] = [_("Choose where the cards to try come from.")]
    budget, problems = _budget(engine, cleaned, budget_games, budget_seconds)
    errors.update(problems)
    if errors:
        raise RunError(errors)
    assert budget is not None
    facts = deck_facts_light(deck)
    sim_deck = sim_deck_from_facts(facts)
    refusals = [_(p) for p in engine.tune_problems(sim_deck) + engine.deck_problems(sim_deck)]
    if refusals:
        raise RunError({"deck": refusals})
    in_zone = {sim_deck.cards[i].code for i, _n in sim_deck.zones.get(sim_deck.draw_zone, ())}
    unknown = [code for code in pins if code not in in_zone]
    if unknown:
        zone = sim_deck.draw_zone
        raise RunError({"pins": [UNKNOWN_PIN % {"code": c, "zone": zone} for c in unknown]})
    try:
        found = candidate_cards(game=deck.game, owner=owner, source=source, lines=cards)
    except CandidateError as exc:
        field = "cards" if source == TuningSource.LIST else "source"
        raise RunError({field: exc.messages}) from exc
    moves = legal_moves(
        facts=facts,
        deck=sim_deck,
        cards=found,
        pins=pins,
        sizes=sizes,
    )
    if not moves.moves:
        raise RunError({"source": [NO_MOVES]})
    if len(moves.moves) > MAX_MOVES:
        raise RunError({"source": [TOO_MANY_MOVES % {"count": len(moves.moves), "max": MAX_MOVES}]})
    state = RaceState.start(len(moves.moves), budget.games, default_resolution(the_goal))
    new_cards = [card_to_json(card) for card in moves.new_cards.values()]
    with transaction.atomic():
        _check_limit(owner)
        locked = Deck.objects.select_for_update(no_key=True).get(pk=deck.pk)
        revision = DeckRevision.objects.filter(deck=locked).order_by("-number").first()
        if revision is None:
            raise RunError({"deck": [DECK_EMPTY]})
        job = TuningJob.objects.create(
            owner=owner,
            deck=locked,
            revision=revision,
            deck_name=locked.name,
            revision_number=revision.number,
            game=engine.slug,
            engine=engine.slug,
            engine_version=engine.version,
            params=cleaned,
            goal=the_goal.code,
            turn=the_turn,
            seed=new_run_seed() if seed is None else seed,
            source=source,
            spec={
                "cards": [line.strip() for line in cards if line.strip()],
                "pins": list(pins),
                "sizes": bool(sizes),
                "seconds": budget.seconds,
                "illegal": moves.illegal,
                # the cards' names in both languages, for the ranking in either
                "names": {
                    code: [facts.name_en, facts.name_ja]
                    for code, facts in sorted(moves.facts.items())
                    if any(code in move.as_list() for move in moves.moves)
                },
            },
            moves=[move.as_list() for move in moves.moves],
            deck_data={"baseline": sim_deck_to_json(sim_deck), "new_cards": new_cards},
            budget=budget.games,
            state=state.to_json(),
            status=RunStatus.RUNNING,
        )
        _next_round(job, state, engine)
    return job


def _next_round(job: TuningJob, state: RaceState, engine: Any) -> SimulationRun | None:
    """Queue the race's next round, or finish the job when the race is over (the caller
    holds the job's row and saves it)."""
    games = state.next_round()
    job.state = state.to_json()
    if games is None:
        job.status = RunStatus.SUCCEEDED
        job.finished_at = timezone.now()
        return None
    start, count = games
    survivors = state.survivors()
    plays = count * (len(survivors) + 1)
    estimate = cost.run_estimate(engine, job.params, plays)
    # a chunk plays every move still in the race: sized by its plays, not its games
    per_game = cost.Estimate(
        seconds=estimate.seconds,
        games_per_second=estimate.games_per_second / (len(survivors) + 1),
        max_games=estimate.max_games,
    )
    data = {
        "job": job.public_id,
        "baseline": job.deck_data["baseline"],
        "new_cards": job.deck_data["new_cards"],
        "moves": job.moves,
        "survivors": survivors,
        "goal": job.goal,
        "turn": job.turn,
        "offset": start,
    }
    return _start(
        owner=job.owner,
        deck=job.deck,
        revision=job.revision,
        engine=engine,
        params=dict(job.params),
        games=count,
        seed=job.seed,
        chunk_size=cost.chunk_size_for(per_game, count, chunks_in_flight()),
        deck_data={ROUND_KEY: data},
        deck_name=job.deck_name,
        estimated_seconds=estimate.seconds,
        tuning=job,
    )


def tuning_round_done(*, run: SimulationRun) -> None:
    """Add a succeeded round to its race and queue the next one or finish the job. Called
    by the worker that stored the round's last chunk, in that transaction."""
    assert run.tuning_id is not None
    job = TuningJob.objects.select_for_update().get(pk=run.tuning_id)
    if job.is_finished:
        return
    engine = engine_get(job.engine)
    assert run.results is not None and engine is not None
    state = RaceState.from_json(job.state)
    # rounds follow one another: this one played the games after those the race had
    state.record(Metrics.from_json(run.results["metrics"]), state.games, run.games)
    job.worker_seconds += run.worker_seconds
    _next_round(job, state, engine)
    job.save(update_fields=["state", "status", "finished_at", "worker_seconds"])


def tuning_stopped(*, run_id: int, status: str, failure: str = "", error: str = "") -> None:
    """A round ended without finishing (cancelled, or failed): so does its job."""
    TuningJob.objects.filter(
        rounds__pk=run_id, status__in=(RunStatus.QUEUED, RunStatus.RUNNING)
    ).update(status=status, failure=failure, error=error[:2000], finished_at=timezone.now())


def tuning_cancel(*, job: TuningJob) -> bool:
    """Stop a tuning: its round's unplayed chunks are skipped at once. False if finished."""
    with transaction.atomic():
        locked = TuningJob.objects.select_for_update().get(pk=job.pk)
        if locked.is_finished:
            return False
        for run_id in SimulationRun.objects.filter(
            tuning=locked, status__in=(RunStatus.QUEUED, RunStatus.RUNNING)
        ).values_list("pk", flat=True):
            run_stop(run_id=run_id, status=RunStatus.CANCELLED)
        locked.status = RunStatus.CANCELLED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
    job.refresh_from_db(fields=["status", "finished_at"])
    return True


def tuning_apply(*, job: TuningJob, index: Any, user: Any) -> Deck:
    """The deck with move ``index`` made: a new revision (refused if the deck no longer
    allows the move)."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(job.moves):
        raise RunError({"move": [BAD_MOVE]})
    if job.deck_id is None:
        raise RunError({"deck": [DECK_GONE]})
    if not job.is_finished:
        # the page offers Apply once the ranking stands; the API says the same
        raise RunError({"move": [NOT_FINISHED]})
    cut, add = job.moves[index]
    with transaction.atomic():
        deck = Deck.objects.select_for_update().select_related("game").get(pk=job.deck_id)
        facts = deck_facts_light(deck)
        zone = job.deck_data["baseline"]["draw_zone"]
        if cut is not None and not any(
            e.zone == zone and e.card.code == cut for e in facts.entries
        ):
            raise RunError({"move": [MOVE_STALE % {"card": cut}]})
        entries = list(deck_entries(deck=deck))
        specs = [EntrySpec(e.card, e.zone, e.quantity, e.printing) for e in entries]
        if cut is not None:
            at = max(i for i, s in enumerate(specs) if s.zone == zone and s.card.code == cut)
            specs[at] = EntrySpec(specs[at].card, zone, specs[at].quantity - 1, specs[at].printing)
        if add is not None:
            at_add = next(
                (i for i, s in enumerate(specs) if s.zone == zone and s.card.code == add), None
            )
            if at_add is None:
                card = visible_cards(game=deck.game, user=user).get(code=add)
                printing = registry.get(deck.game.slug).default_printing(deck, card)
                specs.append(EntrySpec(card, zone, 1, printing))
            else:
                old = specs[at_add]
                specs[at_add] = EntrySpec(old.card, zone, old.quantity + 1, old.printing)
        by_code = {e.card.code: e.card for e in facts.entries}
        if add is not None and add not in by_code:
            added = [s.card for s in specs if s.card.code == add]
            by_code.update({f.code: f for f in card_facts_for(added).values()})
        after = new_errors(error_keys(facts), moved_facts(facts, zone, Move(cut, add), by_code))
        if after:
            text = " ".join(p.message.render(get_language() or "en") for p in after)
            raise RunError({"move": [MOVE_ILLEGAL % {"problems": text}]})
        return deck_replace(
            deck=deck,
            user=user,
            expected_version=deck.version,
            entries=[s for s in specs if s.quantity > 0],
            default_printings=False,
        )
