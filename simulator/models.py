"""Goldfish simulation runs and the chunks they are split into for the Celery workers.

A run keeps everything it needs to replay exactly: the engine and its version, the cleaned
parameters, the seed and the deck as the engine saw it (``deck_data``, frozen when the run was
created). A chunk is a range of game indexes; its metrics are stored as it finishes, and the
run's results are the chunks' metrics merged in index order.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from decks.models import Deck, DeckRevision, new_public_id
from simulator.engine.rng import MAX_SEED

MIN_GAMES = 1
MAX_GAMES = 1_000_000
MIN_CHUNK_SIZE = 100
#: a chunk sized by cost takes about half a second (simulator/cost.py): a million games of a
#: compiled engine
MAX_CHUNK_SIZE = 1_000_000


class RunStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")
    CANCELLED = "cancelled", _("Cancelled")


class RunFailure(models.TextChoices):
    """Why a run failed, said plainly on its page (the detail is logged and kept in ``error``)."""

    WORKER_LOST = (
        "worker_lost",
        _("A worker stopped while playing part of this run, again and again."),
    )
    NOT_QUEUED = "not_queued", _("The simulation could not be queued.")
    ENGINE = "engine", _("The engine stopped on an error.")
    ENGINE_MISSING = "engine_missing", _("The workers do not have this run's engine version.")


#: a run in one of these still has chunks to play (counted by the per-player limit)
ACTIVE_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class SimulationRun(models.Model):
    public_id = models.CharField(max_length=24, unique=True, default=new_public_id, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs"
    )
    # The run outlives its deck: deck_data holds what was played.
    deck = models.ForeignKey(
        Deck, on_delete=models.SET_NULL, null=True, blank=True, related_name="simulation_runs"
    )
    revision = models.ForeignKey(
        DeckRevision, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Copies of the deck's name and revision number, shown after the deck is gone.
    deck_name = models.CharField(max_length=120, blank=True)
    revision_number = models.PositiveIntegerField(null=True, blank=True)
    game = models.SlugField(max_length=40)
    engine = models.SlugField(max_length=40)
    engine_version = models.PositiveIntegerField()
    params = models.JSONField(default=dict, blank=True)
    games = models.PositiveIntegerField(
        validators=[MinValueValidator(MIN_GAMES), MaxValueValidator(MAX_GAMES)]
    )
    seed = models.BigIntegerField(validators=[MinValueValidator(0), MaxValueValidator(MAX_SEED)])
    chunk_size = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    chunks_total = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    games_done = models.PositiveIntegerField(default=0)
    deck_data = models.JSONField()
    #: {"metrics": merged Metrics.to_json(), "summary": summarise(...)} once succeeded
    results = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: the chunks' compute time added up (wall time is finished_at - started_at)
    worker_seconds = models.FloatField(default=0.0)
    #: why a failed run failed, as a code the pages turn into a plain sentence (``error`` keeps
    #: the detail for the operator)
    failure = models.CharField(max_length=20, choices=RunFailure.choices, blank=True)
    #: how many times the supervisor put back chunks whose worker was lost, and when it last did
    recoveries = models.PositiveIntegerField(default=0)
    recovered_at = models.DateTimeField(null=True, blank=True)
    #: the worker time the run was expected to take when it was created (its cost bound)
    estimated_seconds = models.FloatField(default=0.0)
    #: the deck tuning this run is a round of (its chunks play paired games, docs/tuning.md)
    tuning = models.ForeignKey(
        "TuningJob", on_delete=models.CASCADE, null=True, blank=True, related_name="rounds"
    )

    class Meta:
        indexes = [
            # the per-player limit: how many of a player's runs are queued or running
            models.Index(fields=["owner", "status"], name="simrun_owner_status"),
            # "My runs": a player's runs, newest first
            models.Index(fields=["owner", "-created_at"], name="simrun_owner_recent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games__gte=MIN_GAMES, games__lte=MAX_GAMES),
                name="simrun_games_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(chunks_done__lte=models.F("chunks_total")),
                name="simrun_chunks_done_bounds",
            ),
        ]
        ordering = ["-created_at"]
        verbose_name = _("simulation run")
        verbose_name_plural = _("simulation runs")

    def __str__(self) -> str:
        return f"{self.engine} × {self.games} ({self.public_id})"

    def get_absolute_url(self) -> str:
        return reverse("simulator:run", args=[self.public_id])

    @property
    def is_finished(self) -> bool:
        return self.status not in ACTIVE_STATUSES

    @property
    def progress(self) -> int:
        """Per cent of the games played (whole numbers; 100 only once finalised)."""
        if self.status == RunStatus.SUCCEEDED:
            return 100
        if not self.games:
            return 0
        return min(99, self.games_done * 100 // self.games)

    @property
    def wall_seconds(self) -> float | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


class ChunkStatus(models.TextChoices):
    #: not yet handed to the broker (the supervisor feeds a few chunks per run at a time)
    PENDING = "pending", _("Pending")
    #: a message was sent; a worker should claim it before ``lease_until``
    QUEUED = "queued", _("Queued")
    #: a worker plays it and renews ``lease_until`` while it does
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    #: its run was cancelled or failed before it was played
    SKIPPED = "skipped", _("Skipped")


#: a chunk in one of these holds a lease: a message is out or a worker plays it
IN_FLIGHT = (ChunkStatus.QUEUED, ChunkStatus.RUNNING)


class RunChunk(models.Model):
    """Games ``start`` .. ``start + count - 1`` of a run: one Celery task."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    count = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=ChunkStatus.choices, default=ChunkStatus.PENDING
    )
    metrics = models.JSONField(null=True, blank=True)
    #: the worker that completed the chunk (or is playing it)
    worker = models.CharField(max_length=200, blank=True)
    #: how many times a worker started the chunk (above 1: redelivered)
    attempts = models.PositiveSmallIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: queued: when the message counts as lost; running: when the worker counts as gone
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # the supervisor's sweep: in-flight chunks whose lease has expired
            models.Index(
                fields=["lease_until"],
                condition=models.Q(status__in=["queued", "running"]),
                name="simchunk_lease",
            ),
        ]
        constraints = [
            # also the index of every chunk lookup: a run's chunk by its index, and finalising,
            # which reads a run's chunks in index order
            models.UniqueConstraint(fields=["run", "index"], name="simchunk_run_index"),
        ]
        ordering = ["run", "index"]
        verbose_name = _("simulation chunk")
        verbose_name_plural = _("simulation chunks")

    def __str__(self) -> str:
        return f"{self.run_id}#{self.index}"


class TuningSource(models.TextChoices):
    """Where the cards a tuning may add come from."""

    OWNED = "owned", _("Cards I own")
    FREE = "free", _("Copies no built deck holds")
    ALL = "all", _("Every card of the game")
    LIST = "list", _("A list I type")


class TuningJob(models.Model):
    """ "Improve this deck": one-card moves of a deck raced against it by simulation.

    Everything the race depends on is frozen when the job is created -- the deck as the
    engine saw it and the cards the moves may add (``deck_data``), the moves, the goal, the
    parameters, the seed and the budget -- so the same job gives the same ranking on any
    number of workers. Its rounds are simulation runs (``SimulationRun.tuning``) played on the
    runs' chunks, leases and sweep; ``state`` is the race between rounds
    (``simulator.engine.tuning.RaceState``). docs/tuning.md."""

    public_id = models.CharField(max_length=24, unique=True, default=new_public_id, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tuning_jobs"
    )
    deck = models.ForeignKey(
        Deck, on_delete=models.SET_NULL, null=True, blank=True, related_name="tuning_jobs"
    )
    revision = models.ForeignKey(
        DeckRevision, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    deck_name = models.CharField(max_length=120, blank=True)
    revision_number = models.PositiveIntegerField(null=True, blank=True)
    game = models.SlugField(max_length=40)
    engine = models.SlugField(max_length=40)
    engine_version = models.PositiveIntegerField()
    params = models.JSONField(default=dict, blank=True)
    #: the engine's goal code (``Engine.goals``) and the turn it is read at, if any
    goal = models.SlugField(max_length=60)
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    seed = models.BigIntegerField(validators=[MinValueValidator(0), MaxValueValidator(MAX_SEED)])
    source = models.CharField(max_length=10, choices=TuningSource.choices)
    #: what the player asked for: {"cards": [codes typed], "pins": [codes], "sizes": bool}
    spec = models.JSONField(default=dict, blank=True)
    #: the moves, in the order the race numbers them: [[cut code or null, add code or null]]
    moves = models.JSONField(default=list)
    #: {"baseline": the deck as ``sim_deck_to_json``, "new_cards": the cards moves may add
    #: that the deck does not hold, as the same JSON's cards}
    deck_data = models.JSONField()
    #: game plays the race may spend in all (the baseline's included)
    budget = models.PositiveBigIntegerField()
    #: the race between rounds (``RaceState.to_json``)
    state = models.JSONField()
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    failure = models.CharField(max_length=20, choices=RunFailure.choices, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: the rounds' chunks' compute time added up
    worker_seconds = models.FloatField(default=0.0)

    class Meta:
        indexes = [
            # a deck's simulation page: its player's tunings of it, newest first
            models.Index(fields=["owner", "deck", "-created_at"], name="tuning_owner_deck"),
        ]
        ordering = ["-created_at"]
        verbose_name = _("deck tuning")
        verbose_name_plural = _("deck tunings")

    def __str__(self) -> str:
        return f"{self.engine} tuning ({self.public_id})"

    def get_absolute_url(self) -> str:
        return reverse("simulator:tuning", args=[self.public_id])

    @property
    def is_finished(self) -> bool:
        return self.status not in ACTIVE_STATUSES
