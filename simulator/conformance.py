"""What every game with an engine must pass (OpenSpiel-style), as checks a test or a command runs.

``tests/simulator/test_conformance.py`` runs every check on every registered game, and
``manage.py check_game <package>`` runs them on one game kept outside the repository. A check
is a function of the game raising ``NonConformance`` with a readable message; ``checks_for``
says which apply (the engine checks only to a game with an engine).

Pure Python (no Django): engines, golden decks and transcripts are read through the registry's
typed accessors, and the digest lines an engine cites are read from ``rules_dir``.
"""

from __future__ import annotations

import copy
import difflib
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from simulator.engine import golden
from simulator.engine.engine import Engine, transcript_of
from simulator.engine.metrics import Metrics
from simulator.engine.rng import game_rng

if TYPE_CHECKING:
    from games.registry import Game

#: the rule digests of the games in this repository (shared/rules beside the project)
RULES_DIR = Path(__file__).resolve().parents[2] / "shared" / "rules"

#: how many games each check plays: enough to reach every rule of the golden decks
PLAY_OUTS = 200
COPIES = 50
SEEDED = 20
COMPARED = 300
#: a play-out longer than this many actions never ends
MAX_ACTIONS = 10_000
#: the run seed of the games the fast loops are compared on
RUN_SEED = 5

CITE = re.compile(r"(?P<digest>[a-z0-9-]+\.md):(?P<line>\d+)")


class NonConformance(AssertionError):
    """A game failing a check; the message says what was seen and how to look again."""


@dataclass(frozen=True)
class Check:
    key: str
    #: what the check holds, as a sentence (printed by check_game)
    title: str
    run: Callable[[Game, Path], None]
    #: whether the check needs an engine (most do)
    needs_engine: bool = True


def _fail(message: str) -> NoReturn:
    raise NonConformance(message)


def _engine(game: Game) -> Engine[Any, Any]:
    engine = game.engine
    if engine is None:
        _fail(f"{game.slug} has no engine")
    return engine


def _setup(game: Game) -> tuple[Engine[Any, Any], Any, dict[str, Any]]:
    """The game's engine, its fixed deck (``golden.py``'s GOLDEN_DECK) and default params."""
    engine = _engine(game)
    deck = golden.golden_deck(game)
    if deck is None:
        _fail(f"{game.slug} has an engine but no GOLDEN_DECK in its golden.py")
    return engine, deck, engine.params.clean({})


# --- the checks ------------------------------------------------------------------------------


def check_parts(game: Game, rules_dir: Path) -> None:
    """Every part of the contract the game declares loads, and the required ones exist."""
    from games.contract import declared_parts
    from games.registry import Game as GameClass

    broken = []
    for name in declared_parts(GameClass):
        try:
            getattr(game, name)
        except Exception as exc:  # a part that fails to import or is missing, named below
            broken.append(f"game.{name}: {type(exc).__name__}: {exc}")
    if broken:
        _fail(f"{game.slug}: parts that do not load:\n" + "\n".join(broken))


def check_engine_is_the_games(game: Game, rules_dir: Path) -> None:
    engine = _engine(game)
    if engine.slug != game.slug:
        _fail(f"the engine of {game.slug} says its game is {engine.slug!r}")


def check_fixed_deck(game: Game, rules_dir: Path) -> None:
    engine, deck, params = _setup(game)
    if deck.game != game.slug:
        _fail(f"{game.slug}'s GOLDEN_DECK is a deck of {deck.game!r}")
    problems = engine.deck_problems(deck)
    if problems:
        _fail(f"{game.slug}'s engine cannot play its GOLDEN_DECK: {'; '.join(problems)}")
    engine.prepare(deck, params)


def check_play_outs_end(game: Game, rules_dir: Path) -> None:
    engine, deck, params = _setup(game)
    prepared = engine.prepare(deck, params)
    for seed in range(PLAY_OUTS):
        state = engine.new_game(prepared, params, game_rng(0, seed))
        chooser = random.Random(seed + 1_000_000)
        for _step in range(MAX_ACTIONS):
            if state.is_over():
                break
            actions = state.legal_actions()
            if not actions:
                _fail(f"{game.slug}: no legal action before the end (game {seed})")
            state.apply(chooser.choice(actions))
        else:
            _fail(
                f"{game.slug}: a random play-out did not end in {MAX_ACTIONS} actions (game {seed})"
            )


def check_copies_are_independent(game: Game, rules_dir: Path) -> None:
    engine, deck, params = _setup(game)
    prepared = engine.prepare(deck, params)
    for seed in range(COPIES):
        state = engine.new_game(prepared, params, game_rng(0, seed))
        for _ in range(3):
            if not state.is_over():
                state.apply(engine.choose(state))
        before = copy.deepcopy(vars(state))
        twin = state.copy()
        while not twin.is_over():
            twin.apply(engine.choose(twin))
        if vars(state) != before:
            _fail(f"{game.slug}: playing a copy changed the original (game {seed})")


def check_determined_by_seed(game: Game, rules_dir: Path) -> None:
    """The same seed plays the same game whatever noise is in the global RNG."""
    engine, deck, params = _setup(game)
    random.seed(1)
    first = [transcript_of(engine, deck, params, run_seed=99, index=i) for i in range(SEEDED)]
    random.seed(12345)
    random.random()
    again = [transcript_of(engine, deck, params, run_seed=99, index=i) for i in range(SEEDED)]
    for index, (one, other) in enumerate(zip(first, again, strict=True)):
        if one != other:
            _fail(
                f"{game.slug}: game {index} of a run played twice differs:\n"
                + _diff(one, other, "first", "again")
            )
    if len({tuple(t) for t in first}) < 2:
        _fail(f"{game.slug}: {SEEDED} games of different seeds were all the same game")


def state_api_game(
    engine: Engine[Any, Any], prepared: Any, params: dict[str, Any], rng: random.Random
) -> tuple[Metrics, list[str]]:
    """One game through the state API alone (``new_game``, ``choose``, ``apply``, ``record``):
    the reference every faster loop must equal, written here so that an engine's ``play``
    is never compared with itself."""
    metrics, transcript = Metrics(), list[str]()
    state = engine.new_game(prepared, params, rng)
    while not state.is_over():
        transcript.append(state.apply(engine.choose(state)))
    engine.record(state, metrics)
    return metrics, transcript


def check_play_equals_state_api(game: Game, rules_dir: Path) -> None:
    """``play`` (an engine's fast loop, if it has one) plays the state API's games, measure
    for measure and line for line, game by game."""
    engine, deck, params = _setup(game)
    prepared = engine.prepare(deck, params)
    for index in range(COMPARED):
        slow, slow_lines = state_api_game(engine, prepared, params, game_rng(RUN_SEED, index))
        fast, fast_lines = Metrics(), list[str]()
        engine.play(prepared, params, game_rng(RUN_SEED, index), fast, fast_lines)
        if fast_lines != slow_lines:
            _fail(
                f"{game.slug}: game {index} of `play` is not the state API's game:\n"
                + _diff(slow_lines, fast_lines, "state API", "play")
            )
        if fast.to_json() != slow.to_json():
            _fail(
                f"{game.slug}: game {index} measured by `play` is not the state API's:\n"
                f"state API: {slow.to_json()}\nplay:      {fast.to_json()}"
            )


def check_play_games_equals_state_api(game: Game, rules_dir: Path) -> None:
    """``play_games`` (a worker's batch) adds up to the state API's games, however the
    batch is cut."""
    engine, deck, params = _setup(game)
    prepared = engine.prepare(deck, params)
    slow = Metrics(games=COMPARED)
    for index in range(COMPARED):
        slow.merge(state_api_game(engine, prepared, params, game_rng(RUN_SEED, index))[0])
    whole = engine.play_games(prepared, params, RUN_SEED, 0, COMPARED)
    cut = engine.play_games(prepared, params, RUN_SEED, 0, 1)
    cut.merge(engine.play_games(prepared, params, RUN_SEED, 1, 173))
    cut.merge(engine.play_games(prepared, params, RUN_SEED, 174, COMPARED - 174))
    for name, batch in (("one batch", whole), ("batches of 1, 173 and 126", cut)):
        if batch.to_json() != slow.to_json():
            _fail(
                f"{game.slug}: `play_games` in {name} is not the state API's "
                f"{COMPARED} games:\nstate API:  {slow.to_json()}\nplay_games: {batch.to_json()}"
            )


def check_says_what_it_models(game: Game, rules_dir: Path) -> None:
    """The engine lists what it does not model, cites real digest lines, bounds its numbers."""
    engine = _engine(game)
    problems = []
    if not engine.not_modelled:
        problems.append("it lists nothing under not_modelled")
    if not engine.cites:
        problems.append("it cites no digest line")
    for cite in engine.cites:
        problems += _cite_problems(cite, game, rules_dir)
    for param in engine.params.params:
        if not param.label:
            problems.append(f"the parameter {param.name!r} has no label")
        if param.minimum is None and param.kind not in ("bool", "choice"):
            problems.append(f"the parameter {param.name!r} has no minimum")
    if problems:
        _fail(f"the engine of {game.slug}: " + "; ".join(problems))


def _cite_problems(cite: str, game: Game, rules_dir: Path) -> list[str]:
    match = CITE.fullmatch(cite)
    if match is None:
        return [f"{cite!r} is not <digest>.md:<line>"]
    path = rules_dir / match["digest"]
    if not path.exists():
        # a game kept outside the repository may keep its own digest elsewhere; any other
        # digest it cites must be one of ours
        if match["digest"] == game.digest:
            return []
        return [f"{cite!r}: no {match['digest']} in {rules_dir}"]
    lines = path.read_text(encoding="utf-8").splitlines()
    line = int(match["line"])
    if not 1 <= line <= len(lines) or not lines[line - 1].strip():
        return [f"{cite!r}: line {line} of {match['digest']} is blank or missing"]
    return []


def check_golden_transcripts(game: Game, rules_dir: Path) -> None:
    """The stored transcripts are exactly the golden games, each as the engine plays it now."""
    _setup(game)
    wanted = golden.golden_files(game)
    problems = []
    for path in sorted(set(game.golden_dir.glob("*.txt")) - set(wanted)):
        problems.append(f"{path.name} is in golden/ but is no golden game")
    for path, expected in sorted(wanted.items()):
        if not path.exists():
            problems.append(f"{path.name} is missing")
            continue
        stored = path.read_text(encoding="utf-8")
        if stored != expected:
            problems.append(
                f"the engine no longer plays {path.name}:\n" + golden_diff(path, stored, expected)
            )
    if problems:
        _fail(
            f"{game.slug}'s golden transcripts ({game.golden_dir}):\n"
            + "\n".join(problems)
            + f"\nIf the change is meant, run: manage.py regenerate_golden {game.slug}"
        )


def golden_diff(path: Path, stored: str, expected: str) -> str:
    return _diff(
        stored.splitlines(),
        expected.splitlines(),
        f"{path.name} (stored)",
        f"{path.name} (as the engine plays now)",
    )


def _diff(before: Iterable[str], after: Iterable[str], old: str, new: str) -> str:
    return "\n".join(difflib.unified_diff(list(before), list(after), old, new, lineterm=""))


CHECKS: tuple[Check, ...] = (
    Check("parts", "every declared part loads", check_parts, needs_engine=False),
    Check("engine-slug", "the engine is the game's", check_engine_is_the_games),
    Check("fixed-deck", "the engine plays its GOLDEN_DECK", check_fixed_deck),
    Check(
        "play-outs-end", "random play-outs end and never run out of choices", check_play_outs_end
    ),
    Check("copies", "a copy is independent of its original", check_copies_are_independent),
    Check(
        "seeded",
        "a game is determined by its seed, whatever the global RNG",
        check_determined_by_seed,
    ),
    Check("play", "`play` plays the state API's games, game by game", check_play_equals_state_api),
    Check(
        "play-games",
        "`play_games` adds up to the state API's games",
        check_play_games_equals_state_api,
    ),
    Check(
        "declared",
        "the engine says what it does not model and cites real lines",
        check_says_what_it_models,
    ),
    Check("golden", "the golden transcripts are unchanged", check_golden_transcripts),
)


def checks_for(game: Game) -> list[Check]:
    """The checks that apply to ``game``: all of them when it has an engine."""
    try:
        has_engine = game.engine is not None
    except Exception:  # an engine that does not load: the checks say how it fails
        has_engine = True
    return [check for check in CHECKS if has_engine or not check.needs_engine]


@dataclass(frozen=True)
class Result:
    check: Check
    #: empty when the check passed
    problem: str = ""

    @property
    def passed(self) -> bool:
        return not self.problem


def run_checks(game: Game, rules_dir: Path = RULES_DIR) -> list[Result]:
    """Every check that applies to ``game``, each run to its end (an exception a check did
    not expect is a failure too, named with its type)."""
    results = []
    for check in checks_for(game):
        try:
            check.run(game, rules_dir)
        except NonConformance as exc:
            results.append(Result(check, str(exc)))
        except Exception as exc:  # the game's own code broke: report it, run the next check
            results.append(Result(check, f"{type(exc).__name__}: {exc}"))
        else:
            results.append(Result(check))
    return results
