"""A deck tuning as the pages and the API show it: the race so far, the moves ranked.

Read from the job's own row (its frozen moves, names and race state) and its current round:
two queries, whatever the number of moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _g

from simulator.engine.goals import Goal, goal_by_code
from simulator.engine.metrics import Estimate
from simulator.engine.tuning import RaceState
from simulator.models import RunStatus, SimulationRun, TuningJob
from simulator.selectors import engine_get
from simulator.supervisor import run_supervise_on_read

#: how a move stands: the best, not told apart from the best, or dropped by the race
LEADER, CLOSE, BEHIND, DROPPED = "leader", "close", "behind", "dropped"


@dataclass(frozen=True)
class CardName:
    code: str
    name_en: str
    name_ja: str

    @property
    def name(self) -> str:
        if (get_language() or "en").startswith("ja"):
            return self.name_ja or self.name_en or self.code
        return self.name_en or self.name_ja or self.code

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "name_en": self.name_en, "name_ja": self.name_ja}


@dataclass(frozen=True)
class MoveRow:
    index: int
    rank: int
    cut: CardName | None
    add: CardName | None
    effect: Estimate
    games: int
    #: the round it was dropped after (None: still in the race)
    dropped_in: int | None
    standing: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "rank": self.rank,
            "cut": self.cut.as_dict() if self.cut else None,
            "add": self.add.as_dict() if self.add else None,
            "effect": _finite(self.effect.as_dict()),
            "games": self.games,
            "dropped_in": self.dropped_in,
            "standing": self.standing,
        }


def _finite(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and v != v else v) for k, v in values.items()}


@dataclass(frozen=True)
class TuningReport:
    job: TuningJob
    goal: Goal | None
    goal_label: str
    baseline: Estimate
    rows: list[MoveRow]
    state: RaceState
    round_run: SimulationRun | None

    @property
    def moves(self) -> int:
        return self.state.moves

    @property
    def in_race(self) -> int:
        return len(self.state.survivors())

    @property
    def progress(self) -> int:
        """Per cent of the budget spent (100 once the race is over)."""
        if self.job.status == RunStatus.SUCCEEDED:
            return 100
        return min(99, self.state.spent * 100 // max(1, self.state.budget))

    @property
    def saved(self) -> int:
        return self.state.saved()

    @property
    def best(self) -> MoveRow | None:
        return self.rows[0] if self.rows and self.rows[0].standing == LEADER else None

    def as_dict(self) -> dict[str, Any]:
        job = self.job
        return {
            "id": job.public_id,
            "status": job.status,
            "failure": job.failure or None,
            "game": job.game,
            "deck": job.deck.public_id if job.deck else None,
            "revision": job.revision_number,
            "goal": {
                "code": job.goal,
                "label": self.goal_label,
                "turn": job.turn,
                "kind": self.goal.kind if self.goal else None,
                "direction": "higher" if self.goal and self.goal.direction > 0 else "lower",
            },
            "source": job.source,
            "pins": job.spec.get("pins", []),
            "sizes": bool(job.spec.get("sizes")),
            "seed": job.seed,
            "params": job.params,
            "budget": job.budget,
            "spent": self.state.spent,
            "saved": self.saved,
            "progress": self.progress,
            "rounds": self.state.rounds,
            "games": self.state.games,
            "moves": self.moves,
            "in_race": self.in_race,
            "illegal_moves": job.spec.get("illegal", 0),
            "baseline": _finite(self.baseline.as_dict()),
            "ranking": [row.as_dict() for row in self.rows],
            "created_at": job.created_at,
            "finished_at": job.finished_at,
            "worker_seconds": job.worker_seconds,
        }


def goal_label(goal: Goal | None, turn: int | None) -> str:
    if goal is None:
        return ""
    label = _g(goal.label)
    return label % {"turn": turn} if goal.at_turn and "%(turn)" in label else label


def tuning_report(job: TuningJob) -> TuningReport:
    engine = engine_get(job.engine)
    goal = goal_by_code(engine.goals, job.goal) if engine else None
    state = RaceState.from_json(job.state)
    names = {
        code: CardName(code, pair[0], pair[1]) for code, pair in job.spec.get("names", {}).items()
    }

    def name(code: str | None) -> CardName | None:
        return None if code is None else names.get(code, CardName(code, code, code))

    rows = []
    for rank, ranked in enumerate(state.ranking(), 1):
        cut, add = job.moves[ranked.index]
        if ranked.dropped_in is not None:
            standing = DROPPED
        elif rank == 1:
            standing = LEADER
        else:
            standing = CLOSE if ranked.tied else BEHIND
        rows.append(
            MoveRow(
                index=ranked.index,
                rank=rank,
                cut=name(cut),
                add=name(add),
                effect=ranked.effect,
                games=ranked.games,
                dropped_in=ranked.dropped_in,
                standing=standing,
            )
        )
    round_run = (
        # the round as its poll shows and sweeps it: not its frozen deck nor its results
        SimulationRun.objects.filter(tuning=job)
        .defer("deck_data", "results", "params")
        .order_by("-created_at", "-pk")
        .first()
        if not job.is_finished
        else None
    )
    return TuningReport(
        job=job,
        goal=goal,
        goal_label=goal_label(goal, job.turn),
        baseline=state.baseline(),
        rows=rows,
        state=state,
        round_run=round_run,
    )


def tuning_report_on_read(job: TuningJob) -> TuningReport:
    """The tuning as its page or a client polling the API reads it: its current round swept
    first (lost workers, lost messages, as a run's page sweeps its run), and read again when
    the sweep ended the round, which moved the race on."""
    report = tuning_report(job)
    run = report.round_run
    if run is not None and not run.is_finished and run_supervise_on_read(run).is_finished:
        job.refresh_from_db()
        report = tuning_report(job)
    return report
