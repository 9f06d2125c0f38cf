"""Golden seeded transcripts (python-chess's perft files, OpenSpiel's playthroughs), pure
Python. Each game with an engine keeps, in its package's ``golden.py``, a fixed deck
(``GOLDEN_DECK``) and the games to record (``GOLDEN_GAMES``: ``GoldenGame`` or plain
``(label, index, params)`` tuples); their move-by-move transcripts live in the package's
``golden/<label>.txt``. A change in how an engine plays shows up there as a diff; when the
change is meant, ``manage.py regenerate_golden [GAME]`` rewrites the files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.engine.cards import SimDeck
from simulator.engine.engine import Engine, transcript_of

if TYPE_CHECKING:
    from games.registry import Game

#: the run seed of every golden game; changing it rewrites every golden file
GOLDEN_RUN_SEED = 20250601


@dataclass(frozen=True)
class GoldenGame:
    #: the file is golden/<label>.txt in the game's package
    label: str
    #: the game's index in the golden run (its seed is game_seed(GOLDEN_RUN_SEED, index))
    index: int
    #: parameters over the engine's defaults
    params: Mapping[str, Any] = field(default_factory=dict)


#: the games recorded for an engine that lists none in GOLDEN_GAMES
DEFAULT_GAMES = (GoldenGame("game0", 0), GoldenGame("game1", 1), GoldenGame("game2", 2))


def golden_deck(game: Game) -> SimDeck | None:
    return game.golden_deck


def golden_games(game: Game) -> tuple[GoldenGame, ...]:
    declared = game.golden_games or DEFAULT_GAMES
    return tuple(g if isinstance(g, GoldenGame) else GoldenGame(*g) for g in declared)


def golden_path(game: Game, golden: GoldenGame, directory: Path | None = None) -> Path:
    return (directory or game.golden_dir) / f"{golden.label}.txt"


def golden_text(engine: Engine[Any, Any], deck: SimDeck, golden: GoldenGame) -> str:
    """One golden file: a header saying how to replay it, then the transcript."""
    params = engine.params.clean(dict(golden.params))
    lines = transcript_of(engine, deck, params, run_seed=GOLDEN_RUN_SEED, index=golden.index)
    shown = ", ".join(f"{k}={v}" for k, v in sorted(params.items())) or "none"
    header = [
        f"# {engine.slug} golden game {golden.label!r} (engine version {engine.version})",
        f"# run seed {GOLDEN_RUN_SEED}, game {golden.index}; params: {shown}",
        "# deck: GOLDEN_DECK in the game package's golden.py",
        f"# regenerate (only when the change is meant): manage.py regenerate_golden {engine.slug}",
    ]
    return "\n".join([*header, *lines]) + "\n"


def golden_files(game: Game, directory: Path | None = None) -> dict[Path, str]:
    """Every golden file of ``game`` and its expected text; empty without an engine or a
    fixed deck."""
    engine, deck = game.engine, golden_deck(game)
    if engine is None or deck is None:
        return {}
    return {
        golden_path(game, golden, directory): golden_text(engine, deck, golden)
        for golden in golden_games(game)
    }
