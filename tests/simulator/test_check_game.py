"""``manage.py check_game`` as a game's author outside the repository runs it: a tiny game
package written to a temporary folder (``Tally``: draw a card a turn, add its points) passes
every check once its golden transcripts are written; the same game with a state copy that
shares its list fails the copy check, and the command says which check and exits non-zero."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import registry
from simulator import conformance

GOOD_COPY = "twin.drawn = list(self.drawn)"
#: the broken game's copy shares the drawn cards with its original
SHARED_COPY = "twin.drawn = self.drawn"

FILES = {
    "__init__.py": """
        from games.registry import Game

        GAME = Game(slug="{slug}", package=__name__, digest="{slug}.md", sort_order=950)
    """,
    "catalog.py": """
        from django import forms

        from catalog.attributes import AttributeSchema, attribute
        from catalog.spec import CardType, GameSpec
        from {package} import GAME


        class PointsAttributes(AttributeSchema):
            points = attribute(forms.IntegerField(label="Points", min_value=1), face=True)


        SPEC = GameSpec(
            slug=GAME.slug,
            name_en="Tally",
            name_ja="タリー",
            publisher="Nobody",
            years="2026",
            rules_digest=GAME.digest,
            card_types=(CardType("point", "Point", PointsAttributes),),
            sort_order=GAME.sort_order,
        )
    """,
    "deck.py": """
        from decks.game_rules import DeckRules, Zone
        from decks.legality.problems import Cite
        from {package} import GAME

        RULES = DeckRules(
            game=GAME.slug,
            construction=Cite(GAME.digest, 1),
            zones=(Zone("pile", "pile", ("point",), Cite(GAME.digest, 1), is_deck=True),),
            rules=(),
        )
    """,
    "schedule.py": """
        from simulator.engine.schedule import DrawSchedule
        from simulator.engine.setup import GameSetup

        SETUP = GameSetup(schedule=DrawSchedule(opening=0, per_turn=1))
    """,
    "engine.py": """
        from {package} import GAME
        from {package}.schedule import SETUP
        from simulator.engine.engine import Engine, GameState


        class TallyState(GameState):
            def __init__(self, points, order):
                self.points, self.order, self.drawn = points, order, []

            def is_over(self):
                return sum(self.drawn) >= 10 or len(self.drawn) == len(self.order)

            def legal_actions(self):
                return [] if self.is_over() else ["draw"]

            def apply(self, action):
                self.drawn.append(self.points[self.order[len(self.drawn)]])
                return f"drew {{self.drawn[-1]}}, {{sum(self.drawn)}} in all"

            def copy(self):
                twin = TallyState(self.points, self.order)
                {copy}
                return twin


        class TallyEngine(Engine):
            slug = GAME.slug
            schedule = SETUP.schedule
            not_modelled = ("Everything but adding points.",)
            cites = ("{slug}.md:1",)

            def prepare(self, deck, params):
                return tuple(deck.cards[i].attributes["points"] for i in deck.pile())

            def new_game(self, prepared, params, rng):
                order = list(range(len(prepared)))
                rng.shuffle(order)
                return TallyState(prepared, order)

            def choose(self, state):
                return "draw"

            def record(self, state, metrics):
                metrics.observe("turns", len(state.drawn))


        ENGINE = TallyEngine()
    """,
    "golden.py": """
        from simulator.engine.cards import SimCard, SimDeck

        GOLDEN_DECK = SimDeck(
            game="{slug}",
            cards=tuple(SimCard(n, f"T{{n}}", f"Card {{n}}", "point", {{"points": n + 1}})
                        for n in range(6)),
            zones={{"pile": tuple((n, 1) for n in range(6))}},
            draw_zone="pile",
        )
    """,
}


def write_tally(folder: Path, package: str, slug: str, copy: str) -> Path:
    for name, text in FILES.items():
        path = folder / package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        filled = textwrap.dedent(text).format(package=package, slug=slug, copy=copy)
        path.write_text(filled.lstrip(), encoding="utf-8")
    return folder / package


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for the game packages; whatever they registered goes after."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(registry.slugs())
    yield tmp_path
    for slug in set(registry.slugs()) - before:
        registry.unregister(slug)
    for name in [m for m in sys.modules if m.startswith("tally_")]:
        del sys.modules[name]


def check_game(package: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("check_game", package, stdout=out, no_color=True)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def test_a_conforming_outside_game_passes_every_check(outside: Path) -> None:
    package = write_tally(outside, "tally_good", "tally-good", GOOD_COPY)
    registry.register("tally_good")
    call_command("regenerate_golden", "tally-good", stdout=StringIO())
    assert sorted(p.name for p in (package / "golden").glob("*.txt")) == [
        "game0.txt",
        "game1.txt",
        "game2.txt",
    ]

    output, error = check_game("tally_good")

    assert error is None, output
    for check in conformance.CHECKS:
        assert f"PASS {check.key}: {check.title}" in output
    assert "FAIL" not in output
    assert f"tally-good: all {len(conformance.CHECKS)} checks passed" in output


def test_a_broken_outside_game_fails_the_checks_it_breaks_and_exits_non_zero(
    outside: Path,
) -> None:
    write_tally(outside, "tally_broken", "tally-broken", SHARED_COPY)  # and no golden files

    output, error = check_game("tally_broken")

    assert error is not None
    assert str(error) == "tally-broken: 2 of 10 checks failed: copies, golden"
    assert "FAIL copies: a copy is independent of its original" in output
    assert "tally-broken: playing a copy changed the original (game " in output
    assert "FAIL golden: " in output and "game0.txt is missing" in output
    assert "PASS play-outs-end: " in output and "PASS play: " in output


def test_a_package_that_is_no_game_is_refused(outside: Path) -> None:
    (outside / "tally_none").mkdir()
    (outside / "tally_none" / "__init__.py").write_text("", encoding="utf-8")

    with pytest.raises(CommandError, match="tally_none: cannot register the game"):
        call_command("check_game", "tally_none")


def test_a_game_without_an_engine_gets_the_contract_checked(outside: Path) -> None:
    package = write_tally(outside, "tally_quiet", "tally-quiet", GOOD_COPY)
    (package / "engine.py").unlink()

    output, error = check_game("tally_quiet")

    assert error is None, output
    assert "tally-quiet: no engine.py, so only the contract is checked" in output
    assert "PASS parts: every declared part loads" in output and "copies" not in output
